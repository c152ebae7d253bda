import Foundation

/// Values sent to every listener attached when they are sent; what is sent before anyone
/// listens waits for the first listener when asked to (StoreKit keeps `Transaction.updates`
/// for the app until it listens). Safe from any thread: `@unchecked Sendable` because
/// `listeners` and `waiting` are read and written only under `lock`.
final class Broadcast<Value: Sendable>: @unchecked Sendable {
  private let lock = NSLock()
  private var listeners: [UUID: AsyncStream<Value>.Continuation] = [:]
  private var waiting: [Value] = []
  /// Whether values sent to nobody wait for the first listener.
  private let keepsForFirstListener: Bool

  init(keepsForFirstListener: Bool) { self.keepsForFirstListener = keepsForFirstListener }

  /// A new listener's stream: the values waiting, then every value sent until it ends.
  func listen() -> AsyncStream<Value> {
    let (stream, continuation) = AsyncStream<Value>.makeStream()
    let id = UUID()
    lock.withLock {
      for value in waiting { continuation.yield(value) }
      waiting = []
      listeners[id] = continuation
    }
    continuation.onTermination = { [weak self] _ in
      guard let self else { return }
      self.lock.withLock { self.listeners[id] = nil }
    }
    return stream
  }

  /// Sends `value` to every listener (or keeps it for the first).
  func send(_ value: Value) {
    lock.withLock {
      if listeners.isEmpty {
        if keepsForFirstListener { waiting.append(value) }
        return
      }
      for continuation in listeners.values { continuation.yield(value) }
    }
  }

  /// Whether a value sent now reaches anyone (is worth making).
  var isHeard: Bool { lock.withLock { !listeners.isEmpty || keepsForFirstListener } }

  /// Ends every listener's stream.
  func finish() {
    let ended = lock.withLock {
      defer { listeners = [:] }
      return Array(listeners.values)
    }
    for continuation in ended { continuation.finish() }
  }
}
