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
  /// Choices where Apple's behaviour is undocumented.
  public var fidelity = FidelityChoices()
  /// Whether each purchase SK1 reports `purchased` is followed by a `receipt` event for it
  /// (`SKPaymentTransaction`'s receipt), as a signing front end asks.
  public var receiptsOnPurchase = false
  /// How verbs check the engine's invariants: ``InvariantChecking/amortized`` in debug builds
  /// (what a verb touched, the whole state as the ledger doubles), not at all in release ones.
  public var invariantChecking: InvariantChecking = {
    #if DEBUG
      .amortized
    #else
      .off
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
  /// The state, shared between copies until one of them changes (copy on write). One reference
  /// keeps the engine's many small helper calls from copying a large struct.
  var storage: SessionStorage

  /// The options the session was made with.
  public private(set) var options: SessionOptions

  /// The most events one verb may cause (``SessionOptions/maximumEventsPerVerb``). The limit
  /// guards commands as they are typed; a replay of what was already accepted lifts it.
  public var maximumEventsPerVerb: Int {
    get { options.maximumEventsPerVerb }
    set { options.maximumEventsPerVerb = max(1, newValue) }
  }

  /// A fresh session: no transactions, the configuration's settings, the clock at `start`.
  public init(
    configuration: StoreKitConfiguration, start: Instant, options: SessionOptions = .init()
  ) {
    let catalog = Catalog(configuration)
    var ledger = Ledger(firstID: options.firstTransactionID)
    ledger.setLastingProducts(catalog.lastingProducts)
    self.options = options
    let own = CustomerState(
      customer: .own, ledger: ledger,
      groups: Array(repeating: GroupState(), count: catalog.groups.count),
      settings: SessionSettings(configuration.settings))
    self.storage = SessionStorage(
      configuration: configuration, catalog: catalog, now: start,
      customers: CustomerBook(own: own))
    settings = defaultSettings(configuration)
  }

  mutating func makeUnique() {
    if !isKnownUniquelyReferenced(&storage) { storage = storage.copy() }
  }

  /// Records that group `index`'s next transition changed (and so, maybe, when its customer is
  /// next due).
  mutating func reschedule(group index: Int) {
    makeUnique()
    storage.customers.reschedule(group: index)
  }

  /// The addressed customer's earliest transition due at or before `limit`, removed from the
  /// schedule. The caller fires it and reschedules its group, which brings the customer's wake
  /// in line.
  mutating func popDue(upTo limit: Int64) -> Scheduler.Entry? {
    makeUnique()
    return storage.customers.addressedState.popDue(upTo: limit)
  }

  /// The configuration the session runs on.
  public internal(set) var configuration: StoreKitConfiguration {
    _read { yield storage.configuration }
    _modify {
      makeUnique()
      yield &storage.configuration
    }
  }

  /// The products, indexed.
  public internal(set) var catalog: Catalog {
    _read { yield storage.catalog }
    _modify {
      makeUnique()
      yield &storage.catalog
    }
  }

  /// The switches in force (the file's, with overrides).
  public internal(set) var settings: SessionSettings {
    // A copy, not a `_read`: Swift 6.3.1's debug build freed that accessor's frame before a
    // caller had read the storefront it yielded (AddressSanitizer, `storefrontIndex()`).
    get { storage.customers.addressedState.settings }
    _modify {
      makeUnique()
      yield &storage.customers.addressedState.settings
      storage.customers.addressedState.storefrontSlot = nil
    }
  }

  /// The simulated present.
  public internal(set) var now: Instant {
    get { storage.now }
    _modify {
      makeUnique()
      yield &storage.now
    }
  }

  // The state is read in place (`_read`): a `get` would copy the whole value, retaining every
  // array it holds, on each of the many reads a renewal makes.
  var ledger: Ledger {
    _read { yield storage.customers.addressedState.ledger }
    _modify {
      makeUnique()
      yield &storage.customers.addressedState.ledger
    }
  }

  var groups: [GroupState] {
    _read { yield storage.customers.addressedState.groups }
    _modify {
      makeUnique()
      yield &storage.customers.addressedState.groups
    }
  }

  var scheduler: Scheduler {
    _read { yield storage.customers.addressedState.scheduler }
    _modify {
      makeUnique()
      yield &storage.customers.addressedState.scheduler
    }
  }

  var storefronts: [Storefront] {
    _read { yield storage.storefronts }
    _modify {
      makeUnique()
      yield &storage.storefronts
    }
  }

  /// How many events the session has caused since it started, muted ones (a replay) counted
  /// too: the events a caller just received are the last ones of this count, so the count
  /// names each event's place in the session's history the same way on every replay.
  public internal(set) var emittedEventCount: UInt64 {
    get { storage.eventCount }
    _modify {
      makeUnique()
      yield &storage.eventCount
    }
  }

  /// How many times the session stepped back (`back`, `undo`) to become what it is: a step
  /// back rewinds ``emittedEventCount``, so this tells apart the events a session causes again
  /// after one (their notifications are new notifications, with new UUIDs). Kept by whoever
  /// steps back (the journal's history), not by the verbs.
  public var stepBacks: Int {
    get { storage.stepBacks }
    set {
      makeUnique()
      storage.stepBacks = newValue
    }
  }

  /// When set, verbs build no events and call no sink: replaying a journal needs the state, not
  /// the events.
  public var isMuted: Bool {
    get { storage.muted }
    set {
      makeUnique()
      storage.muted = newValue
    }
  }

  /// What the App Store's server API remembers beyond the transactions.
  var serverRecords: ServerRecords {
    get { storage.customers.addressedState.serverRecords }
    _modify {
      makeUnique()
      yield &storage.customers.addressedState.serverRecords
    }
  }

  /// The purchaser's family and what its members were shared.
  var family: FamilyState {
    get { storage.customers.addressedState.family }
    _modify {
      makeUnique()
      yield &storage.customers.addressedState.family
    }
  }

  /// Whose device the verbs work on: the addressed customer's (the current one at rest), or
  /// a member's in a view made by ``view(of:)``.
  public var account: Account {
    Account(customer: storage.customers.addressedState.customer, member: storage.member)
  }

  /// Win-back eligibility overrides by offer ID (Xcode's per-offer toggle while running).
  var winBackEligibility: [String: Bool] {
    get { storage.customers.addressedState.winBackEligibility }
    _modify {
      makeUnique()
      yield &storage.customers.addressedState.winBackEligibility
    }
  }

  // MARK: - Shared helpers

  func product(at index: Int32) -> CatalogProduct { catalog.products[Int(index)] }

  func requireTransaction(_ id: UInt64) throws(SessionError) -> Int {
    guard let position = ledger.position(of: id) else {
      throw SessionError(.noTransaction(id))
    }
    return position
  }

  /// The position of a transaction of the purchaser's own: a family member's is refused
  /// (Family Sharing's transactions take no extension or app account token), any other
  /// unknown id is not there.
  public func requirePurchasersTransaction(_ id: UInt64) throws(SessionError) -> Int {
    guard let position = ledger.position(of: id) else {
      throw SessionError(
        locateShare(id) == nil
          ? .lookup(.noTransaction(id)) : .refund(.familySharedTransaction(transaction: id)))
    }
    return position
  }

  func requireProduct(_ productID: String) throws(SessionError) -> Int {
    guard let index = catalog.index(of: productID), catalog.products[index].isAvailable else {
      throw SessionError(
        .noProduct(productID), suggestions: catalog.productIDs(closeTo: productID))
    }
    return index
  }

  /// The index of the addressed customer's storefront among the session's, found once while the
  /// storefront stays (a renewal asks for it each time; a change of settings forgets it).
  mutating func storefrontIndex() -> UInt8 {
    if let known = storage.customers.addressedState.storefrontSlot { return known }
    // Found without handing the storefront to a mutating call (which would copy it out first).
    let storefront = storage.customers.addressedState.settings.storefront
    let index =
      storefronts.firstIndex(of: storefront).map(UInt8.init) ?? storefrontIndex(of: storefront)
    makeUnique()
    storage.customers.addressedState.storefrontSlot = index
    return index
  }

  /// Ends a verb: the family's and the multiseat members' transactions follow what it did to
  /// the purchaser's, then the invariants are checked.
  mutating func settle(_ sink: EventSink) {
    syncFamily(at: now.milliseconds, sink)
    syncSeatMembers(at: now.milliseconds, sink)
    verify()
  }
}

