public import Foundation
internal import StoreSimulation
public import StorekeeperKit

/// A transaction as the Transaction Manager shows it (StoreKitTest's `SKTestTransaction`).
/// `@unchecked Sendable` (an `NSObject` subclass cannot be checked): every property is a `let`.
public final class SKTestTransaction: NSObject, @unchecked Sendable {
  /// The transaction's identifier.
  public let identifier: Int
  /// The original purchase's identifier.
  public let originalTransactionIdentifier: Int
  /// The product bought.
  public let productIdentifier: String
  /// StoreKit 1's payment state.
  public let state: SKPaymentTransactionState
  /// When it was bought or renewed.
  public let purchaseDate: Date
  /// When it was refunded.
  public let cancelDate: Date?
  /// When a subscription's period ends.
  public let expirationDate: Date?
  /// Whether the subscription renews.
  public let autoRenewingEnabled: Bool
  /// Whether an interruption or a billing issue waits to be resolved.
  public let hasPurchaseIssue: Bool
  /// Whether a parent has to approve it.
  public let pendingAskToBuyConfirmation: Bool
  /// Whether a price increase waits for the customer's consent.
  public let isPendingPriceIncreaseConsent: Bool

  init(_ t: StoreSimulation.Transaction, in session: SessionView) {
    identifier = Int(t.id)
    originalTransactionIdentifier = Int(t.originalID)
    productIdentifier = t.productID
    state = SKPaymentTransactionState(t.state)
    purchaseDate = t.purchaseDate.date
    cancelDate = t.revocationDate?.date
    expirationDate = t.expirationDate?.date
    let status = t.subscriptionGroupID.flatMap { session.status(forGroup: $0) }
    let current = status.map { $0.renewalInfo.originalTransactionID == t.originalID } ?? false
    autoRenewingEnabled = current && status?.renewalInfo.willAutoRenew == true
    hasPurchaseIssue = t.hasPurchaseIssue
    pendingAskToBuyConfirmation = t.pendingAskToBuyConfirmation
    isPendingPriceIncreaseConsent =
      current && status?.renewalInfo.priceIncreaseStatus == .pending
    super.init()
  }
}
