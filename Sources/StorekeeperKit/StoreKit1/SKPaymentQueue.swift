public import Foundation
internal import StoreCommands
internal import StoreSimulation

/// The queue of payments of StoreKit's original API (StoreKit's `SKPaymentQueue`), over the
/// same store as StoreKit 2: a purchase through either appears in both, as on a device.
/// ``default()`` is the queue of the running test's session.
///
/// `@unchecked Sendable`: its mutable state is used only under `lock` (and the store's lock
/// when the store's events arrive); observers are called on the main queue, outside both.
open class SKPaymentQueue: NSObject, @unchecked Sendable {
  let lock = NSLock()
  unowned let store: Store
  /// The store of a queue made with ``init()``, which the store does not keep.
  private let ownStore: Store?
  var state = PaymentQueueState()
  private var observers: [any SKPaymentTransactionObserver] = []
  private weak var storedDelegate: (any SKPaymentQueueDelegate)?

  init(store: Store, unfinished: [(StoreSimulation.Transaction, Date)], firstNew: UInt64) {
    self.store = store
    ownStore = nil
    super.init()
    state.start(unfinished: unfinished, firstNew: firstNew)
  }

  /// A queue of its own over the running test's session, as `SKPaymentQueue()` makes one on
  /// Apple's platforms: for a subclass that mocks the queue. Its payments are bought in the
  /// session, but only ``default()`` hears the session's updates.
  public override init() {
    let store = Store.current
    self.store = store
    ownStore = store
    super.init()
    state.start(unfinished: [], firstNew: .max)
  }

  /// The queue of the running test's session (the session made last under XCTest, the test's
  /// own under swift-testing, the bound one inside `SKTestSession.bind`).
  open class func `default`() -> SKPaymentQueue { Store.current.paymentQueue }

  /// Whether the customer may make payments: always in the test environment.
  open class func canMakePayments() -> Bool { true }

  /// What the queue asks the app (not retained).
  open var delegate: (any SKPaymentQueueDelegate)? {
    get { lock.withLock { storedDelegate } }
    set { lock.withLock { storedDelegate = newValue } }
  }

  /// The session's storefront.
  open var storefront: SKStorefront? { store.read { SKStorefront($0.settings.storefront) } }

  /// The observers, in the order they were added (retained until removed).
  open var transactionObservers: [any SKPaymentTransactionObserver] {
    lock.withLock { observers }
  }

  /// The transactions not yet finished, each as it stands now, oldest first.
  open var transactions: [SKPaymentTransaction] { lock.withLock { state.transactions } }

  /// Adds an observer; it hears the unfinished transactions at once (as an app hears them at
  /// launch), then every change.
  open func add(_ observer: any SKPaymentTransactionObserver) {
    let pending: [SKPaymentTransaction] = lock.withLock {
      guard !observers.contains(where: { $0 === observer }) else { return [] }
      observers.append(observer)
      return state.transactions
    }
    guard !pending.isEmpty else { return }
    // The app's observer is called on the main queue, as StoreKit calls it; how it keeps its
    // own state safe is the app's (Apple's protocol is not Sendable either).
    nonisolated(unsafe) let observer = observer
    DispatchQueue.main.async { observer.paymentQueue(self, updatedTransactions: pending) }
  }

  /// Removes an observer.
  open func remove(_ observer: any SKPaymentTransactionObserver) {
    lock.withLock { observers.removeAll { $0 === observer } }
  }

  /// Adds a payment: observers hear it `purchasing`, then `purchased`, `failed` or `deferred`
  /// as the session's switches decide (interrupted purchases, Ask to Buy, failing
  /// transactions, a promotional offer's signature).
  open func add(_ payment: SKPayment) {
    store.pay(SKPayment(payment.values), through: self)
  }

  /// Finishes a transaction: it leaves the queue (observers hear it removed), and StoreKit 2
  /// sees it finished. A transaction still `purchasing` or `deferred` cannot be finished.
  open func finishTransaction(_ transaction: SKPaymentTransaction) {
    guard transaction.transactionState != .purchasing, transaction.transactionState != .deferred
    else { return }
    let (removed, observers) = change { $0.remove(key: transaction.key) }
    guard let removed else { return }
    if let id = removed.engineID, removed.transactionState != .failed { store.finish(id) }
    tell(observers) { $0.paymentQueue(self, removedTransactions: [removed]) }
  }

