import Foundation
import Hummingbird
import StoreJSON
import StoreSimulation

/// Apple's Retention Messaging API: images, messages, default messages, the real-time URL and
/// the performance test. Changes are commands applied where the session lives; lists and gets
/// read the session as last committed.
struct RetentionController {
  let access: SessionAccess

  func addRoutes(to api: RouterGroup<ServerContext>) {
    api.get("v1/messaging/image/list", use: imageList)
      .put("v1/messaging/image/:imageIdentifier", use: uploadImage)
      .delete("v1/messaging/image/:imageIdentifier", use: deleteImage)
      .get("v1/messaging/message/list", use: messageList)
      .put("v1/messaging/message/:messageIdentifier", use: uploadMessage)
      .delete("v1/messaging/message/:messageIdentifier", use: deleteMessage)
      .put("v1/messaging/default/:productId/:locale", use: configureDefault)
      .delete("v1/messaging/default/:productId/:locale", use: deleteDefault)
      .get("v1/messaging/default/:productId/:locale", use: getDefault)
      .put("v1/messaging/realtime/url", use: configureURL)
      .delete("v1/messaging/realtime/url", use: deleteURL)
      .get("v1/messaging/realtime/url", use: getURL)
      .post("v1/messaging/performanceTest", use: initiateTest)
      .get("v1/messaging/performanceTest/result/:requestId", use: testResult)
  }

  /// A change: `body` applies it where the session lives; 200 with no body once it did.
  private func change(
    _ request: Request, _ context: ServerContext,
    _ body: @escaping (ServedSession, ServerRequest) throws -> Void
  ) async throws -> Response {
    try await access.write(request, context) { served, whole in
      try body(served, whole)
      return ServerResponse(status: 200, body: [])
    }
  }

  @Sendable func uploadImage(_ request: Request, context: ServerContext) async throws -> Response {
    let id = context.parameters.get("imageIdentifier") ?? ""
    let size = request.uri.queryParameters.get("imageSize")
    return try await change(request, context) { served, whole in
      try served.uploadImage(id, size: size, body: whole.body)
    }
  }

  @Sendable func deleteImage(_ request: Request, context: ServerContext) async throws -> Response {
    let id = context.parameters.get("imageIdentifier") ?? ""
    return try await change(request, context) { served, _ in
      try served.retention(
        .deleteImage(
          id: try ServedSession.uuid(id, invalid: AppStoreError(.invalidImage), "image identifier"))
      )
    }
  }

  @Sendable func uploadMessage(
    _ request: Request, context: ServerContext
  ) async throws
    -> Response
  {
    let id = context.parameters.get("messageIdentifier") ?? ""
    return try await change(request, context) { served, whole in
      try served.uploadMessage(id, body: whole.body)
    }
  }

  @Sendable func deleteMessage(
    _ request: Request, context: ServerContext
  ) async throws
    -> Response
  {
    let id = context.parameters.get("messageIdentifier") ?? ""
    return try await change(request, context) { served, _ in
      try served.retention(
        .deleteMessage(
          id: try ServedSession.uuid(id, invalid: .generalBadRequest, "message identifier")))
    }
  }

  @Sendable func configureDefault(
    _ request: Request, context: ServerContext
  ) async throws
    -> Response
  {
    let (productID, locale) = Self.place(context)
    return try await change(request, context) { served, whole in
      try served.configureDefault(productID: productID, locale: locale, body: whole.body)
    }
  }

  @Sendable func deleteDefault(
    _ request: Request, context: ServerContext
  ) async throws
    -> Response
  {
    let (productID, locale) = Self.place(context)
    return try await change(request, context) { served, _ in
      try served.retention(.deleteDefault(productID: productID, locale: locale))
    }
  }

  @Sendable func configureURL(
    _ request: Request, context: ServerContext
  ) async throws
    -> Response
  {
    try await change(request, context) { served, whole in
      try served.configureRealtimeURL(body: whole.body)
    }
  }

  @Sendable func deleteURL(_ request: Request, context: ServerContext) async throws -> Response {
    try await change(request, context) { served, _ in try served.retention(.setRealtimeURL(nil)) }
  }

  @Sendable func initiateTest(
    _ request: Request, context: ServerContext
  ) async throws
    -> Response
  {
    try await access.write(request, context) { served, whole in
      try served.initiatePerformanceTest(body: whole.body)
    }
  }

  @Sendable func testResult(_ request: Request, context: ServerContext) async throws -> Response {
    let id = context.parameters.get("requestId") ?? ""
    return try await access.write(request, context) { served, _ in
      guard UUID(uuidString: id) != nil else {
        throw AppStoreError(.invalidRequestID, message: "Invalid request id: \(id).")
      }
      guard let test = served.performanceTests.withLockedValue({ $0[id.lowercased()] }) else {
        throw AppStoreError(
          .performanceTestRunNotFound, message: "Performance test run not found: \(id).")
      }
      return served.json(test.result)
    }
  }

  @Sendable func imageList(_ request: Request, context: ServerContext) async throws -> Response {
    try await access.read(request, context) { reader, _ in
      let items = reader.base.retention.images.map { id, image in
        JSONValue.object(
          JSONObject([
            JSONMember("imageIdentifier", .string(id)),
            JSONMember("imageState", .string(image.review.rawValue)),
            JSONMember("imageSize", .string(image.size.rawValue)),
          ]))
      }
      return reader.json(.object(JSONObject([JSONMember("imageIdentifiers", .array(items))])))
    }
  }

  @Sendable func messageList(_ request: Request, context: ServerContext) async throws -> Response {
    try await access.read(request, context) { reader, _ in
      let items = reader.base.retention.messages.map { id, message in
        JSONValue.object(
          JSONObject([
            JSONMember("messageIdentifier", .string(id)),
            JSONMember("messageState", .string(message.review.rawValue)),
          ]))
      }
      return reader.json(.object(JSONObject([JSONMember("messageIdentifiers", .array(items))])))
    }
  }

  @Sendable func getDefault(_ request: Request, context: ServerContext) async throws -> Response {
    let (productID, locale) = Self.place(context)
    return try await access.read(request, context) { reader, _ in
      let session = reader.base
      guard let index = session.catalog.index(of: productID),
        session.catalog.products[index].groupIndex != nil
      else {
        throw AppStoreError(.invalidProductID)
      }
      guard Session.isLocale(locale) else {
        throw AppStoreError(.invalidLocale)
      }
      guard let id = session.retention.defaultMessage(productID: productID, locale: locale) else {
        throw AppStoreError(.defaultMessageNotFound)
      }
      return reader.json(.object(JSONObject([JSONMember("messageIdentifier", .string(id))])))
    }
  }

  @Sendable func getURL(_ request: Request, context: ServerContext) async throws -> Response {
    try await access.read(request, context) { reader, _ in
      guard let url = reader.base.retention.realtimeURL else {
        throw AppStoreError(.realtimeURLNotFound)
      }
      return reader.json(.object(JSONObject([JSONMember("realtimeURL", .string(url))])))
    }
  }

  private static func place(_ context: ServerContext) -> (String, String) {
    (context.parameters.get("productId") ?? "", context.parameters.get("locale") ?? "")
  }
}
