public import Foundation
package import StoreSimulation

/// Where a payment stands (StoreKit's `SKPaymentTransactionState`); `SKTestTransaction.state`
/// reports it too.
public enum SKPaymentTransactionState: Int, Sendable, Equatable, Hashable {
  /// In the queue, being processed (no identifier yet).
  case purchasing = 0
  /// Bought: deliver it, then finish the transaction.
  case purchased = 1
  /// The payment failed; ``SKPaymentTransaction/error`` says why. Finish it.
  case failed = 2
  /// Restored from the customer's history (`restoreCompletedTransactions()`). Finish it.
  case restored = 3
  /// Waiting for a parent's approval (Ask to Buy): neither finished nor failed yet.
  case deferred = 4
}

extension SKPaymentTransactionState {
  /// The engine's payment state (the queue's and the Transaction Manager's).
  package init(_ state: PaymentTransactionState) {
    self =
      switch state {
      case .purchasing: .purchasing
      case .purchased: .purchased
      case .failed: .failed
      case .restored: .restored
      case .deferred: .deferred
      }
  }
}

/// A payment in the queue, as the observer sees it at one update (StoreKit's
/// `SKPaymentTransaction`). Each update hands the observer a transaction as it stands then;
/// ``SKPaymentQueue/transactions`` holds each one's latest.
///
/// `@unchecked Sendable`: its properties are constants.
public final class SKPaymentTransaction: NSObject, @unchecked Sendable {
  /// The payment the customer made.
  public let payment: SKPayment
  /// Where it stands.
  public let transactionState: SKPaymentTransactionState
  /// The App Store's identifier, for a purchased or restored transaction (StoreKit 2's
  /// `Transaction.id`, as a string).
  public let transactionIdentifier: String?
  /// When it was bought (or restored).
  public let transactionDate: Date?
  /// For a restored transaction, the one it restores.
  public let original: SKPaymentTransaction?
  /// For a failed one, why (an ``SKError``).
  public let error: (any Error)?
  /// Hosted content: none (not simulated).
  public let downloads: [SKDownload] = []

  /// Which payment of the queue this is, across its updates.
  let key: Int
  /// The engine's transaction, once there is one (a failed or deferred one has one too).
  let engineID: UInt64?

  init(
    payment: SKPayment, state: SKPaymentTransactionState, key: Int, engineID: UInt64?,
    date: Date?, original: SKPaymentTransaction? = nil, error: (any Error)? = nil
  ) {
    self.payment = payment
    transactionState = state
    self.key = key
    self.engineID = engineID
    let identified = state == .purchased || state == .restored
    transactionIdentifier = identified ? engineID.map { String($0) } : nil
    transactionDate = identified ? date : nil
    self.original = original
    self.error = error
  }

  /// `SKPaymentTransaction: <product> <state> <id>`.
  public override var description: String {
    "SKPaymentTransaction: \(payment.productIdentifier) \(transactionState) "
      + (transactionIdentifier ?? "-")
  }
}

/// Apple-hosted content of a purchase (StoreKit's `SKDownload`): declared so that observers
/// written for Apple's platforms compile; the test environment hosts no content, so no
/// transaction has downloads. `@unchecked Sendable`: it has no state.
public final class SKDownload: NSObject, @unchecked Sendable {
  /// Never made: no content is hosted.
  private override init() {}
}
