import StoreConfiguration

/// Receives the events a verb causes, in order, as they happen.
public typealias EventSink = (StoreEvent) -> Void

/// Choices that shape a session but are not StoreKit settings.
public struct SessionOptions: Equatable, Sendable {
  /// The id of the first transaction (Xcode's environment starts at 0).
  public var firstTransactionID: UInt64 = 0
  /// The most events one verb may cause before it is refused (a runaway `advance`, a back-dated
  /// purchase at a fast rate).
  public var maximumEventsPerVerb = 1_000_000
  /// Whether every mutation checks the engine's invariants (on in debug builds).
  public var checksInvariants: Bool = {
    #if DEBUG
      true
    #else
      false
    #endif
  }()

  /// The defaults.
  public init() {}
}

/// A StoreKit test environment: `SKTestSession` and Xcode's Transaction Manager, without a
/// wall clock, files or randomness.
///
/// A session starts from a configuration and a start instant. Its verbs mirror
/// `SKTestSession`'s (`buy`, `refund`, `expireSubscription`, `forceRenewal`, `resolveIssue`,
/// `approveAskToBuy` …); each applies at ``now``, hands the events it caused to a sink, or
/// throws a ``SessionError`` and changes nothing. Time moves only through ``advance(to:_:)``:
/// renewals, grace and retry periods fire at their due times, in order.
///
/// ```swift
/// var session = try Session(configuration: file, start: Instant(iso8601: "2026-11-22")!)
/// try session.buy("socialfeed.monthly") { print($0) }
/// try session.advance(to: session.now.adding(milliseconds: 90_000)) { print($0) }
/// ```
public struct Session: Sendable {
  /// The configuration the session runs on.
  public internal(set) var configuration: StoreKitConfiguration
  /// The products, indexed.
  public internal(set) var catalog: Catalog
  /// The switches in force (the file's, with overrides).
  public internal(set) var settings: SessionSettings
  /// The simulated present.
  public internal(set) var now: Instant
  /// The options the session was made with.
  public let options: SessionOptions

  var ledger: Ledger
  var groups: [GroupState]
  var scheduler = Scheduler()
  var storefronts: [Storefront] = [.unitedStates]
  /// Win-back eligibility overrides by offer ID (Xcode's per-offer toggle while running).
  var winBackEligibility: [String: Bool] = [:]

  /// A fresh session: no transactions, the configuration's settings, the clock at `start`.
  public init(
    configuration: StoreKitConfiguration, start: Instant, options: SessionOptions = .init()
  ) {
    self.configuration = configuration
    self.catalog = Catalog(configuration)
    self.settings = SessionSettings(configuration.settings)
    self.now = start
    self.options = options
    self.ledger = Ledger(firstID: options.firstTransactionID)
    self.groups = Array(repeating: GroupState(), count: catalog.groups.count)
  }

  // MARK: - Shared helpers

  func product(at index: Int32) -> CatalogProduct { catalog.products[Int(index)] }

  func requireTransaction(_ id: UInt64) throws(SessionError) -> Int {
    guard let position = ledger.position(of: id) else {
      throw SessionError(.noTransactionFound, "there is no transaction \(id)")
    }
    return position
  }

  func requireProduct(_ productID: String) throws(SessionError) -> Int {
    guard let index = catalog.index(of: productID), catalog.products[index].isAvailable else {
      throw SessionError(
        .invalidProductIdentifier, "there is no product \"\(productID)\" in the configuration",
        suggestions: catalog.productIDs(closeTo: productID))
    }
    return index
  }

  mutating func storefrontIndex() -> UInt8 {
    if let index = storefronts.firstIndex(of: settings.storefront) { return UInt8(index) }
    storefronts.append(settings.storefront)
    return UInt8(storefronts.count - 1)
  }

  /// Checks the invariants when the options ask for it.
  func verify() {
    guard options.checksInvariants else { return }
    if let problem = invariantViolation() {
      preconditionFailure("Storekeeper engine invariant broken: \(problem)")
    }
  }
}
