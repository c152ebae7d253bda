import StoreConfiguration

extension Session {
  /// The current customer, whom commands act for unless a line names another: the session's
  /// own until a `customer` line.
  public var customer: Customer { storage.customers.customers[storage.currentCustomer] }

  /// Every customer: the session's own first, then the named ones in the order they were made.
  public var customers: [Customer] { storage.customers.customers }

  /// The named customer called `name`.
  public func customer(named name: String) -> Customer? {
    storage.customers.slot(named: name).map { storage.customers.customers[$0] }
  }

  /// The customer an App Store Server API id names: the one whose id range holds the
  /// transaction id, or whose `appTransactionId` it is.
  ///
  /// - Complexity: O(1).
  public func customer(owningID id: UInt64) -> Customer? {
    if let number = storage.ids.owner(ofTransaction: id) {
      return number == 0 ? .own : customer(number: number)
    }
    let base = Customer(name: nil, number: 0).firstTransactionID(
      sessionFirstID: options.firstTransactionID)
    let namedBase = base + (1 << 47)
    guard id >= namedBase else { return .own }
    return customer(number: Int((id - namedBase) >> 32))
  }

  /// The named customer of that number.
  public func customer(number: Int) -> Customer? {
    storage.customers.slot(number: number).map { storage.customers.customers[$0] }
  }

  /// A member of the current customer's family.
  func memberAccount(_ member: FamilyMember) -> Account {
    Account(customer: addressedCustomer, member: member)
  }

  /// Makes the following commands act as the customer called `name` (`customer <name>`), who
  /// is made on first use with their own Apple Account, id range and the own customer's
  /// settings; `nil` goes back to the session's own customer. `number` picks a new
  /// customer's number (and so their ids), as a shard of a population does; by default the
  /// next free one.
  ///
  /// - Throws: ``SessionError`` when the name is not one a customer can have, or the number
  ///   is taken, out of range, or not the customer's.
  public mutating func selectCustomer(named name: String?, number: Int? = nil) throws(SessionError)
  {
    try checkCustomer(named: name, number: number)
    guard let name else { return switchCustomer(toSlot: 0) }
    if let slot = storage.customers.slot(named: name) { return switchCustomer(toSlot: slot) }
    switchCustomer(toSlot: addCustomer(named: name, number: number))
  }

  /// Adds the customer called `name` (checked) with the next free number or `number`, and
  /// returns their slot; the current customer stays the current one.
  mutating func addCustomer(named name: String, number: Int? = nil) -> Int {
    let customer = Customer(name: name, number: number ?? storage.customers.nextNumber)
    makeUnique()
    return storage.customers.add(newCustomerState(customer))
  }

  func checkCustomer(named name: String?, number: Int?) throws(SessionError) {
    guard let name else {
      if number != nil { throw SessionError(.customerNumberWithoutName) }
      return
    }
    try Self.checkCustomerName(name)
    if let slot = storage.customers.slot(named: name) {
      let existing = storage.customers.customers[slot]
      if let number, number != existing.number {
        throw SessionError(.customerNumberNotTheirs(name: name, number: existing.number))
      }
      return
    }
    let chosen = number ?? storage.customers.nextNumber
    guard (1...Customer.maximumNumber).contains(chosen) else {
      throw SessionError(.customerNumberOutOfRange(chosen, maximum: Customer.maximumNumber))
    }
    if let slot = storage.customers.slot(number: chosen) {
      throw SessionError(
        .customerNumberTaken(chosen, by: storage.customers.customers[slot].name ?? ""))
    }
  }

  /// A customer's name is a word of the command language, as a family member's is.
  public static func checkCustomerName(_ name: String) throws(SessionError) {
    do throws(SessionError) {
      try checkMemberName(name)
    } catch {
      throw SessionError(.invalidCustomerName(name))
    }
  }

  /// The refusal for a customer nobody of that name is.
  public func noCustomer(named name: String) -> SessionError {
    Self.noCustomer(named: name, among: customers.compactMap(\.name))
  }

