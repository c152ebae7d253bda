import Foundation

/// Work other threads hand to the inspector's loop (the requests `--serve` answers, its request
/// log): run between two frames, in order, each reporting what to show. A thread that posts
/// never waits for the loop; the loop never waits for it. `@unchecked Sendable`: `items` and
/// `isClosed` are read and written only under `lock`.
package final class LoopInbox: @unchecked Sendable {
  private struct Item {
    var run: () -> [InspectorInput]
    var abandon: (String) -> Void
  }

  private let lock = NSLock()
  private var items: [Item] = []
  private var isClosed = false
  private let wake: @Sendable () -> Void

  /// An inbox that calls `wake` (from the posting thread) when work arrives.
  package init(wake: @escaping @Sendable () -> Void) { self.wake = wake }

  /// Hands the loop `run`; `abandon` is told why instead when the loop will not run it (it is
  /// closing). Returns `false`, having told neither, when it is closed already.
  @discardableResult
  package func post(
    _ run: @escaping @Sendable () -> [InspectorInput],
    abandon: @escaping @Sendable (String) -> Void = { _ in }
  ) -> Bool {
    lock.lock()
    guard !isClosed else {
      lock.unlock()
      return false
    }
    items.append(Item(run: run, abandon: abandon))
    lock.unlock()
    wake()
    return true
  }

  /// Runs the work waiting, in order (on the loop); what it reports.
  package func runWaiting() -> [InspectorInput] {
    lock.lock()
    let taken = items
    items = []
    lock.unlock()
    return taken.flatMap { $0.run() }
  }

  /// Takes no more work, and abandons what waits, saying `why`.
  package func close(_ why: String) {
    lock.lock()
    isClosed = true
    let left = items
    items = []
    lock.unlock()
    for item in left { item.abandon(why) }
  }
}
