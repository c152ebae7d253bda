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
  /// The `appTransactionId` Apple gave an imported customer (the others' are made from their
  /// number: ``Account/appTransactionID``).
  var importedAppTransactionID: UInt64?
  /// What the customer's subscription page offered last (`retention show`), until accepted.
  var retentionPage: RetentionPage?
  var settings: SessionSettings
  /// How many events the customer caused (a named customer's notifications are named by it, so
  /// that they do not depend on the other customers).
  var eventCount: UInt64 = 0
  /// How far the invariant checks got.
  var checked = InvariantChecking.Progress()
  /// The index of the settings' storefront among the session's, once found (``Session``'s
  /// `storefrontIndex()`; a change of settings forgets it).
  var storefrontSlot: UInt8?

  /// Records that group `index`'s next transition changed.
  mutating func reschedule(group index: Int) { scheduler.reschedule(index, &groups[index]) }

  /// The earliest transition due at or before `limit`, removed from the schedule.
  mutating func popDue(upTo limit: Int64) -> Scheduler.Entry? {
    scheduler.popDue(upTo: limit, groups: groups)
  }

  /// When the customer's next transition is due, if any.
  mutating func nextDue() -> Int64? { scheduler.liveNextDue(groups: groups) }
}

extension CustomerState {
  /// What stands in a chunk for the addressed customer's state while it is out (``CustomerBook``):
  /// empty, sharing nothing with any customer's.
  static var vacant: CustomerState {
    CustomerState(
      customer: .own, ledger: Ledger(firstID: 0), groups: [], settings: SessionSettings())
  }
}

/// The session's customers: who they are, by name and number, every one's state, when each is
/// next due, and which one the verbs are addressed to.
///
/// ``addressed`` is the customer whose state the engine's verbs are working on: the session's
/// current customer at rest (``Session/customer``, kept by the session, not here), another
/// while a verb runs for them (a journal line naming its customer, an App Store Server API
/// call, the clock firing their transition, a mass extension walking every account).
///
/// States live in chunks of 64, so that a copy of the session (a step back's, a reader's)
/// shares every chunk but the one the session changes next. The addressed customer's state is
/// out of its chunk, where every verb and the clock reach it directly (no chunk to find, no
/// nested uniqueness check on each access); it goes back when another customer is addressed.
///
/// Nothing here is a `_read` or `_modify` accessor: Swift 6.3.1's debug builds end such an
/// access, freeing its coroutine frame, before the caller has read what it yielded, when it is
/// reached through the session's own accessors (AddressSanitizer: heap-use-after-free in
/// `addressedState`'s and `Session.settings`' `resume.0`). A stored property is reached in
/// place.
struct CustomerBook {
  static let chunkSize = 64

  /// Every customer, by slot; slot 0 is the session's own.
  private(set) var customers: [Customer] = [.own]
  /// Every customer's state, by slot, in chunks; the addressed one's slot holds
  /// ``CustomerState/vacant`` while its state is in ``addressedState``.
  private var chunks: [[CustomerState]]
  /// The state of the customer the verbs are addressed to.
  var addressedState: CustomerState
  /// The slot of the customer the verbs are working on (whose state is ``addressedState``).
  private(set) var addressed = 0
  /// Slots by name.
  private var slotsByName: [String: Int] = [:]
  /// Slots by number.
  private var slotsByNumber: [Int: Int] = [0: 0]
  /// When each customer is next due.
  private(set) var wakes = WakeHeap()
  /// How many live transactions the customers other than the addressed one hold.
  private var othersTransactions = 0

  /// A book of the session's own customer, in `state`.
  init(own state: CustomerState) {
    chunks = [[.vacant]]
    addressedState = state
  }

  var count: Int { customers.count }
  /// Whether the session has named customers.
  var hasNamedCustomers: Bool { customers.count > 1 }

  func slot(named name: String) -> Int? { slotsByName[name] }
  func slot(number: Int) -> Int? { slotsByNumber[number] }

  /// The state of the customer in `slot` (a copy).
  subscript(slot: Int) -> CustomerState {
    slot == addressed ? addressedState : chunks[slot / Self.chunkSize][slot % Self.chunkSize]
  }

  /// How many live transactions every customer holds.
  var transactionCount: Int { othersTransactions + addressedState.ledger.liveCount }

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

  /// Addresses the verbs to the customer in `slot` (their state out of its chunk).
  ///
  /// - Complexity: O(1).
  mutating func address(_ slot: Int) {
    guard slot != addressed else { return }
    othersTransactions +=
      addressedState.ledger.liveCount
      - chunks[slot / Self.chunkSize][slot % Self.chunkSize].ledger.liveCount
    // The addressed state back into its slot (the vacant one out), then the new one's out.
    swap(&addressedState, &chunks[addressed / Self.chunkSize][addressed % Self.chunkSize])
    addressed = slot
    swap(&addressedState, &chunks[slot / Self.chunkSize][slot % Self.chunkSize])
  }

  /// Records that the addressed customer's group `index` changed its next transition, and brings
  /// their wake in line.
  ///
  /// - Complexity: O(log *g* + log *c*) for *g* groups and *c* customers, amortized over
  ///   superseded entries.
  mutating func reschedule(group index: Int) {
    addressedState.reschedule(group: index)
    wakes.set(
      slot: addressed, number: customers[addressed].number, due: addressedState.nextDue())
  }

  /// Tells `body` every customer's state, in slot order (each read in place, not copied).
  func forEach(_ body: (CustomerState) -> Void) {
    for (number, chunk) in chunks.enumerated() {
      for offset in chunk.indices {
        if number * Self.chunkSize + offset == addressed {
          body(addressedState)
        } else {
          body(chunk[offset])
        }
      }
    }
  }

  /// Changes every customer's state (a reload of the configuration).
  mutating func updateEach(_ body: (inout CustomerState) -> Void) {
    for chunk in chunks.indices {
      for offset in chunks[chunk].indices where chunk * Self.chunkSize + offset != addressed {
        body(&chunks[chunk][offset])
      }
    }
    body(&addressedState)
  }
}