  /// The refusal for a customer nobody of that name is, among the customers called `names`.
  public static func noCustomer(named name: String, among names: [String]) -> SessionError {
    SessionError(
      .noSuchCustomer(name: name, customers: names),
      suggestions: names.filter { $0.hasPrefix(name.prefix(1)) }.prefix(3).map { $0 })
  }

  /// A new customer's state: nothing bought, their own id range, the own customer's settings.
  private func newCustomerState(_ customer: Customer) -> CustomerState {
    var ledger = Ledger(
      firstID: customer.firstTransactionID(sessionFirstID: options.firstTransactionID))
    ledger.setLastingProducts(catalog.lastingProducts)
    var state = CustomerState(
      customer: customer, ledger: ledger,
      groups: Array(repeating: GroupState(), count: catalog.groups.count),
      settings: storage.customers[0].settings)
    state.family.span = Customer.memberIDSpan
    return state
  }

  // MARK: - Whom the verbs act on

  /// Makes the customer in `slot` the current one (the verbs act for them until another
  /// `customer` line).
  ///
  /// - Complexity: O(1).
  mutating func switchCustomer(toSlot slot: Int) {
    guard slot != storage.currentCustomer || slot != storage.customers.addressed else { return }
    makeUnique()
    storage.currentCustomer = slot
    storage.customers.address(slot)
  }

  /// Addresses the verbs to the customer in `slot`, for a verb run for them; the current
  /// customer stays current. What addresses another addresses back when it ends: a scope of
  /// ``addressing(_:_:)`` to whom it found, the clock and a mass extension to the current
  /// customer (``addressCurrent()``).
  ///
  /// - Complexity: O(1).
  mutating func address(slot: Int) {
    guard slot != storage.customers.addressed else { return }
    makeUnique()
    storage.customers.address(slot)
  }

  /// Addresses the verbs to the current customer again, after a verb run for another.
  mutating func addressCurrent() { address(slot: storage.currentCustomer) }

  /// The customer the verbs are working on now: the current one but while a verb runs for
  /// another (``addressing(_:_:)``, the clock, a mass extension).
  var addressedCustomer: Customer { storage.customers.addressedState.customer }

  /// Runs `body` with the verbs addressed to `customer` (a journal line that names whom it acts
  /// for, an App Store Server API call about their transaction, a purchaser's verb reaching a
  /// seat's member); the current customer stays the current one, and nothing is journaled about
  /// whom the session acts as. Scopes nest: when `body` ends, the verbs are addressed to whom
  /// they were before it (the purchaser whose renewal reached the member). `nil` when there is
  /// no such customer (nothing runs).
  ///
  /// - Complexity: O(1) besides `body`.
  public mutating func addressing<T, E: Error>(
    _ customer: Customer, _ body: (inout Session) throws(E) -> T
  ) throws(E) -> T? {
    guard let slot = storage.customers.slot(number: customer.number) else { return nil }
    let outer = storage.customers.addressed
    address(slot: slot)
    defer { address(slot: outer) }
    return try body(&self)
  }

  /// A read-only copy of the session with `customer` current (the session itself for the
  /// current one), for a view of their device or a read about them; `nil` when there is no
  /// such customer.
  ///
  /// - Complexity: O(1): the copy shares every customer's state.
  public func acting(as customer: Customer) -> Session? {
    if customer == self.customer { return self }
    guard let slot = storage.customers.slot(number: customer.number) else { return nil }
    var copy = self
    copy.storage = storage.copy()
    copy.storage.currentCustomer = slot
    copy.storage.customers.address(slot)
    return copy
  }

  /// Runs `body` addressed to each customer in turn (the own one first, then by slot): what the
  /// App Store does for every customer at once (a mass extension).
  mutating func forEachCustomer(_ body: (inout Session) -> Void) {
    for slot in 0..<storage.customers.count {
      address(slot: slot)
      body(&self)
    }
    addressCurrent()
  }

  // MARK: - The clock, for every customer