  /// Restores the customer's non-consumables and subscriptions: each arrives `restored`, then
  /// ``SKPaymentTransactionObserver/paymentQueueRestoreCompletedTransactionsFinished(_:)``.
  open func restoreCompletedTransactions() {
    restoreCompletedTransactions(withApplicationUsername: nil)
  }

  /// Restores, as ``restoreCompletedTransactions()`` does, for an account of the app (the
  /// test environment has one customer, so the name restricts nothing).
  open func restoreCompletedTransactions(withApplicationUsername username: String?) {
    store.restore(through: self)
  }

  /// The offer code redemption sheet, without a scene: the customer redeems the code the test
  /// chose (`SKTestSession.offerCodeToRedeem`), which arrives `purchased`.
  open func presentCodeRedemptionSheet() {
    let store = store
    DispatchQueue.main.async { try? store.redeemChosenOfferCode() }
  }

  /// Shows the price-increase consent sheet if one is pending (the test decides the answer
  /// with `SKTestSession.consentToPriceIncreaseForTransaction(identifier:)`).
  open func showPriceConsentIfNeeded() {}

  /// Hosted content is not simulated: nothing to start.
  open func start(_ downloads: [SKDownload]) {}
  /// Hosted content is not simulated: nothing to pause.
  open func pause(_ downloads: [SKDownload]) {}
  /// Hosted content is not simulated: nothing to resume.
  open func resume(_ downloads: [SKDownload]) {}
  /// Hosted content is not simulated: nothing to cancel.
  open func cancel(_ downloads: [SKDownload]) {}

  // MARK: - What the store hands the queue

  /// Changes the queue's state and reads its observers under one lock: news of the change goes
  /// to the observers there were when it was made.
  private func change<Result>(
    _ body: (inout PaymentQueueState) -> Result
  ) -> (Result, [any SKPaymentTransactionObserver]) {
    lock.withLock { (body(&state), observers) }
  }

  /// Calls every observer of this moment with `body` on the main queue.
  func tell(_ body: @escaping (any SKPaymentTransactionObserver) -> Void) {
    tell(transactionObservers, body)
  }

  /// Calls `observers` (those there were when the news was made, read under the same lock as
  /// the change) with `body` on the main queue: an observer added after the change heard of
  /// it from ``add(_:)``, and does not hear of it twice.
  private func tell(
    _ observers: [any SKPaymentTransactionObserver],
    _ body: @escaping (any SKPaymentTransactionObserver) -> Void
  ) {
    // On the main queue, as StoreKit calls observers (see `add(_:)` for why it is unchecked).
    nonisolated(unsafe) let body = body
    nonisolated(unsafe) let observers = observers
    DispatchQueue.main.async {
      for observer in observers { body(observer) }
    }
  }

  /// A payment the store refused before any transaction existed: observers hear it
  /// `purchasing`, then `failed` with `error`.
  func refuse(_ payment: SKPayment, _ error: SKError) {
    let ((purchasing, failed), observers) = change { $0.refuse(payment, error) }
    tell(observers) { $0.paymentQueue(self, updatedTransactions: [purchasing]) }
    tell(observers) { $0.paymentQueue(self, updatedTransactions: [failed]) }
  }

  /// Takes the store's events (under the store's lock, once the journal holds them) and tells
  /// the observers what they mean for the queue.
  func receive(_ events: [StoreEvent], payment: SKPayment?, dates: (UInt64) -> Date?) {
    let (told, observers) = change { $0.receive(events, payment: payment, dates: dates) }
    for news in told {
      switch news {
      case .updated(let transactions):
        tell(observers) { $0.paymentQueue(self, updatedTransactions: transactions) }
      case .restoreFinished:
        tell(observers) { $0.paymentQueueRestoreCompletedTransactionsFinished(self) }
      case .restoreFailed(let error):
        tell(observers) {
          $0.paymentQueue(self, restoreCompletedTransactionsFailedWithError: error)
        }
      case .revoked(let productIDs):
        tell(observers) {
          $0.paymentQueue(self, didRevokeEntitlementsForProductIdentifiers: productIDs)
        }
      case .storefrontChanged:
        tell(observers) { $0.paymentQueueDidChangeStorefront(self) }
      }
    }
  }
}
