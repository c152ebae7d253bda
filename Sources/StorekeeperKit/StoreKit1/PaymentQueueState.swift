import Foundation
internal import StoreSimulation

/// What the payment queue holds and how the store's events change it: the engine's payment
/// updates (its `purchasing`, `purchased`, `failed`, `deferred` and `restored`), and the
/// transactions StoreKit 1 hears of without a payment of its own (renewals, purchases outside
/// the app, an interrupted purchase completed, an offer code redeemed), which arrive
/// `purchased`. A value: ``SKPaymentQueue`` keeps it under its lock.
struct PaymentQueueState {
  /// What observers hear, in order.
  enum News {
    case updated([SKPaymentTransaction])
    case removed([SKPaymentTransaction])
    case restoreFinished
    case restoreFailed(any Error)
    case revoked([String])
    case storefrontChanged
  }

  /// The unfinished transactions, each as it stands now, by key (keys ascend with age).
  private(set) var queued: [Int: SKPaymentTransaction] = [:]
  /// The lowest id the queue may still hear of as new: every transaction below it existed when
  /// the queue was made or has been heard of (the purchaser's ids ascend, so one number
  /// remembers them all, however long the app runs).
  private var firstUnheard: UInt64 = 0
  private var nextKey = 0
  /// Marks the transactions this queue made.
  private let origin = PaymentQueueOrigin()

  /// The unfinished transactions, oldest first.
  var transactions: [SKPaymentTransaction] { queued.keys.sorted().compactMap { queued[$0] } }

  /// A queue that starts with the app's unfinished transactions (as at launch).
  mutating func start(
    unfinished: [(StoreSimulation.Transaction, Date)], firstNew id: UInt64
  ) {
    firstUnheard = id
    for (transaction, date) in unfinished {
      let payment = SKPayment(
        .init(productIdentifier: transaction.productID, quantity: transaction.purchasedQuantity))
      _ = put(payment: payment, state: .purchased, id: transaction.id, date: date)
    }
  }

  /// A payment refused before any transaction existed: queued `purchasing`, then `failed`.
  mutating func refuse(_ payment: SKPayment, _ error: SKError) -> [News] {
    let purchasing = put(payment: payment, state: .purchasing, id: nil, date: nil)
    let failed = put(
      payment: payment, state: .failed, id: nil, date: nil, error: error, key: purchasing.key)
    return [.updated([purchasing]), .updated([failed])]
  }

  /// Removes a finished transaction (its latest form), if it is queued here (one of another
  /// app queue, an earlier session's, is not, whatever its key).
  mutating func remove(_ transaction: SKPaymentTransaction) -> SKPaymentTransaction? {
    guard transaction.origin === origin else { return nil }
    return queued.removeValue(forKey: transaction.key)
  }

  /// What a batch of the store's events means for the queue. `payment` is the payment the
  /// queue itself added, when the batch is its purchase; `dates` gives a transaction's date.
  mutating func receive(
    _ events: [StoreEvent], payment: SKPayment?, dates: (UInt64) -> Date?
  ) -> [News] {
    var news: [News] = []
    var batch: [SKPaymentTransaction] = []
    func flush() {
      if !batch.isEmpty { news.append(.updated(batch)) }
      batch = []
    }
    func add(_ transaction: SKPaymentTransaction) {
      if batch.contains(where: { $0.key == transaction.key }) { flush() }
      batch.append(transaction)
    }
    let updated = Set(
      events.compactMap { event -> UInt64? in
        if case .paymentQueue(let update) = event.kind { update.transactionID } else { nil }
      })
    var purchasing: Int?
    for event in events {
      switch event.kind {
      case .paymentQueue(let update):
        add(apply(update, payment: payment, purchasing: &purchasing, dates: dates))
      case .transaction(let transaction, .updates?):
        guard transaction.owner == .purchaser, transaction.revocationDate == nil,
          !updated.contains(transaction.id), transaction.id >= firstUnheard
        else { continue }
        let payment = SKPayment(
          .init(productIdentifier: transaction.productID, quantity: transaction.purchasedQuantity))
        add(
          put(payment: payment, state: .purchased, id: transaction.id, date: dates(transaction.id)))
      case .restoreCompleted:
        flush()
        news.append(.restoreFinished)
      case .revokedEntitlements(let productIDs):
        flush()
        news.append(.revoked(productIDs))
      default: continue
      }
    }
    flush()
    return news
  }

  /// One payment update: a new transaction (`purchasing`, `restored`, or one the queue has no
  /// `purchasing` for), or the next state of one it has.
  private mutating func apply(
    _ update: PaymentQueueUpdate, payment given: SKPayment?, purchasing: inout Int?,
    dates: (UInt64) -> Date?
  ) -> SKPaymentTransaction {
    let payment = SKPayment(.init(productIdentifier: update.productID, quantity: update.quantity))
    let date = update.transactionID.flatMap(dates)
    switch update.state {
    case .purchasing:
      let made = put(
        payment: given ?? payment, state: .purchasing, id: nil, date: nil)
      purchasing = made.key
      return made
    case .restored:
      let original = SKPaymentTransaction(
        payment: payment, state: .purchased, key: -1, origin: nil, engineID: update.transactionID,
        date: date)
      return put(
        payment: payment, state: .restored, id: update.transactionID, date: date,
        original: original)
    case .purchased, .failed, .deferred:
      // The payment `purchasing` in this batch (a crossgrade may answer with the current
      // subscription's transaction), else an Ask to Buy request now approved.
      let key =
        purchasing.take()
        ?? queued.first {
          $0.value.engineID == update.transactionID && $0.value.transactionState == .deferred
        }?.key
      let error = update.state == .failed ? SKError(update.error ?? .unknown) : nil
      return put(
        payment: key.flatMap { queued[$0]?.payment } ?? payment,
        state: SKPaymentTransactionState(update.state),
        id: update.transactionID, date: date, error: error, key: key)
    }
  }

  /// Queues a transaction as it stands: under `key` (its next state) or a new key.
  private mutating func put(
    payment: SKPayment, state: SKPaymentTransactionState, id: UInt64?, date: Date?,
    original: SKPaymentTransaction? = nil, error: (any Error)? = nil, key: Int? = nil
  ) -> SKPaymentTransaction {
    let key = key ?? nextKey
    if key == nextKey { nextKey += 1 }
    if let id, id >= firstUnheard { firstUnheard = id + 1 }
    let transaction = SKPaymentTransaction(
      payment: payment, state: state, key: key, origin: origin, engineID: id, date: date,
      original: original, error: error)
    queued[key] = transaction
    return transaction
  }

}

/// The identity of one app payment queue, which its transactions carry.
final class PaymentQueueOrigin: Sendable {}