  /// How many live transactions every customer holds (their families' shares aside).
  ///
  /// - Complexity: O(1).
  public var transactionCountOfEveryCustomer: Int { storage.customers.transactionCount }

  /// Addresses the verbs to the customer with the earliest transition due at or before
  /// `limit` (ties: the lower number first), and returns when it is due; `nil` when none is.
  ///
  /// - Complexity: O(1).
  mutating func addressEarliestDue(upTo limit: Int64) -> Int64? {
    guard let wake = storage.customers.wakes.min, wake.due <= limit else { return nil }
    address(slot: wake.slot)
    return wake.due
  }

  /// The state of every customer with a transition due at or before `limit`, as the clock
  /// needs it (groups, settings and family size), while `body` says go on.
  ///
  /// - Complexity: O(*k*) for *k* customers due by `limit`: the others are not looked at.
  func eachCustomerDue(by limit: Int64, _ body: ([GroupState], SessionSettings, Int) -> Bool) {
    let book = storage.customers
    book.wakes.forEach(dueBy: limit) { wake in
      // One copy of the state (the book's subscript copies, it does not borrow).
      let state = book[wake.slot]
      return body(state.groups, state.settings, state.family.joinedCount)
    }
  }
}

extension Session {
  /// How many customers have access through a seat of another customer's multiseat
  /// subscription (Apple-hosted members).
  ///
  /// - Complexity: O(*c* × *g*) for *c* customers and *g* groups.
  public var assignedSeatCount: Int {
    var count = 0
    storage.customers.forEach { state in
      if state.groups.contains(where: { $0.isAssigned && $0.isEntitled }) { count += 1 }
    }
    return count
  }

  /// How many customers (the own one included) have access to an auto-renewable subscription
  /// now: subscribed or in a grace period.
  ///
  /// - Complexity: O(*c* × *g*) for *c* customers and *g* groups.
  public var subscriberCount: Int {
    var count = 0
    storage.customers.forEach { state in
      if state.groups.contains(where: \.isEntitled) { count += 1 }
    }
    return count
  }
}

extension Session {
  /// Appends `record` to the addressed customer's ledger under `id`, an id the engine did not make
  /// (Apple's, for an imported customer), and remembers whose it is; later transactions of that
  /// customer take the ids after their highest. The caller has checked ``holdsTransaction(_:)``.
  mutating func place(
    _ record: TransactionRecord, id: UInt64, details: TransactionDetails? = nil
  )
    -> Int
  {
    ledger.append(record, details: details, id: id)
    storage.ids.give(transaction: id, to: addressedCustomer.number)
    return ledger.records.count - 1
  }

  /// The id the addressed customer's next transaction gets: their ledger's next, past any id an
  /// imported customer holds (Apple's ids may fall in another customer's range).
  ///
  /// - Complexity: O(1) but for the ids skipped.
  var nextFreeID: UInt64 {
    let id = ledger.nextID
    guard !storage.ids.isEmpty else { return id }
    return storage.ids.firstFree(from: id, for: addressedCustomer.number)
  }

  /// Appends a record the engine made under ``nextFreeID``; returns its id.
  @discardableResult @inline(__always)
  mutating func appendMade(
    _ record: TransactionRecord, details: TransactionDetails? = nil
  )
    -> UInt64
  {
    // Without imported customers, the ledger's next id (one read of the ledger: each copies the
    // addressed customer's state).
    guard !storage.ids.isEmpty else { return ledger.append(record, details: details) }
    let id = nextFreeID
    let placing = ledger.placed != nil
    ledger.append(record, details: details, id: id == ledger.nextID ? nil : id)
    // An imported customer's own next ids are theirs too, past every range.
    if placing { storage.ids.give(transaction: id, to: addressedCustomer.number) }
    return id
  }

  /// Whether any customer holds a transaction with `id` (placed or made).
  func holdsTransaction(_ id: UInt64) -> Bool {
    guard let owner = customer(owningID: id),
      let slot = owner.name.map({ storage.customers.slot(named: $0) }) ?? 0
    else { return false }
    return storage.customers[slot].ledger.holds(id)
  }
}
