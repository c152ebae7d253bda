/// What one device sees of a session: the purchaser's or a family member's transactions,
/// entitlements and statuses, to read and never to change.
///
/// A view has the session's queries and none of its verbs, so a front end that shows a
/// member's device cannot change a copy by mistake: changes go through the session (its
/// host), and the next view shows them. Properties are the session's own
/// (`view.now`, `view.settings`, `view.catalog` …, read through ``subscript(dynamicMember:)``);
/// the queries that take arguments are listed below.
///
/// ```swift
/// let device = session.view(of: .member(anna))
/// let owned = device.currentEntitlements(productID: nil)
/// ```
@dynamicMemberLookup
public struct SessionView: Sendable {
  /// The session as the device sees it (the purchaser's: the session itself).
  let base: Session

  /// The purchaser's device: the session as it is.
  public init(_ session: Session) { base = session }

  init(viewing base: Session) { self.base = base }

  /// A property of the session as the device sees it.
  public subscript<Value>(dynamicMember path: KeyPath<Session, Value>) -> Value {
    base[keyPath: path]
  }
}

// MARK: - The queries that take arguments (each the session's, on this device)

extension SessionView {
  /// The device's transaction with an id, unless it does not exist or was deleted.
  public func transaction(_ id: UInt64) -> Transaction? { base.transaction(id) }

  /// The seats of the multiseat subscription a transaction belongs to
  /// (``Session/seatGroup(ofTransaction:)``).
  public func seatGroup(ofTransaction id: UInt64) -> SeatGroup? {
    base.seatGroup(ofTransaction: id)
  }

  /// The Advanced Commerce subscription a transaction belongs to
  /// (``Session/commerceSubscription(ofTransaction:)``).
  public func commerceSubscription(ofTransaction id: UInt64) -> CommerceSubscription? {
    base.commerceSubscription(ofTransaction: id)
  }

  /// The Advanced Commerce kind a product is declared as (``Session/commerceKind(ofProduct:)``).
  public func commerceKind(ofProduct productID: String) -> CommerceKind? {
    base.commerceKind(ofProduct: productID)
  }

  /// The per-seat tiers a product sells seats at (``Session/seatTiers(ofProduct:)``).
  public func seatTiers(ofProduct productID: String) -> [SeatTier]? {
    base.seatTiers(ofProduct: productID)
  }

  /// The account a transaction id belongs to on this customer's devices: theirs, or a family
  /// member's (``Session/account(ofTransaction:)``).
  public func owner(ofTransaction id: UInt64) -> Account? { base.account(ofTransaction: id) }

  /// The offers queued for a group's renewals to come (``Session/queuedOffers(groupID:)``).
  public func queuedOffers(groupID: String) -> [QueuedOffer] { base.queuedOffers(groupID: groupID) }

  /// Every customer of the session as a list shows them (``Session/customerSummaries()``).
  public func customerSummaries() -> [CustomerSummary] { base.customerSummaries() }

  /// Every customer's transactions as the table shows them, each customer's rows oldest first,
  /// the session's own customer first.
  ///
  /// - Complexity: O(*n*) for *n* transactions of every customer.
  public func everyCustomersRows() -> [(customer: Customer, rows: [LedgerRow])] {
    base.customers.map { ($0, base.view(of: Account(customer: $0)).ledgerRows()) }
  }

  /// Which customers held a paid period at each month's end (``Session/monthEndHolding()``).
  public func monthEndHolding() -> MonthEndHolding { base.monthEndHolding() }

  /// Every transaction the device has, oldest first (`SKTestSession.allTransactions()`).
  public func allTransactions() -> [Transaction] { base.allTransactions() }

  /// Calls `body` with every transaction the device has, oldest first.
  public func forEachTransaction(_ body: (Transaction) -> Void) { base.forEachTransaction(body) }

  /// The device's unfinished transactions (`Transaction.unfinished`), oldest first.
  public func unfinishedTransactions() -> [Transaction] { base.unfinishedTransactions() }

  /// The device's highest transaction id, optionally of one product.
  public func lastTransactionID(productID: String? = nil) -> UInt64? {
    base.lastTransactionID(productID: productID)
  }

  /// `Transaction.currentEntitlements` on the device (``Session/currentEntitlements()``).
  public func currentEntitlements() -> [Transaction] { base.currentEntitlements() }

  /// The status of every group the device's account ever subscribed in, in catalog order.
  public func subscriptionStatuses() -> [SubscriptionStatus] { base.subscriptionStatuses() }

