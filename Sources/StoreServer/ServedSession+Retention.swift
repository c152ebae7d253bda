import Foundation
import StoreCommands
import StoreDelivery
import StoreJSON
import StoreSimulation

/// The Retention Messaging API (Apple's `/inApps/v1/messaging/…`): each change a `retention`
/// command through the host, each refusal Apple's error.
extension ServedSession {
  /// Applies a retention action; Apple's error when the engine refuses it.
  func retention(_ action: RetentionAction) throws(AppStoreError) {
    _ = try applyCall(.retention(action)) { error in
      guard case .retention(let refusal)? = error.refusal else {
        return AppStoreError(status: 400, code: 4_000_000, message: error.message)
      }
      return AppStoreError(status: refusal.status, code: refusal.code, message: refusal.message)
    }
  }

  /// `PUT /inApps/v1/messaging/image/{imageIdentifier}?imageSize=`.
  func uploadImage(_ id: String, size: String?, body: [UInt8]) throws(AppStoreError) {
    let id = try Self.uuid(id, invalid: 4_000_161, "image identifier")
    guard let kind = RetentionImageSize(rawValue: size ?? "FULL_SIZE") else {
      throw AppStoreError(
        status: 400, code: 4_000_216, message: "imageSize must be FULL_SIZE or BULLET_POINT.")
    }
    let png: PNGHeader
    do throws(PNGHeader.Problem) {
      png = try PNGHeader(body)
    } catch {
      throw AppStoreError(
        status: 400, code: 4_000_161,
        message: "Invalid image. The body is not a PNG file: \(error.reason).")
    }
    try retention(
      .uploadImage(
        id: id, RetentionImage(size: kind, width: png.width, height: png.height),
        transparent: png.transparent))
  }

  /// `PUT /inApps/v1/messaging/message/{messageIdentifier}`.
  func uploadMessage(_ id: String, body: [UInt8]) throws(AppStoreError) {
    let id = try Self.uuid(id, invalid: 4_000_000, "message identifier")
    let object = try reader.bodyObject(body)
    let text: RetentionMessageText
    do throws(RetentionTextError) {
      text = try RetentionMessageText(json: object)
    } catch {
      throw AppStoreError(status: 400, code: 4_000_000, message: "Bad request. \(error.message)")
    }
    try retention(.uploadMessage(id: id, text))
  }

  /// `PUT /inApps/v1/messaging/default/{productId}/{locale}`.
  func configureDefault(productID: String, locale: String, body: [UInt8]) throws(AppStoreError) {
    guard case .string(let raw)? = try reader.bodyObject(body)["messageIdentifier"] else {
      throw AppStoreError(
        status: 400, code: 4_000_000, message: "Bad request. messageIdentifier is missing.")
    }
    let id = try Self.uuid(raw, invalid: 4_000_000, "message identifier")
    try retention(.setDefault(productID: productID, locale: locale, messageID: id))
  }

  /// `PUT /inApps/v1/messaging/realtime/url`.
  func configureRealtimeURL(body: [UInt8]) throws(AppStoreError) {
    guard case .string(let url)? = try reader.bodyObject(body)["realtimeURL"] else {
      throw AppStoreError(
        status: 400, code: 4_000_215, message: "Invalid request. realtimeURL is missing.")
    }
    try retention(.setRealtimeURL(url))
  }

  /// `POST /inApps/v1/messaging/performanceTest`: starts Apple's performance test of the
  /// configured URL with an active subscription's original transaction.
  func initiatePerformanceTest(body: [UInt8]) throws(AppStoreError) -> ServerResponse {
    guard case .string(let text)? = try reader.bodyObject(body)["originalTransactionId"],
      let transaction = try? reader.transaction(text)
    else {
      throw Self.invalidTest("originalTransactionId names no transaction")
    }
    guard let caller = host.retentionCaller as? RealtimeRetention else {
      throw AppStoreError(status: 500, code: 5_000_000, message: "Nothing here sends requests.")
    }
    if performanceTests.withLockedValue({ $0.values.contains { !$0.isFinished } }) {
      throw AppStoreError(
        status: 400, code: 4_000_213, message: "A performance test is already running.")
    }
    let request = try acting(as: transaction.owner.customer) {
      () throws(AppStoreError) -> RetentionRequest in
      guard let request = try? host.session.retentionRequest(),
        request.originalTransactionID == transaction.originalID
      else {
        throw Self.invalidTest("the transaction is not an active auto-renewable subscription")
      }
      return request
    }
    guard request.url != nil else {
      throw AppStoreError(
        status: 404, code: 4_040_021, message: "Realtime URL not found. Configure it first.")
    }
    let test = PerformanceTest(
      request: request, at: host.session.now, config: PerformanceTest.Config(), caller: caller)
    performanceTests.withLockedValue { $0[test.requestID] = test }
    return json(
      .object(
        JSONObject([
          JSONMember("config", test.config.json), JSONMember("requestId", .string(test.requestID)),
        ])))
  }

  private static func invalidTest(_ why: String) -> AppStoreError {
    AppStoreError(
      status: 400, code: 4_000_211, message: "Invalid performance test request: \(why).")
  }

  static func uuid(
    _ text: String, invalid code: Int, _ what: String
  ) throws(AppStoreError)
    -> String
  {
    guard UUID(uuidString: text) != nil else {
      throw AppStoreError(status: 400, code: code, message: "Invalid \(what). It must be a UUID.")
    }
    return text.lowercased()
  }
}
