public import Foundation
internal import StoreCommands
internal import StoreSimulation

/// The queue of payments of StoreKit's original API (StoreKit's `SKPaymentQueue`), over the
/// same store as StoreKit 2: a purchase through either appears in both, as on a device.
///
/// Every queue object fronts the app's one payment queue, as Apple's do: ``default()`` and a
/// queue made with ``init()`` (a test's spy subclass included) share its transactions, and
/// each one's observers hear every change, with that object as the queue. What is each
/// object's own: its observers and its delegate.
///
/// `@unchecked Sendable`: its observers and its store are used only under `lock` (taken after
/// the app queue's, ``PaymentQueueHub``); observers are called on the main queue, outside both.
open class SKPaymentQueue: NSObject, @unchecked Sendable {
  let lock = NSLock()
  /// The store of ``default()``'s queue, which keeps it (`nil` for a queue made with `init()`).
  private unowned let defaultStore: Store?
  /// The store a queue made with `init()` fronts now: the running test's, followed as it
  /// changes (``follow(_:)``).
  private weak var followed: Store?
  private var observers: [any SKPaymentTransactionObserver] = []
  private weak var storedDelegate: (any SKPaymentQueueDelegate)?

  /// The queue `default()` answers for `store` (made by the store's ``PaymentQueueHub``).
  init(defaultOf store: Store) {
    defaultStore = store
    super.init()
  }

  /// A queue object over the app's one payment queue, as `SKPaymentQueue()` makes one on
  /// Apple's platforms (for a subclass that spies on the queue): it fronts the running test's
  /// session, whichever that is when it is used, so a queue made before the test's session
  /// hears that session's purchases.
  public override init() {
    defaultStore = nil
    super.init()
    StoreRegistry.shared.keepFollowing(self)
  }

  /// The store this queue fronts now.
  var store: Store {
    if let defaultStore { return defaultStore }
    return follow(Store.current)
  }

  /// Makes a queue made with `init()` front `store`'s payment queue (from now on it hears that
  /// queue's changes, and no longer another store's).
  @discardableResult
  func follow(_ store: Store) -> Store {
    guard defaultStore == nil else { return store }
    let previous = lock.withLock {
      defer { followed = store }
      return followed
    }
    guard previous !== store else { return store }
    previous?.madePaymentHub?.detach(self)
    store.paymentHub.attach(self)
    return store
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

  /// The transactions not yet finished, each as it stands now, oldest first (the app's,
  /// whichever queue object is asked).
  open var transactions: [SKPaymentTransaction] { store.paymentHub.transactions }

  /// Adds an observer; it hears the unfinished transactions at once (as an app hears them at
  /// launch), then every change.
  open func add(_ observer: any SKPaymentTransactionObserver) {
    let pending = store.paymentHub.add(observer, to: self)
    guard !pending.isEmpty else { return }
    // The app's observer is called on the main queue, as StoreKit calls it; how it keeps its
    // own state safe is the app's (Apple's protocol is not Sendable either).
    nonisolated(unsafe) let observer = observer
    DispatchQueue.main.async { observer.paymentQueue(self, updatedTransactions: pending) }
  }

  /// Adds `observer` if it is not there yet (under the app queue's lock): whether it was added.
  func insert(_ observer: any SKPaymentTransactionObserver) -> Bool {
    lock.withLock {
      guard !observers.contains(where: { $0 === observer }) else { return false }
      observers.append(observer)
      return true
    }
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
    let store = store
    var removed: SKPaymentTransaction?
    store.paymentHub.change { state in
      removed = state.remove(transaction)
      return removed.map { [.removed([$0])] } ?? []
    }
    if let removed, let id = removed.engineID, removed.transactionState != .failed {
      store.finish(id)
    }
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

  // MARK: - What the app's queue tells this one

  /// Calls every observer of this moment with `body` on the main queue.
  func tell(_ body: @escaping (any SKPaymentTransactionObserver) -> Void) {
    tell(transactionObservers, body)
  }

  /// Tells `observers` (this queue's when the news was made, read under the app queue's lock)
  /// the news, in order, with this object as the queue.
  func tell(_ observers: [any SKPaymentTransactionObserver], _ news: [PaymentQueueState.News]) {
    for item in news {
      switch item {
      case .updated(let transactions):
        tell(observers) { $0.paymentQueue(self, updatedTransactions: transactions) }
      case .removed(let transactions):
        tell(observers) { $0.paymentQueue(self, removedTransactions: transactions) }
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

  /// Calls `observers` with `body` on the main queue: an observer added after the change heard
  /// of it from ``add(_:)-(any SKPaymentTransactionObserver)``, and does not hear of it twice.
  private func tell(
    _ observers: [any SKPaymentTransactionObserver],
    _ body: @escaping (any SKPaymentTransactionObserver) -> Void
  ) {
    guard !observers.isEmpty else { return }
    // On the main queue, as StoreKit calls observers (see `add(_:)` for why it is unchecked).
    nonisolated(unsafe) let body = body
    nonisolated(unsafe) let observers = observers
    DispatchQueue.main.async {
      for observer in observers { body(observer) }
    }
  }
}
