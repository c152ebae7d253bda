import Dispatch
import Foundation

/// How many cores work is spread over (at least one).
public let activeCores = max(1, ProcessInfo.processInfo.activeProcessorCount)

extension Array {
  /// `count` elements, element `index` made by `make(index)`, on every core at once (at most
  /// one thread a core); each lands in its own place, so the order is `make`'s indices.
  public init(concurrentlyMaking count: Int, _ make: @Sendable (Int) -> Element) {
    var made = [Element?](repeating: nil, count: count)
    made.withUnsafeMutableBufferPointer { buffer in
      // Each index writes only its own slot.
      nonisolated(unsafe) let slots = buffer
      DispatchQueue.concurrentPerform(iterations: count) { index in slots[index] = make(index) }
    }
    self = made.map { $0! }
  }
}
