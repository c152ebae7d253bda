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
      .get("v1/messaging/message/list", use: messageList)
      .get("v1/messaging/default/:productId/:locale", use: getDefault)
      .get("v1/messaging/realtime/url", use: getURL)
      .post("v1/messaging/performanceTest", use: initiateTest)
      .get("v1/messaging/performanceTest/result/:requestId", use: testResult)
    // The changes: each reads its request into the engine's action, then applies it where the
    // session lives.
    api.put(
      "v1/messaging/image/:imageIdentifier",
      use: change { request, context in
        let (id, size) = (
          Self.value("imageIdentifier", context), request.uri.queryParameters.get("imageSize")
        )
        return { whole in
          try RetentionChangeRequest.imageUpload(id: id, size: size, body: whole.body)
        }
      }
    )
    .delete(
      "v1/messaging/image/:imageIdentifier",
      use: change { _, context in
        let id = Self.value("imageIdentifier", context)
        return { _ in try RetentionChangeRequest.imageDeletion(id: id) }
      }
    )
    .put(
      "v1/messaging/message/:messageIdentifier",
      use: change { _, context in
        let id = Self.value("messageIdentifier", context)
        return { whole in try RetentionChangeRequest.messageUpload(id: id, body: whole.body) }
      }
    )
    .delete(
      "v1/messaging/message/:messageIdentifier",
      use: change { _, context in
        let id = Self.value("messageIdentifier", context)
        return { _ in try RetentionChangeRequest.messageDeletion(id: id) }
      }
    )
    .put(
      "v1/messaging/default/:productId/:locale",
      use: change { _, context in
        let (productID, locale) = Self.place(context)
        return { whole in
          try RetentionChangeRequest.defaultMessage(
            productID: productID, locale: locale, body: whole.body)
        }
      }
    )
    .delete(
      "v1/messaging/default/:productId/:locale",
      use: change { _, context in
        let (productID, locale) = Self.place(context)
        return { _ in .deleteDefault(productID: productID, locale: locale) }
      }
    )
    .put(
      "v1/messaging/realtime/url",
      use: change { _, _ in { whole in try RetentionChangeRequest.realtimeURL(body: whole.body) } }
    )
    .delete("v1/messaging/realtime/url", use: change { _, _ in { _ in .setRealtimeURL(nil) } })
  }

  /// A change's handler: `read` reads the request's path and query and gives what reads its
  /// body into the engine's action; the action applies where the session lives; 200 with no
  /// body once it did.
  private func change(
    _ read:
      @escaping @Sendable (Request, ServerContext) ->
      @Sendable (ServerRequest) throws -> RetentionAction
  ) -> @Sendable (Request, ServerContext) async throws -> Response {
    { [access] request, context in
      let action = read(request, context)
      return try await access.write(request, context) { served, whole in
        try served.retention(action(whole))
        return ServerResponse(status: 200, body: [])
      }
    }
  }

  private static func value(_ name: String, _ context: ServerContext) -> String {
    context.parameters.get(name) ?? ""
  }

  @Sendable func initiateTest(
    _ request: Request, context: ServerContext
  ) async throws
    -> Response
  {
    try await access.write(request, context) { served, whole in
      try served.initiatePerformanceTest(PerformanceTestRequest(body: whole.body))
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
    (value("productId", context), value("locale", context))
  }
}
