public import Foundation
internal import StoreCommands
internal import StoreSimulation

extension AppStore {
  /// Whether the customer may make payments (always, in the test environment).
  public static var canMakePayments: Bool { true }

  /// The device's verification identifier (the signer's device id).
  public static var deviceVerificationID: UUID? {
    UUID(uuidString: Store.current.signer.deviceID)
  }

  /// Syncs the customer's transactions with the App Store (`call sync`).
  ///
  /// - Throws: ``StoreKitError`` (a simulated error of `appStoreSync`).
  public static func sync() async throws { try Store.current.call(.appStoreSync) }

  /// Shows the customer's subscriptions to manage (`call manage-subscriptions`). On Linux
  /// there is no scene: the sheet opens and closes at once (StoreKit's
  /// `showManageSubscriptions(in:)` without the scene).
  ///
  /// - Throws: ``StoreKitError`` (a simulated error of `manageSubscriptions`).
  public static func showManageSubscriptions() async throws {
    try Store.current.call(.manageSubscriptions)
  }

  /// Shows a group's subscriptions to manage.
  ///
  /// - Throws: ``StoreKitError`` (a simulated error of `manageSubscriptions`).
  public static func showManageSubscriptions(subscriptionGroupID: String) async throws {
    try Store.current.call(.manageSubscriptions)
  }

  /// Shows the offer-code redemption sheet (`call redeem-sheet`): the customer redeems the
  /// code the test chose for the session (`SKTestSession.offerCodeToRedeem`), which arrives
  /// on `Transaction.updates` (or, for a subscriber, waits in `renewalInfo.offer` for the
  /// next renewal); with none chosen, the customer closes the sheet. StoreKit's
  /// `presentOfferCodeRedeemSheet(in:)` without the scene.
  ///
  /// - Throws: ``StoreKitError`` (a simulated error of `offerCodeRedeem`).
  public static func presentOfferCodeRedeemSheet() async throws {
    let store = Store.current
    try store.call(.offerCodeRedeem)
    try store.redeemChosenOfferCode()
  }

  /// The app's age rating code (none in the test environment: a `.storekit` file has no age
  /// rating).
  public static var ageRatingCode: Int? { get async { nil } }

  /// Asks for a review (nothing is shown in the test environment).
  public static func requestReview() {}
}

extension Store {
  /// The customer redeems the offer code the test chose, if any.
  func redeemChosenOfferCode() throws {
    guard let code = offerCodeToRedeem else { return }
    let productID = read { session in
      session.catalog.products.first { $0.codeOffers.contains { $0.id == code } }?.productID
    }
    guard let productID else { throw StoreKitError.unknown }
    var options = PurchaseOptions()
    options.offer = .code(code)
    options.origin = .store
    let outcome = perform(.buy(productID: productID, options: options))
    if let error = outcome.error { throw StoreKitError.systemError(error) }
  }
}

/// StoreKit's original review prompt (`SKStoreReviewController`): nothing is shown in the test
/// environment, as with `AppStore.requestReview()`; `requestReview(in:)` takes a scene Linux has
/// not.
public final class SKStoreReviewController: Sendable {
  /// Asks for a review (nothing is shown).
  @available(*, deprecated, message: "Use AppStore.requestReview()")
  public static func requestReview() {}
}
