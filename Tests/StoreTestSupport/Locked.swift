import Foundation

/// A value behind a lock, for the tests' threads and closures.
package final class Locked<Value: Sendable>: @unchecked Sendable {
  // Every access is under `lock`.
  private let lock = NSLock()
  private var stored: Value

  /// A value, locked.
  package init(_ value: Value) { stored = value }

  /// The value, read or written under the lock.
  package var value: Value {
    get { lock.withLock { stored } }
    set { lock.withLock { stored = newValue } }
  }

  /// Changes the value under the lock.
  package func change<Result>(_ body: (inout Value) -> Result) -> Result {
    lock.withLock { body(&stored) }
  }
}
