import NIOConcurrencyHelpers

/// A value shared between threads, reached only under its lock: the house's checked
/// confinement (over SwiftNIO's `NIOLockedValueBox`; `Synchronization.Mutex` needs macOS 15).
/// A type holding one is `Sendable` without `@unchecked`.
public struct Locked<Value: Sendable>: Sendable {
  private let box: NIOLockedValueBox<Value>

  /// A value, locked.
  public init(_ value: Value) { box = NIOLockedValueBox(value) }

  /// Runs `body` with the value, under the lock; what it returns.
  public func withLock<T>(_ body: (inout Value) throws -> T) rethrows -> T {
    try box.withLockedValue(body)
  }

  /// The value, read under the lock.
  public var value: Value { box.withLockedValue { $0 } }
}
