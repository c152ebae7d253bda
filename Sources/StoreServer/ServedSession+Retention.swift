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
        return AppStoreError(.generalBadRequest, message: error.message)
      }
      return Self.appleError(refusal)
    }
  }

  /// Apple's error object for a rule of Retention Messaging the engine refused by.
  static func appleError(_ refusal: RetentionRefusal) -> AppStoreError {
    let object: RetentionMessagingError
    switch refusal.rule {
    case .imageAlreadyExists: object = .imageAlreadyExists
    case .messageAlreadyExists: object = .messageAlreadyExists
    case .tooManyImages: object = .maximumNumberOfImagesReached
    case .tooManyMessages: object = .maximumNumberOfMessagesReached
    case .invalidImage: object = .invalidImage
    case .imageSize: object = .badRequestImageSize
    case .imageNotFound: object = .imageNotFound
    case .messageNotFound: object = .messageNotFound
    case .imageInUse: object = .imageInUse
    case .messageNotApproved: object = .messageNotApproved
    case .imageNotApproved: object = .imageNotApproved
    case .headerTooLong: object = .headerTooLong
    case .bodyTooLong: object = .bodyTooLong
    case .altTextTooLong: object = .altTextTooLong
    case .tooManyBulletPoints: object = .badRequestTooManyBulletPoints
    case .bulletPointTextTooLong: object = .badRequestBulletPointTextTooLong
    case .headerAboveNoImage: object = .badRequestAboveImageRequiresAnImage
    case .realtimeURL: object = .badRequestRealtimeURL
    case .invalidLocale: object = .invalidLocale
    case .invalidProduct: return AppStoreError(.invalidProductID, message: refusal.message)
    case .customer: return AppStoreError(.generalBadRequest, message: refusal.message)
    }
    return AppStoreError(object, message: refusal.message)
  }

  /// `PUT /inApps/v1/messaging/image/{imageIdentifier}?imageSize=`.
  func uploadImage(_ id: String, size: String?, body: [UInt8]) throws(AppStoreError) {
    let id = try Self.uuid(id, invalid: AppStoreError(.invalidImage), "image identifier")
    guard let kind = RetentionImageSize(rawValue: size ?? "FULL_SIZE") else {
      throw AppStoreError(
        .badRequestImageSize, message: "imageSize must be FULL_SIZE or BULLET_POINT.")
    }
    let png: PNGHeader
    do throws(PNGHeader.Problem) {
      png = try PNGHeader(body)
    } catch {
      throw AppStoreError(
        .invalidImage, message: "Invalid image. The body is not a PNG file: \(error.reason).")
    }
    try retention(
      .uploadImage(
        id: id, RetentionImage(size: kind, width: png.width, height: png.height),
        transparent: png.transparent))
  }

  /// `PUT /inApps/v1/messaging/message/{messageIdentifier}`.
  func uploadMessage(_ id: String, body: [UInt8]) throws(AppStoreError) {
    let id = try Self.uuid(id, invalid: .generalBadRequest, "message identifier")
    let object = try reader.bodyObject(body)
    let text: RetentionMessageText
    do throws(RetentionTextError) {
      text = try RetentionMessageText(json: object)
    } catch {
      throw AppStoreError(.generalBadRequest, message: "Bad request. \(error.message)")
    }
    try retention(.uploadMessage(id: id, text))
  }

  /// `PUT /inApps/v1/messaging/default/{productId}/{locale}`.
  func configureDefault(productID: String, locale: String, body: [UInt8]) throws(AppStoreError) {
    guard case .string(let raw)? = try reader.bodyObject(body)["messageIdentifier"] else {
      throw AppStoreError(.generalBadRequest, message: "Bad request. messageIdentifier is missing.")
    }
    let id = try Self.uuid(raw, invalid: .generalBadRequest, "message identifier")
    try retention(.setDefault(productID: productID, locale: locale, messageID: id))
  }

  /// `PUT /inApps/v1/messaging/realtime/url`.
  func configureRealtimeURL(body: [UInt8]) throws(AppStoreError) {
    guard case .string(let url)? = try reader.bodyObject(body)["realtimeURL"] else {
      throw AppStoreError(
        .badRequestRealtimeURL, message: "Invalid request. realtimeURL is missing.")
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
      throw AppStoreError(.generalInternal, message: "Nothing here sends requests.")
    }
    if performanceTests.withLockedValue({ $0.values.contains { !$0.isFinished } }) {
      throw AppStoreError(.existingPerformanceTestRun)
    }
    // A read about the transaction's owner: nothing is journaled.
    guard
      let request = try? host.session.acting(as: transaction.owner.customer)?
        .retentionRequest(),
      request.originalTransactionID == transaction.originalID
    else {
      throw Self.invalidTest("the transaction is not an active auto-renewable subscription")
    }
    guard request.url != nil else {
      throw AppStoreError(
        .realtimeURLNotFound, message: "Realtime URL not found. Configure it first.")
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
      .invalidPerformanceTestRequest, message: "Invalid performance test request: \(why).")
  }

  static func uuid(
    _ text: String, invalid error: AppStoreError, _ what: String
  ) throws(AppStoreError)
    -> String
  {
    guard UUID(uuidString: text) != nil else {
      var answer = error
      answer.message = "Invalid \(what). It must be a UUID."
      throw answer
    }
    return text.lowercased()
  }
}
