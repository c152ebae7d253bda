import Foundation
import StoreUtilities

/// Work other threads hand to the inspector's loop (the requests `--serve` answers, its request
/// log): run between two frames, in order, each reporting what to show. A thread that posts
/// never waits for the loop; the loop never waits for it.
package final class LoopInbox: Sendable {
  private struct Item: Sendable {
    var run: @Sendable () -> [InspectorInput]
    var abandon: @Sendable (String) -> Void
  }

  private struct Waiting: Sendable {
    var items: [Item] = []
    var isClosed = false
  }

  private let waiting = Locked(Waiting())
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
    let posted = waiting.withLock { waiting in
      guard !waiting.isClosed else { return false }
      waiting.items.append(Item(run: run, abandon: abandon))
      return true
    }
    if posted { wake() }
    return posted
  }

  /// Runs the work waiting, in order (on the loop); what it reports.
  package func runWaiting() -> [InspectorInput] {
    let taken = waiting.withLock { waiting in
      defer { waiting.items = [] }
      return waiting.items
    }
    return taken.flatMap { $0.run() }
  }

  /// Takes no more work, and abandons what waits, saying `why`.
  package func close(_ why: String) {
    let left = waiting.withLock { waiting in
      waiting.isClosed = true
      defer { waiting.items = [] }
      return waiting.items
    }
    for item in left { item.abandon(why) }
  }
}
