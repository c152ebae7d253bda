import StoreSimulation
import StoreTerminal

/// A terminal in memory: keys are queued by the test, frames are kept.
package final class MemoryTerminal: TerminalDevice {
  /// The size in cells.
  package var size: (width: Int, height: Int)
  /// A signal to report, as if one arrived.
  package var terminationSignal: Int32?
  /// Every frame drawn, oldest first.
  package private(set) var frames: [Canvas] = []
  /// The timeouts the loop asked to wait, in order.
  package private(set) var waits: [Int] = []
  private var batches: [[Key]]
  private let clock: ManualClock?

  /// A terminal that hands out `batches` of keys, one batch per read; with `clock`, each read
  /// moves it on by the timeout asked for (as if the loop slept), then quits when none is left.
  package init(width: Int = 100, height: Int = 30, keys batches: [[Key]], clock: ManualClock? = nil)
  {
    size = (width, height)
    self.batches = batches
    self.clock = clock
  }

  /// Keeps the frame.
  package func draw(_ canvas: Canvas) { frames.append(canvas) }

  /// How many times the loop asked for every cell to be repainted (Ctrl-L).
  package private(set) var repaints = 0

  /// Counts the request.
  package func repaintAll() { repaints += 1 }

  /// The next batch of keys; `q` once every batch is out.
  package func readKeys(timeout: Int) -> [Key] {
    waits.append(timeout)
    clock?.advance(by: Int64(timeout))
    guard !batches.isEmpty else { return [.character("q")] }
    return batches.removeFirst()
  }

  /// The last frame as text.
  package var screen: String { frames.last?.text ?? "" }
}

/// A wall clock the test moves.
package final class ManualClock: WallClock {
  /// The instant it says.
  package var instant: Instant

  /// A clock standing at `instant`.
  package init(_ instant: Instant) { self.instant = instant }

  /// The instant now.
  package func now() -> Instant { instant }

  /// Moves on by `milliseconds`.
  package func advance(by milliseconds: Int64) {
    instant = instant.adding(milliseconds: milliseconds)
  }
}

/// A configuration file in memory: the test sets new contents; the next look sees them once.
package struct MemoryFile: FileWatching {
  /// Contents not yet seen.
  package var pending: [UInt8]?

  /// A file with nothing new.
  package init() {}

  /// The new contents, once.
  package mutating func changedContents(at wall: Instant) -> [UInt8]? {
    defer { pending = nil }
    return pending
  }
}
