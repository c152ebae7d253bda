/// Everything that is one customer's own: their Apple Account's transactions, subscriptions,
/// family, what the App Store's server remembers of them, and their device's settings. The one
/// definition of a customer's state: the book holds every customer's, the session's own
/// included, and the verbs and the clock reach it there.
struct CustomerState {
  var customer: Customer
  var ledger: Ledger
  var groups: [GroupState]
  var scheduler = Scheduler()
  var serverRecords = ServerRecords()
  var family = FamilyState()
  var winBackEligibility: [String: Bool] = [:]
  var settings: SessionSettings
  /// How many events the customer caused (a named customer's notifications are named by it, so
  /// that they do not depend on the other customers).
  var eventCount: UInt64 = 0
  /// How far the invariant checks got.
  var checked = InvariantChecking.Progress()

  /// Records that group `index`'s next transition changed.
  mutating func reschedule(group index: Int) { scheduler.reschedule(index, &groups[index]) }

  /// The earliest transition due at or before `limit`, removed from the schedule.
  mutating func popDue(upTo limit: Int64) -> Scheduler.Entry? {
    scheduler.popDue(upTo: limit, groups: groups)
  }

  /// When the customer's next transition is due, if any.
  mutating func nextDue() -> Int64? { scheduler.liveNextDue(groups: groups) }
}

/// The session's customers: who they are, by name and number, every one's state, when each is
/// next due, and which one the verbs act on.
///
/// States live in chunks of 64, so that a copy of the session (a step back's, a reader's)
/// shares every chunk but the one the session changes next.
struct CustomerBook {
  static let chunkSize = 64

  /// Every customer, by slot; slot 0 is the session's own.
  private(set) var customers: [Customer] = [.own]
  /// Every customer's state, by slot, in chunks.
  private var chunks: [[CustomerState]]
  /// The slot of the customer the verbs act on: the one a `customer` line named, or the one the
  /// clock is firing a transition of.
  private(set) var acting = 0
  /// Slots by name.
  private var slotsByName: [String: Int] = [:]
  /// Slots by number.
  private var slotsByNumber: [Int: Int] = [0: 0]
  /// When each customer is next due.
  private(set) var wakes = WakeHeap()
  /// How many live transactions the customers other than the acting one hold.
  private var othersTransactions = 0

  /// A book of the session's own customer, in `state`.
  init(own state: CustomerState) { chunks = [[state]] }

  var count: Int { customers.count }
  /// Whether the session has named customers.
  var hasNamedCustomers: Bool { customers.count > 1 }

  func slot(named name: String) -> Int? { slotsByName[name] }
  func slot(number: Int) -> Int? { slotsByNumber[number] }

  /// The state of the customer in `slot`.
  subscript(slot: Int) -> CustomerState {
    _read { yield chunks[slot / Self.chunkSize][slot % Self.chunkSize] }
    _modify { yield &chunks[slot / Self.chunkSize][slot % Self.chunkSize] }
  }

  /// The state of the customer the verbs act on.
  var actingState: CustomerState {
    _read { yield chunks[acting / Self.chunkSize][acting % Self.chunkSize] }
    _modify { yield &chunks[acting / Self.chunkSize][acting % Self.chunkSize] }
  }

  /// How many live transactions every customer holds.
  var transactionCount: Int { othersTransactions + actingState.ledger.liveCount }

  /// The number a new customer gets when their line names none: one past the highest, or once
  /// the highest is the last there is (a line named it), the lowest free one.
  var nextNumber: Int {
    highestNumber < Customer.maximumNumber ? highestNumber + 1 : lowestFree
  }
  private var highestNumber = 0
  /// No number below it is free (numbers are never given back, so it only moves up).
  private var lowestFree = 1

  /// Adds a customer with `state` (nothing due yet), and returns their slot.
  mutating func add(_ state: CustomerState) -> Int {
    let slot = customers.count
    customers.append(state.customer)
    if chunks[chunks.count - 1].count == Self.chunkSize { chunks.append([]) }
    chunks[chunks.count - 1].append(state)
    othersTransactions += state.ledger.liveCount
    slotsByName[state.customer.name ?? ""] = slot
    slotsByNumber[state.customer.number] = slot
    highestNumber = max(highestNumber, state.customer.number)
    while slotsByNumber[lowestFree] != nil { lowestFree += 1 }
    return slot
  }

  /// Makes the verbs act on the customer in `slot`.
  ///
  /// - Complexity: O(1).
  mutating func act(as slot: Int) {
    guard slot != acting else { return }
    othersTransactions += actingState.ledger.liveCount - self[slot].ledger.liveCount
    acting = slot
  }

  /// Records that the acting customer's group `index` changed its next transition, and brings
  /// their wake in line.
  ///
  /// - Complexity: O(log *g* + log *c*) for *g* groups and *c* customers, amortized over
  ///   superseded entries.
  mutating func reschedule(group index: Int) {
    let (chunk, offset) = (acting / Self.chunkSize, acting % Self.chunkSize)
    chunks[chunk][offset].reschedule(group: index)
    let due = chunks[chunk][offset].nextDue()
    wakes.set(slot: acting, number: customers[acting].number, due: due)
  }

  /// Tells `body` every customer's state, in slot order (each read in place, not copied).
  func forEach(_ body: (CustomerState) -> Void) {
    for chunk in chunks {
      for offset in chunk.indices { body(chunk[offset]) }
    }
  }

  /// Changes every customer's state (a reload of the configuration).
  mutating func updateEach(_ body: (inout CustomerState) -> Void) {
    for chunk in chunks.indices {
      for offset in chunks[chunk].indices { body(&chunks[chunk][offset]) }
    }
  }
}
