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
    _ = try store.redeemChosenOfferCode()
  }

  /// iOS 27's redemption sheet, which returns what the redemption made: the transaction of the
  /// code the test chose (`SKTestSession.offerCodeToRedeem`); with none chosen the customer
  /// closes the sheet (`StoreKitError.userCancelled`). StoreKit's
  /// `presentOfferCodeRedeemSheet(from:options:)` without the view controller.
  ///
  /// - Throws: ``StoreKitError`` (a simulated error of `offerCodeRedeem`, the code's purchase
  ///   refused, or the sheet closed).
  public static func presentOfferCodeRedeemSheet(
    options: Set<RedeemOption> = []
  ) async throws -> VerificationResult<Transaction> {
    let store = Store.current
    try store.call(.offerCodeRedeem)
    guard let redeemed = try store.redeemChosenOfferCode() else {
      throw StoreKitError.userCancelled
    }
    return redeemed
  }

  /// Shows the sheet where the purchaser invites people to the group's multiseat subscription
  /// whose invitations Apple hosts. On Linux there is no view controller: the people the test
  /// named (`SKTestSession.multiSeatInvitees`) accept at once, each a customer with an
  /// `assigned` transaction of their own; with nobody named the purchaser dismisses the sheet
  /// (`StoreKitError.userCancelled`). StoreKit's
  /// `presentMultiSeatInvitationSheet(from:subscriptionGroupID:)` without the controller.
  ///
  /// - Throws: ``StoreKitError``: `unknown` when the group has no such subscription,
  ///   `systemError` with the engine's reason when a seat is lacking, `userCancelled` when the
  ///   sheet is dismissed.
  public static func presentMultiSeatInvitationSheet(subscriptionGroupID: String) async throws {
    let store = Store.current
    let hosted = store.read { session in
      session.status(forGroup: subscriptionGroupID).flatMap {
        session.seatGroup(ofTransaction: $0.transactionID)
      }?.invitations == .apple
    }
    // No such subscription in the group: StoreKit has nothing to invite to.
    guard hosted else { throw StoreKitError.unknown }
    let invitees = store.choices.multiSeatInvitees
    for name in invitees {
      let outcome = store.perform(.seats(.invite(member: name)))
      if let error = outcome.error { throw StoreKitError.systemError(error) }
    }
    if invitees.isEmpty { throw StoreKitError.userCancelled }
  }

  /// The app's age rating code (none in the test environment: a `.storekit` file has no age
  /// rating).
  public static var ageRatingCode: Int? { get async { nil } }

  /// Asks for a review (nothing is shown in the test environment).
  public static func requestReview() {}
}

extension Store {
  /// The customer redeems the offer code the test chose, if any: its transaction.
  func redeemChosenOfferCode() throws -> VerificationResult<Transaction>? {
    guard let code = offerCodeToRedeem else { return nil }
    let productID = read { session in
      session.catalog.products.first { $0.codeOffers.contains { $0.id == code } }?.productID
    }
    guard let productID else { throw StoreKitError.unknown }
    var options = PurchaseOptions()
    options.offer = .code(code)
    options.origin = .store
    let outcome = perform(.buy(productID: productID, options: options))
    if let error = outcome.error { throw StoreKitError.systemError(error) }
    return outcome.lastTransaction.map { bought in withSession { _ in verified(bought) } }
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

/// An option of iOS 27's offer code redemption (`presentOfferCodeRedeemSheet(options:)`).
/// Apple's page lists no option yet: pass `[]`.
public struct RedeemOption: Equatable, Hashable, Sendable {}
