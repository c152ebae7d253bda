extension Session {
  /// How many transactions exist (deleted ones excluded).
  public var transactionCount: Int { ledger.liveCount }

  /// The id the next transaction gets.
  public var nextTransactionID: UInt64 { nextFreeID }

  /// How many transactions the app has not finished.
  public var unfinishedCount: Int { ledger.unfinishedCount }

  /// The transaction with an id, unless it does not exist or was deleted.
  /// A family member's transaction too, by its id in the member's range.
  public func transaction(_ id: UInt64) -> Transaction? {
    ledger.position(of: id).map { snapshot($0) } ?? memberTransaction(id)
  }

  /// Every transaction, oldest first (`SKTestSession.allTransactions()`).
  ///
  /// - Complexity: O(*n*); prefer ``forEachTransaction(_:)`` for large ledgers.
  public func allTransactions() -> [Transaction] {
    var result: [Transaction] = []
    result.reserveCapacity(ledger.liveCount)
    forEachTransaction { result.append($0) }
    return result
  }

  /// Calls `body` with every transaction, oldest first.
  public func forEachTransaction(_ body: (Transaction) -> Void) {
    for position in ledger.records.indices where !ledger[position].isDeleted {
      body(snapshot(position))
    }
  }

  /// The unfinished transactions (`Transaction.unfinished`), oldest first.
  ///
  /// - Complexity: O(*k*) in the number of unfinished transactions (from the ledger's index).
  public func unfinishedTransactions() -> [Transaction] {
    ledger.unfinished.filter { ledger[$0].state == .purchased }.map { snapshot($0) }
  }

  /// The highest existing transaction id, optionally of one product (`last`, `last:<product>`).
  ///
  /// - Complexity: O(1) (from the ledger's index).
  public func lastTransactionID(productID: String? = nil) -> UInt64? {
    guard let productID else { return ledger.lastLive >= 0 ? ledger[ledger.lastLive].id : nil }
    guard let wanted = catalog.index(of: productID) else { return nil }
    return ledger.lastPosition(ofProduct: Int32(wanted)).map { ledger[$0].id }
  }

  /// `Transaction.currentEntitlements`: each non-consumable and non-renewing purchase that is
  /// not refunded, and the current transaction of each subscription that is subscribed or in
  /// its grace period.
  ///
  /// - Complexity: O(*k* log *k*) in the number of entitlements (from the ledger's index).
  public func currentEntitlements() -> [Transaction] {
    entitledPositions().map { snapshot($0) }
  }

  /// The positions of ``currentEntitlements()``, ascending.
  func entitledPositions() -> [Int] {
    var positions = ledger.allHoldings
    for group in groups where group.isEntitled {
      if let position = ledger.position(of: group.current) { positions.append(position) }
    }
    return positions.sorted()
  }

  /// The status of every group the customer ever subscribed in, in catalog order.
  public func subscriptionStatuses() -> [SubscriptionStatus] {
    groups.indices.compactMap { status(ofGroup: $0) }
  }

  /// The status of the group with an id, if the customer ever subscribed in it.
  public func status(forGroup groupID: String) -> SubscriptionStatus? {
    catalog.groupIndex(of: groupID).flatMap { status(ofGroup: $0) }
  }

  /// `isEligibleForIntroOffer(for:)` by group id.
  public func isEligibleForIntroductoryOffer(groupID: String) -> Bool {
    catalog.groupIndex(of: groupID).map { isEligibleForIntroductoryOffer(group: $0) } ?? false
  }
}
