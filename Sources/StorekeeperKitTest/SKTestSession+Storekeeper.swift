public import Foundation
internal import StoreCommands
internal import StoreSimulation
internal import StorekeeperKit

/// What Storekeeper adds to `SKTestSession`: a clock a test moves itself, a binding of the
/// session to a task (parallel tests), and the command language.
extension SKTestSession {
  /// How the session's clock moves.
  public enum Clock: Sendable, Equatable {
    /// With the wall clock, as in Xcode: renewals arrive while a test waits (the default).
    case running
    /// Only when the test moves it (``advance(by:)``, ``advanceToNextEvent()``,
    /// ``advance(to:)``): a year of renewals in milliseconds, nothing on timing.
    case manual
  }

  /// How the clock moves now.
  public var clock: Clock {
    get { store.clock == .manual ? .manual : .running }
    set { store.clock = newValue == .manual ? .manual : .running }
  }

  /// The session's present.
  public var now: Date { store.now.date }

  /// Moves the clock on by `duration`: what falls due on the way happens, in order.
  public func advance(by duration: Duration) {
    let (seconds, attoseconds) = duration.components
    let milliseconds = seconds * 1000 + attoseconds / 1_000_000_000_000_000
    store.advance(.to(store.now.adding(milliseconds: max(0, milliseconds))))
  }

  /// Moves the clock to the next scheduled event (a renewal, an expiry …) and makes it happen.
  public func advanceToNextEvent() { store.advance(.next) }

  /// Moves the clock to `date`.
  public func advance(to date: Date) {
    store.advance(.to(Instant(milliseconds: Int64((date.timeIntervalSince1970 * 1000).rounded()))))
  }

  /// Runs `body` with StoreKit's static API (`Product.products`, `Transaction.updates` …)
  /// reaching this session, whatever other sessions exist: tests may run in parallel.
  public func bind<T>(_ body: () async throws -> T) async rethrows -> T {
    try await Store.$bound.withValue(store) { try await body() }
  }

  /// Stands for the app's Info.plist key `SKIncludeConsumableInAppPurchaseHistory` (iOS 18),
  /// which a SwiftPM test has no Info.plist for: on, finished consumables stay in
  /// `Transaction.all`, `Transaction.latest(for:)` and `Product.latestTransaction` (default off,
  /// as the key's default). The command language's `set consumable-history on`.
  public var includeConsumableInAppPurchaseHistory: Bool {
    get { setting(\.includeConsumableInAppPurchaseHistory) }
    set { set(.flag(.consumableHistory, newValue)) }
  }

  /// The certificate (DER) the session signs receipts and JWS with, for an app's local receipt
  /// validation in a test: Xcode's "Save Public Certificate" (`StoreKitTestCertificate.cer`).
  /// Made once per test process.
  public var certificate: Data { store.certificateData }

  /// Applies a line of Storekeeper's command language to the session (`advance 1mo`,
  /// `refund last reason=developerIssue` …); an error says why it could not apply.
  public func perform(_ line: String) throws {
    let outcome = store.perform(line: line)
    if let error = outcome.error {
      throw SKTestError(error, error.description)
    }
  }
}

extension SKTestSession {
  /// What the customer picks in the refund sheet the app opens (`beginRefundRequest()`).
  public enum RefundSheetChoice: Sendable, Equatable {
    /// An issue with the app: refunded with `revocationReason == .developerIssue`.
    case developerIssue
    /// Any other reason: refunded with `revocationReason == .other`.
    case other
    /// Bought by mistake.
    case unintendedPurchase
    /// Not delivered (an issue with the app).
    case fulfillmentIssue
    /// Not what the customer expected.
    case unsatisfiedWithPurchase
    /// A legal reason.
    case legal
    /// The customer cancels the sheet: `.userCancelled`.
    case cancel
  }

  /// What the customer picks in the refund sheet (default `.other`).
  public var refundSheetChoice: RefundSheetChoice {
    get {
      switch store.choices.refundReason {
      case nil: .cancel
      case .developerIssue?: .developerIssue
      case .other?: .other
      case .unintendedPurchase?: .unintendedPurchase
      case .fulfillmentIssue?: .fulfillmentIssue
      case .unsatisfiedWithPurchase?: .unsatisfiedWithPurchase
      case .legal?: .legal
      }
    }
    set {
      store.choices.refundReason =
        switch newValue {
        case .cancel: nil
        case .developerIssue: .developerIssue
        case .other: .other
        case .unintendedPurchase: .unintendedPurchase
        case .fulfillmentIssue: .fulfillmentIssue
        case .unsatisfiedWithPurchase: .unsatisfiedWithPurchase
        case .legal: .legal
        }
    }
  }

  /// The customer starts buying a product on the App Store (a promoted in-app purchase, or a
  /// promotional or win-back offer `offerID` of it): the app receives it on
  /// `PurchaseIntent.intents` and completes it with `purchase(options:)`. Xcode's equivalent
  /// is opening an `itms-services://?action=purchaseIntent` URL on the device.
  ///
  /// - Throws: ``SKTestError`` `invalidProductIdentifier` naming the product or offer the
  ///   configuration does not have.
  public func sendPurchaseIntent(productIdentifier: String, offerID: String? = nil) throws {
    guard store.sendPurchaseIntent(productID: productIdentifier, offerID: offerID) != nil else {
      let what = offerID.map { "no offer \($0) of \(productIdentifier)" }
      throw SKTestError(
        .invalidProductIdentifier,
        "the configuration has \(what ?? "no product \(productIdentifier)")")
    }
  }

  /// The offer code (its reference name) the customer types in the redemption sheet the app
  /// opens (`AppStore.presentOfferCodeRedeemSheet()`); `nil` closes it.
  public var offerCodeToRedeem: String? {
    get { store.choices.offerCode }
    set { store.choices.offerCode = newValue }
  }
}
