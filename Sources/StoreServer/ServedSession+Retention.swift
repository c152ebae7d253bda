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

  /// `POST /inApps/v1/messaging/performanceTest`: starts Apple's performance test of the
  /// configured URL with an active subscription's original transaction.
  func initiatePerformanceTest(
    _ asked: PerformanceTestRequest
  ) throws(AppStoreError) -> ServerResponse {
    guard let transaction = try? reader.transaction(asked.originalTransactionID) else {
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

  static func invalidTest(_ why: String) -> AppStoreError {
    AppStoreError(
      .invalidPerformanceTestRequest, message: "Invalid performance test request: \(why).")
  }
}
