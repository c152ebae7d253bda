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
/// ``SKPaymentQueue/transactions`` holds each one's latest. Open, with overridable properties
/// and `init()`, as Apple's is, so tests may mock it or fill an empty one by key-value coding
/// (`setValue(SKPaymentTransactionState.failed.rawValue, forKey: "transactionState")`); a
/// transaction the queue did not make finishes nothing.
///
/// `@unchecked Sendable`: its values change only by key-value coding, which a test double does
/// before it hands the transaction over.
open class SKPaymentTransaction: NSObject, _SKKeyValueCoding, @unchecked Sendable {
  private struct Values {
    var payment = SKPayment()
    var transactionState = SKPaymentTransactionState.purchasing
    var transactionIdentifier: String?
    var transactionDate: Date?
    var original: SKPaymentTransaction?
    var error: (any Error)?
  }

  private var values: Values
  /// Which payment of the queue this is, across its updates (-1: not the queue's).
  let key: Int
  /// The app queue that made it (`nil` for one a test made): a key means something only there.
  let origin: PaymentQueueOrigin?
  /// The engine's transaction, once there is one (a failed or deferred one has one too).
  let engineID: UInt64?

  /// An empty transaction (`purchasing`, of an empty payment), for a subclass to describe.
  public override init() {
    values = Values()
    key = -1
    origin = nil
    engineID = nil
    super.init()
  }

  init(
    payment: SKPayment, state: SKPaymentTransactionState, key: Int, origin: PaymentQueueOrigin?,
    engineID: UInt64?,
    date: Date?, original: SKPaymentTransaction? = nil, error: (any Error)? = nil
  ) {
    let identified = state == .purchased || state == .restored
    values = Values(
      payment: payment, transactionState: state,
      transactionIdentifier: identified ? engineID.map { String($0) } : nil,
      transactionDate: identified ? date : nil, original: original, error: error)
    self.key = key
    self.origin = origin
    self.engineID = engineID
    super.init()
  }

  /// The payment the customer made.
  open var payment: SKPayment { values.payment }
  /// Where it stands.
  open var transactionState: SKPaymentTransactionState { values.transactionState }
  /// The App Store's identifier, for a purchased or restored transaction (StoreKit 2's
  /// `Transaction.id`, as a string).
  open var transactionIdentifier: String? { values.transactionIdentifier }
  /// When it was bought (or restored).
  open var transactionDate: Date? { values.transactionDate }
  /// For a restored transaction, the one it restores.
  open var original: SKPaymentTransaction? { values.original }
  /// For a failed one, why (an ``SKError``).
  open var error: (any Error)? { values.error }
  /// Hosted content: none (not simulated).
  open var downloads: [SKDownload] { [] }

  /// `SKPaymentTransaction: <product> <state> <id>`.
  open override var description: String {
    "SKPaymentTransaction: \(payment.productIdentifier) \(transactionState) "
      + (transactionIdentifier ?? "-")
  }

  /// Stores a value by Apple's Objective-C property name (`originalTransaction` is Swift's
  /// `original`; `payment` may be set too, which Apple's is not: a double needs one).
  public func _setKeyed(_ value: Any?, forKey key: String) -> Bool {
    let given = KeyedValue(value, key: key, of: self)
    switch key {
    case "payment": values.payment = given.required(SKPayment.self)
    case "transactionState":
      values.transactionState = given.raw(SKPaymentTransactionState.self)
    case "transactionIdentifier": values.transactionIdentifier = given.optional(String.self)
    case "transactionDate": values.transactionDate = given.optional(Date.self)
    case "originalTransaction", "original":
      values.original = given.optional(SKPaymentTransaction.self)
    case "error": values.error = given.optional((any Error).self)
    case "downloads": break
    default: return false
    }
    return true
  }

  /// A property's value by Apple's Objective-C name (the state by its raw value).
  public func _keyed(_ key: String) -> Any?? {
    switch key {
    case "payment": payment
    case "transactionState": transactionState.rawValue
    case "transactionIdentifier": .some(transactionIdentifier)
    case "transactionDate": .some(transactionDate)
    case "originalTransaction", "original": .some(original)
    case "error": .some(error)
    case "downloads": downloads
    default: nil
    }
  }

  #if canImport(ObjectiveC)
    /// Sets one of Apple's Objective-C properties by name (``KeyedValue``'s conversions).
    open override func setValue(_ value: Any?, forKey key: String) {
      if !_setKeyed(value, forKey: key) { super.setValue(value, forKey: key) }
    }
    /// Reads one of Apple's Objective-C properties by name.
    open override func value(forKey key: String) -> Any? { _keyed(key) ?? super.value(forKey: key) }
  #endif
}

/// Apple-hosted content of a purchase (StoreKit's `SKDownload`): declared so that observers
/// written for Apple's platforms compile; the test environment hosts no content, so no
/// transaction has downloads. `@unchecked Sendable`: it has no state.
public final class SKDownload: NSObject, @unchecked Sendable {
  /// Never made: no content is hosted.
  private override init() {}
}
