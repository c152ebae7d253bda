import Foundation
internal import StoreCommands
internal import StoreConfiguration
internal import StoreSimulation

/// Which store StoreKit's static API reaches when no store is bound to the task: the store of
/// the test that is running. Xcode has one test environment per process; here each session is
/// a store of its own, so that tests running in parallel never see each other's.
///
/// - In a swift-testing test (``scopes``, set by StorekeeperKitTest): the store made last in
///   that test case, else in that test, else in its suite (a session a suite shares). A test
///   whose case, test and suites made none reaches the store made last anywhere, as Xcode's one
///   environment would (a session in a `static let` that another suite happened to make first).
/// - Elsewhere (XCTest, an app run outside a test): the store made last.
/// - Before any store: the fallback store, over `STOREKEEPER_CONFIGURATION`'s file.
///
/// A session the test did not keep (`_ = try SKTestSession(…)`) outlives its object, as Xcode's
/// environment does: the registry keeps the last ``keptStores`` stores made.
///
/// `@unchecked Sendable`: every mutable property is used only under `lock`.
final class StoreRegistry: @unchecked Sendable {
  /// The registry of the process.
  static let shared = StoreRegistry()

  /// How many of the stores made last are kept alive after their sessions are gone.
  static let keptStores = 32

  private struct Weak {
    weak var store: Store?
  }

  private struct WeakQueue {
    weak var queue: SKPaymentQueue?
  }

  private let lock = NSLock()
  private var scopes: @Sendable () -> [String] = { [] }
  private var byScope: [String: Weak] = [:]
  private var latest = Weak()
  private var kept: [Store] = []
  private var fallback: Store?
  /// Queue objects made with `SKPaymentQueue()`, with the scopes of the test that made them.
  private var followers: [(front: WeakQueue, scopes: Set<String>)] = []
  private var scopesAfterPruning = 64

  /// Sets how the running test's scopes are named, innermost first (a test case, its test,
  /// its suites); empty outside a test of that kind.
  func useScopes(_ scopes: @escaping @Sendable () -> [String]) {
    lock.withLock { self.scopes = scopes }
  }

  /// Registers a store just made: the latest of the process and of the running test's scopes.
  /// The queue objects of the test that made it (of any test, under XCTest) follow it.
  func register(_ store: Store) {
    let names = lock.withLock { scopes }()
    let movers: [SKPaymentQueue] = lock.withLock {
      followers.removeAll { $0.front.queue == nil }
      return followers.filter { $0.scopes.isEmpty || !$0.scopes.isDisjoint(with: names) }
        .compactMap(\.front.queue)
    }
    defer { for queue in movers { queue.follow(store) } }
    lock.withLock {
      for name in names { byScope[name] = Weak(store: store) }
      latest = Weak(store: store)
      kept.append(store)
      if kept.count > Self.keptStores { kept.removeFirst(kept.count - Self.keptStores) }
      if byScope.count > scopesAfterPruning {
        byScope = byScope.filter { $0.value.store != nil }
        scopesAfterPruning = max(64, byScope.count * 2)
      }
    }
  }

  /// Keeps a queue made with `SKPaymentQueue()` following the store its test makes next (a
  /// queue made before the test's session hears that session's changes).
  func keepFollowing(_ queue: SKPaymentQueue) {
    let names = Set(lock.withLock { scopes }())
    lock.withLock {
      followers.removeAll { $0.front.queue == nil }
      followers.append((WeakQueue(queue: queue), names))
    }
  }

  /// The store of the running test (see the type's rules); made from
  /// `STOREKEEPER_CONFIGURATION` (or an empty catalog) when no store was ever made.
  func current() -> Store {
    let names = lock.withLock { scopes }()
    let found: Store? = lock.withLock {
      let scoped = names.lazy.compactMap { self.byScope[$0]?.store }.first
      return scoped ?? latest.store ?? fallback
    }
    if let found { return found }
    // Made outside the lock: a store registers itself as it is made.
    let made = Self.makeFallback()
    return lock.withLock {
      if let fallback { return fallback }
      fallback = made
      return made
    }
  }

  /// A configuration to answer from, and what to tell the developer about it.
  typealias Fallback = (configuration: StoreKitConfiguration, bytes: [UInt8], complaint: String?)

  private static func makeFallback() -> Store {
    let path = ProcessInfo.processInfo.environment["STOREKEEPER_CONFIGURATION"]
    let loaded: Fallback = path.map(loadFallback) ?? (StoreKitConfiguration(), [], nil)
    if let complaint = loaded.complaint {
      FileHandle.standardError.write(Data((complaint + "\n").utf8))
    }
    do {
      return try Store(
        configuration: loaded.configuration, bytes: loaded.bytes,
        configurationPath: path ?? "", journalPath: nil, registers: false,
        wall: { Instant.wallClock })
    } catch {
      fatalError("StorekeeperKit cannot open a store: \(error)")
    }
  }

  /// The configuration `STOREKEEPER_CONFIGURATION` names; when that file cannot be simulated,
  /// an empty one and what to tell the developer (an empty catalog is no silent answer).
  static func loadFallback(_ path: String) -> Fallback {
    do throws(ConfigurationRefusal) {
      let (configuration, bytes) = try SessionOpening.loadConfiguration(path)
      return (configuration, bytes, nil)
    } catch {
      let lines =
        error.diagnostics + [
          "STOREKEEPER_CONFIGURATION: \(error.summary)",
          "StoreKit's API answers from an empty catalog until a session is made.",
        ]
      return (StoreKitConfiguration(), [], lines.joined(separator: "\n"))
    }
  }
}