/// The state of a ``Session``. Copied as a whole when a shared session changes.
/// `@unchecked Sendable`: a storage is only mutated while uniquely referenced (``Session``
/// copies it on write), so one shared between threads is only ever read.
final class SessionStorage: @unchecked Sendable {
  // Only a uniquely referenced storage is ever mutated (Session copies on write), so the
  // run-time exclusivity checks of class properties buy nothing here and cost a fifth of the
  // renewal loop.
  @exclusivity(unchecked) var configuration: StoreKitConfiguration
  @exclusivity(unchecked) var catalog: Catalog
  @exclusivity(unchecked) var now: Instant
  @exclusivity(unchecked) var storefronts: [Storefront] = [.unitedStates]
  @exclusivity(unchecked) var muted = false
  @exclusivity(unchecked) var eventCount: UInt64 = 0
  /// Whose device the session shows: the addressed customer's, or one of their family's members'
  /// in a view.
  @exclusivity(unchecked) var member: FamilyMember?
  /// Every customer's state.
  @exclusivity(unchecked) var customers: CustomerBook
  /// The slot of the command language's current customer (the one a `customer` line named),
  /// whom a line that names nobody acts for and whom the session shows; the verbs are
  /// addressed to them at rest (``CustomerBook/addressed``).
  @exclusivity(unchecked) var currentCustomer = 0
  /// ``Session/stepBacks``.
  @exclusivity(unchecked) var stepBacks = 0
  /// Each mass extension's result: the App Store's, for every customer.
  @exclusivity(unchecked) var massExtensions: [MassExtensionKey: MassExtension] = [:]
  /// The Retention Messaging setup (the same for every customer).
  @exclusivity(unchecked) var retention = RetentionSetup()
  /// Multiseat subscriptions' seats, invitation hosting and seat pricing.
  @exclusivity(unchecked) var seats = SeatRecords()
  /// Advanced Commerce subscriptions and the request reference ids spent.
  @exclusivity(unchecked) var commerce = CommerceRecords()
  /// Who holds the ids the engine did not make (imported customers').
  @exclusivity(unchecked) var ids = IDOwners()

  init(
    configuration: StoreKitConfiguration, catalog: Catalog, now: Instant, customers: CustomerBook
  ) {
    self.configuration = configuration
    self.catalog = catalog
    self.now = now
    self.customers = customers
  }

  func copy() -> SessionStorage {
    let copy = SessionStorage(
      configuration: configuration, catalog: catalog, now: now, customers: customers)
    copy.storefronts = storefronts
    copy.muted = muted
    copy.eventCount = eventCount
    copy.member = member
    copy.stepBacks = stepBacks
    copy.currentCustomer = currentCustomer
    copy.massExtensions = massExtensions
    copy.retention = retention
    copy.seats = seats
    copy.commerce = commerce
    copy.ids = ids
    return copy
  }
}