  /// The status of a group, if the device's account ever subscribed in it.
  public func status(forGroup groupID: String) -> SubscriptionStatus? {
    base.status(forGroup: groupID)
  }

  /// Whether the device's account may still have a group's introductory offer.
  public func isEligibleForIntroductoryOffer(groupID: String) -> Bool {
    base.isEligibleForIntroductoryOffer(groupID: groupID)
  }

  /// The family member with a name, joined or not.
  public func familyMember(named name: String) -> FamilyMember? { base.familyMember(named: name) }

  /// The account of the member who was ever in the family under `name`.
  ///
  /// - Throws: ``SessionError`` naming who was ever in the family, when nobody of that name was.
  public func memberAccount(named name: String) throws(SessionError) -> Account {
    try base.memberAccount(named: name)
  }

  /// The account of the customer called `name` (their own, not a family member's).
  ///
  /// - Throws: ``SessionError`` naming the customers there are, when nobody has that name.
  public func customerAccount(named name: String) throws(SessionError) -> Account {
    guard let customer = base.customer(named: name) else { throw base.noCustomer(named: name) }
    return Account(customer: customer)
  }

  /// Whether, and why, `verb` would be refused if the session applied it now.
  public func refusal(_ verb: SessionVerb) -> SessionError? { base.refusal(verb) }

  /// The device's transactions as ledger rows (``Session/ledgerRows()``).
  public func ledgerRows() -> [LedgerRow] { base.ledgerRows() }

  /// The ids whose ledger rows may differ between this device's session and `other`, another
  /// state of the same one (before a step back): the records of the ledger's chunks the two
  /// do not share (a chunk neither changed since it was copied is skipped whole), those only
  /// one holds, and each group's current transaction in either (its label follows the group).
  /// Ascending, without repeats; `nil` when the two are not states of one ledger (another
  /// customer's, a member's).
  ///
  /// - Complexity: O(*c* + *k*), *c* the ledger's chunks, *k* the records of chunks that differ.
  public func idsThatMayDiffer(from other: SessionView) -> [UInt64]? {
    let mine = base.ledger
    let theirs = other.base.ledger
    guard mine.firstID == theirs.firstID, base.account == other.base.account else { return nil }
    var ids = Set<UInt64>()
    for range in mine.records.chunksDiffering(from: theirs.records) {
      for position in range
      where position >= theirs.records.count || mine[position] != theirs[position] {
        ids.insert(position < mine.records.count ? mine[position].id : theirs[position].id)
      }
    }
    if theirs.records.count > mine.records.count {
      for position in mine.records.count..<theirs.records.count {
        ids.insert(theirs[position].id)
      }
    }
    for group in base.groups + other.base.groups where group.renewalState != nil {
      ids.insert(group.current)
    }
    return ids.sorted()
  }

  /// The device's transaction with an id as a ledger row.
  public func ledgerRow(_ id: UInt64) -> LedgerRow? { base.ledgerRow(id) }

  /// Calls `body` with each of the device's ledger rows, oldest first.
  public func forEachLedgerRow(_ body: (LedgerRow) throws -> Void) rethrows {
    try base.forEachLedgerRow(body)
  }

  /// The device's transactions, compact, for a listing (``Session/ledgerSnapshot()``).
  public func ledgerSnapshot() -> LedgerSnapshot { base.ledgerSnapshot() }

  /// What the device's app receipt holds (``Session/receiptContents(purchase:)``).
  public func receiptContents(purchase: UInt64? = nil) -> ReceiptContents {
    base.receiptContents(purchase: purchase)
  }

  /// The next renewals of a group on the device, at most `limit`.
  public func upcomingRenewals(groupID: String, limit: Int = 6) -> [UpcomingRenewal] {
    base.upcomingRenewals(groupID: groupID, limit: limit)
  }

  /// A group's pending or agreed price increase on the device, if any.
  public func priceIncrease(forGroup groupID: String) -> PriceIncreaseTerms? {
    base.priceIncrease(forGroup: groupID)
  }

  /// The consumption information a server sent about one of the device's transactions.
  public func consumption(of id: UInt64) -> ConsumptionInformation? { base.consumption(of: id) }

  /// About how many transitions fall due until `limit`, counted no further than `atMost`
  /// (``Session/transitionsDue(until:atMost:)``).
  public func transitionsDue(until limit: Instant, atMost: Int) -> Int {
    base.transitionsDue(until: limit, atMost: atMost)
  }
}
