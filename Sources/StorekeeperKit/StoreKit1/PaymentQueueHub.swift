import Foundation
internal import StoreSimulation

/// The app's one payment queue in a store, as the App Store keeps it for an app: its unfinished
/// transactions, and every ``SKPaymentQueue`` object that fronts it (`default()` and each queue
/// made with `init()`, a subclass's included). A change is made once, here, and told to the
/// observers of every front, each hearing the front it was added to as the queue.
///
/// `@unchecked Sendable`: `state` and `fronts` are used only under `lock`; a front's observers
/// are read under it too (the hub's lock, then the front's), so that an observer added at the
/// moment of a change hears of it exactly once (from ``SKPaymentQueue/add(_:)-(any SKPaymentTransactionObserver)``
/// or from the news).
final class PaymentQueueHub: @unchecked Sendable {
  private struct Front {
    weak var queue: SKPaymentQueue?
  }

  let lock = NSLock()
  private var state = PaymentQueueState()
  private var fronts: [Front] = []
  /// The queue `SKPaymentQueue.default()` answers: kept as long as the store is.
  private(set) var defaultQueue: SKPaymentQueue!

  /// The app's queue as at launch: its unfinished transactions in it, `firstNew` the lowest id
  /// it has not heard of.
  init(store: Store, unfinished: [(StoreSimulation.Transaction, Date)], firstNew: UInt64) {
    state.start(unfinished: unfinished, firstNew: firstNew)
    defaultQueue = SKPaymentQueue(defaultOf: store)
    fronts = [Front(queue: defaultQueue)]
  }

  /// The unfinished transactions, each as it stands now, oldest first.
  var transactions: [SKPaymentTransaction] { lock.withLock { state.transactions } }

  /// The queues fronting this one now (the default one first).
  var liveFronts: [SKPaymentQueue] { lock.withLock { fronts.compactMap(\.queue) } }

  /// Makes `queue` a front: it hears every change from now on (once, however often it asks).
  func attach(_ queue: SKPaymentQueue) {
    lock.withLock {
      fronts.removeAll { $0.queue == nil }
      if !fronts.contains(where: { $0.queue === queue }) { fronts.append(Front(queue: queue)) }
    }
  }

  /// `queue` no longer fronts this one (it follows another store's).
  func detach(_ queue: SKPaymentQueue) {
    lock.withLock { fronts.removeAll { $0.queue == nil || $0.queue === queue } }
  }

  /// Adds `observer` to `front` and returns what it must hear at once (the unfinished
  /// transactions), both under the hub's lock.
  func add(
    _ observer: any SKPaymentTransactionObserver, to front: SKPaymentQueue
  ) -> [SKPaymentTransaction] {
    lock.withLock { front.insert(observer) ? state.transactions : [] }
  }

  /// Changes the queue and tells every front's observers of that moment what `body` says.
  func change(_ body: (inout PaymentQueueState) -> [PaymentQueueState.News]) {
    let told: [(SKPaymentQueue, [any SKPaymentTransactionObserver])]
    let news: [PaymentQueueState.News]
    (news, told) = lock.withLock {
      (body(&state), fronts.compactMap { $0.queue.map { ($0, $0.transactionObservers) } })
    }
    guard !news.isEmpty else { return }
    for (front, observers) in told { front.tell(observers, news) }
  }
}
