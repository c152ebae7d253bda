/// Everything that is one customer's own: their Apple Account's transactions, subscriptions,
/// family, what the App Store's server remembers of them, and their device's settings. The
/// customer the session acts as keeps theirs in the session's storage; the others are parked
/// here until a `customer` line or the clock needs them.
struct CustomerState {
  var customer: Customer
  var ledger: Ledger
  var groups: [GroupState]
  var scheduler: Scheduler
  var serverRecords: ServerRecords
  var family: FamilyState
  var winBackEligibility: [String: Bool]
  var settings: SessionSettings
  var eventCount: UInt64
  var checked: InvariantChecking.Progress
  /// The catalog's generation the state was last brought in line with (a reload adds groups).
  var catalogGeneration: Int
}

/// The session's customers: who they are, by name and number, and the parked states of all
/// but the current one, with when each is next due.
///
/// Parked states live in chunks of 64, each with its earliest due customer, so that a copy of
/// the session (a step back's, a reader's) shares every chunk but the one the session changes
/// next, and the clock finds the earliest of thousands by looking at one entry per chunk.
struct CustomerBook {
  static let chunkSize = 64

  /// Every customer, by slot; slot 0 is the session's own.
  private(set) var customers: [Customer] = [.own]
  /// The parked states by chunk; the current customer's is `nil`.
  private var chunks: [Chunk] = [Chunk(states: [nil], wakes: [nil])]
  /// The current customer's slot.
  private(set) var current = 0
  /// Slots by name.
  private var slotsByName: [String: Int] = [:]
  /// Slots by number.
  private var slotsByNumber: [Int: Int] = [0: 0]
  /// How many live transactions the parked customers hold.
  private(set) var parkedTransactions = 0

  struct Wake: Comparable {
    var due: Int64
    var number: Int
    var slot: Int

    static func < (lhs: Wake, rhs: Wake) -> Bool { (lhs.due, lhs.number) < (rhs.due, rhs.number) }
  }

  /// Up to 64 parked customers, with when each is due and the earliest of them.
  struct Chunk {
    var states: [CustomerState?] = []
    /// When each parked customer is next due (`nil` for one not due, or not parked).
    var wakes: [Wake?] = []
    var earliest: Wake?

    mutating func findEarliest() {
      earliest = nil
      for case let wake? in wakes where earliest.map({ wake < $0 }) ?? true { earliest = wake }
    }
  }

  var count: Int { customers.count }
  /// Whether the session has named customers.
  var hasNamedCustomers: Bool { customers.count > 1 }

  func slot(named name: String) -> Int? { slotsByName[name] }
  func slot(number: Int) -> Int? { slotsByNumber[number] }
  /// The number a new customer gets when their line names none: one past the highest, or once
  /// the highest is the last there is (a line named it), the lowest free one.
  var nextNumber: Int {
    highestNumber < Customer.maximumNumber ? highestNumber + 1 : lowestFree
  }
  private var highestNumber = 0
  /// No number below it is free (numbers are never given back, so it only moves up).
  private var lowestFree = 1

  /// The parked state of the customer in `slot`, if they are parked.
  func parked(_ slot: Int) -> CustomerState? {
    chunks[slot / Self.chunkSize].states[slot % Self.chunkSize]
  }

  /// Tells `body` each parked customer's groups, settings and family size, in slot order,
  /// while it says go on; whether it always did. (Each is read in place: a state is not
  /// copied.)
  func forEachParked(_ body: ([GroupState], SessionSettings, Int) -> Bool) -> Bool {
    for chunk in chunks {
      let stopped = chunk.states.withUnsafeBufferPointer { states in
        states.indices.contains { offset in
          guard let groups = states[offset]?.groups, let settings = states[offset]?.settings,
            let members = states[offset]?.family.joinedCount
          else { return false }
          return !body(groups, settings, members)
        }
      }
      if stopped { return false }
    }
    return true
  }

  /// Adds a customer, parked with `state`.
  mutating func add(_ state: CustomerState, due: Int64?) -> Int {
    let slot = customers.count
    customers.append(state.customer)
    if chunks[chunks.count - 1].states.count == Self.chunkSize { chunks.append(Chunk()) }
    chunks[chunks.count - 1].states.append(nil)
    chunks[chunks.count - 1].wakes.append(nil)
    slotsByName[state.customer.name ?? ""] = slot
    slotsByNumber[state.customer.number] = slot
    highestNumber = max(highestNumber, state.customer.number)
    while slotsByNumber[lowestFree] != nil { lowestFree += 1 }
    put(state, due: due, at: slot)
    return slot
  }

  /// Parks the current customer's state, due next at `due`.
  mutating func park(_ state: CustomerState, due: Int64?) { put(state, due: due, at: current) }

  /// Takes a parked customer's state out; they become the current one.
  mutating func unpark(_ slot: Int) -> CustomerState {
    let (chunk, offset) = (slot / Self.chunkSize, slot % Self.chunkSize)
    let state = chunks[chunk].states[offset]!
    chunks[chunk].states[offset] = nil
    chunks[chunk].wakes[offset] = nil
    chunks[chunk].findEarliest()
    parkedTransactions -= state.ledger.liveCount
    current = slot
    return state
  }

  private mutating func put(_ state: CustomerState, due: Int64?, at slot: Int) {
    let (chunk, offset) = (slot / Self.chunkSize, slot % Self.chunkSize)
    chunks[chunk].states[offset] = state
    chunks[chunk].wakes[offset] = due.map {
      Wake(due: $0, number: state.customer.number, slot: slot)
    }
    chunks[chunk].findEarliest()
    parkedTransactions += state.ledger.liveCount
  }

  /// The parked customer due earliest, at or before `limit` (ties: the lower number first).
  ///
  /// - Complexity: O(*c* / 64) for *c* customers.
  func earliestParked(upTo limit: Int64) -> Wake? {
    var earliest: Wake?
    for chunk in chunks {
      guard let wake = chunk.earliest else { continue }
      if earliest.map({ wake < $0 }) ?? true { earliest = wake }
    }
    return earliest.flatMap { $0.due <= limit ? $0 : nil }
  }

  /// When the earliest parked customer is due.
  func earliestParkedDue() -> Int64? { earliestParked(upTo: .max)?.due }
}
