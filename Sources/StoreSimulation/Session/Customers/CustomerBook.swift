import HeapModule

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
/// but the current one, with when each is next due (a heap, so that the clock finds the
/// earliest among thousands at once).
struct CustomerBook {
  /// Every customer, by slot; slot 0 is the session's own.
  private(set) var customers: [Customer] = [.own]
  /// The parked states by slot; the current customer's slot is `nil`.
  var parked: [CustomerState?] = [nil]
  /// The current customer's slot.
  var current = 0
  /// Slots by name.
  private var slotsByName: [String: Int] = [:]
  /// Slots by number.
  private var slotsByNumber: [Int: Int] = [0: 0]
  /// When parked customers are next due, as (due, number, slot); an entry whose customer is
  /// no longer parked, or is due at another time now, is skipped.
  private var wakes = Heap<Wake>()
  /// The due time each parked customer was parked with.
  private var parkedDue: [Int64?] = [nil]

  struct Wake: Comparable {
    var due: Int64
    var number: Int
    var slot: Int

    static func < (lhs: Wake, rhs: Wake) -> Bool { (lhs.due, lhs.number) < (rhs.due, rhs.number) }
  }

  var count: Int { customers.count }
  /// Whether the session has named customers.
  var hasNamedCustomers: Bool { customers.count > 1 }
  var currentCustomer: Customer { customers[current] }

  func slot(named name: String) -> Int? { slotsByName[name] }
  func slot(number: Int) -> Int? { slotsByNumber[number] }
  /// The number a new customer gets when their line names none: one past the highest.
  var nextNumber: Int { (customers.map(\.number).max() ?? 0) + 1 }

  /// Adds a customer, parked with `state`.
  mutating func add(_ state: CustomerState, due: Int64?) -> Int {
    let slot = customers.count
    customers.append(state.customer)
    parked.append(state)
    parkedDue.append(due)
    slotsByName[state.customer.name ?? ""] = slot
    slotsByNumber[state.customer.number] = slot
    if let due { wakes.insert(Wake(due: due, number: state.customer.number, slot: slot)) }
    return slot
  }

  /// Parks the current customer's state, due next at `due`.
  mutating func park(_ state: CustomerState, due: Int64?) {
    parked[current] = state
    parkedDue[current] = due
    if let due { wakes.insert(Wake(due: due, number: state.customer.number, slot: current)) }
  }

  /// Takes a parked customer's state out; they become the current one.
  mutating func unpark(_ slot: Int) -> CustomerState {
    let state = parked[slot]!
    parked[slot] = nil
    parkedDue[slot] = nil
    current = slot
    return state
  }

  /// The parked customer due earliest, at or before `limit` (ties: the lower number first).
  mutating func earliestParked(upTo limit: Int64) -> Wake? {
    while let first = wakes.min {
      guard parked[first.slot] != nil, parkedDue[first.slot] == first.due else {
        wakes.removeMin()
        continue
      }
      return first.due <= limit ? first : nil
    }
    return nil
  }

  /// When the earliest parked customer is due.
  func earliestParkedDue() -> Int64? {
    parkedDue.lazy.compactMap { $0 }.min()
  }
}
