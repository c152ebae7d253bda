import StoreConfiguration

extension Session {
  /// What `account`'s device sees: for the current customer the session itself; for another
  /// customer the session acting as them; for a family member a view of their own
  /// transactions, entitlements and statuses, made from the purchaser's (read-only: changes go
  /// through the session). An account of a customer the session does not have sees the
  /// current one's.
  ///
  /// - Complexity: O(*s*) in the member's transactions.
  public func view(of account: Account) -> SessionView {
    if account.customer != customer {
      guard let acting = acting(as: account.customer) else { return SessionView(self) }
      return acting.view(of: account)
    }
    guard let wanted = account.member, let member = family.index(of: wanted.name) else {
      return SessionView(self)
    }
    var view = self
    view.storage = storage.copy()
    view.storage.member = account.member
    // The view knows who is in the family, not what they were given.
    view.family.members = family.members.map {
      var member = FamilyState.Member(member: $0.member, joinedAt: $0.joinedAt)
      member.isJoined = $0.isJoined
      return member
    }
    view.scheduler = Scheduler()
    var ledger = Ledger(firstID: shareID(member, 0))
    ledger.setLastingProducts(catalog.lastingProducts)
    for index in family.members[member].shares.indices {
      var record = shareRecord(member, index)
      let deleted = record.isDeleted
      record.flags.remove(.deleted)
      ledger.append(record)
      if deleted { ledger.update(index) { $0.flags.insert(.deleted) } }
    }
    view.ledger = ledger
    var groups = Array(repeating: GroupState(), count: self.groups.count)
    for (group, latest) in family.members[member].latestInGroup {
      groups[group] = memberGroup(member, group: group, latest: latest)
    }
    view.groups = groups
    return SessionView(viewing: view)
  }

  /// The account a transaction id belongs to: the purchaser's range, or a member's.
  public func account(ofTransaction id: UInt64) -> Account? {
    if ledger.position(of: id) != nil { return Account(customer: addressedCustomer) }
    return locateShare(id).map { memberAccount(family.members[$0.member].member) }
  }

  /// A member's transaction by id, when it exists.
  func memberTransaction(_ id: UInt64) -> Transaction? {
    locateShare(id).map { shareSnapshot($0.member, $0.index) }
  }

  // MARK: - Ids and records

  func shareID(_ member: Int, _ index: Int) -> UInt64 {
    ledger.firstID + UInt64(family.members[member].member.number) * family.span + UInt64(index)
  }

  /// The member and share index of a member's live transaction id.
  func locateShare(_ id: UInt64) -> (member: Int, index: Int)? {
    guard id >= ledger.firstID + family.span else { return nil }
    let offset = id - ledger.firstID
    let number = Int(offset / family.span)
    let index = Int(offset % family.span)
    guard let member = family.members.firstIndex(where: { $0.member.number == number }),
      family.members[member].shares.indices.contains(index),
      !family.members[member].shares[index].isDeleted
    else { return nil }
    return (member, index)
  }

  /// A member's transaction as the ledger would store it: the purchaser's with the member's
  /// id, original, purchase date and revocation; what only the purchaser did (a token, a
  /// refund request, a purchase issue) is not the member's.
  func shareRecord(_ member: Int, _ index: Int) -> TransactionRecord {
    let share = family.members[member].shares[index]
    var record = ledger[share.source]
    record.id = shareID(member, index)
    record.originalID = shareID(member, share.original)
    record.purchaseDate = share.purchaseDate
    record.revocationDate = share.revocationDate
    record.refundedShare = 0
    record.details = -1
    record.state = .purchased
    var flags: TransactionRecord.Flags = record.flags.intersection([.upgraded])
    if share.isRenewal { flags.insert(.renewal) }
    if share.isRevokedForDeveloperIssue { flags.insert(.revokedForDeveloperIssue) }
    if share.isFinished { flags.insert(.finished) }
    if share.isDeleted { flags.insert(.deleted) }
    record.flags = flags
    return record
  }

  func shareSnapshot(_ member: Int, _ index: Int) -> Transaction {
    let record = shareRecord(member, index)
    return Transaction(
      record, catalog: catalog, storefront: storefronts[Int(record.storefront)], details: nil,
      owner: memberAccount(family.members[member].member), rate: settings.timeRate)
  }

  // MARK: - Statuses

  /// A member's state of a group: the purchaser's, with the member's transactions; revoked
  /// when the member's latest share was, expired when the purchaser went on without them.
  private func memberGroup(_ member: Int, group: Int, latest: Int) -> GroupState {
    var state = groups[group]
    let share = family.members[member].shares[latest]
    state.current = shareID(member, latest)
    state.originalID = shareID(member, share.original)
    if share.isRevoked {
      state.phase = .revoked
    } else if groups[group].current != ledger[share.source].id && state.phase != .none {
      state.phase = .expired
      state.expirationReason = state.expirationReason ?? .unknown
    }
    state.purchasedCount = family.members[member].liveSharesInGroup[group] ?? 0
    return state
  }

  /// The status of group `group` on member `member`'s device, when they had a share in it.
  func memberStatus(_ member: Int, group: Int) -> SubscriptionStatus? {
    guard let latest = family.members[member].latestInGroup[group],
      !family.members[member].shares[latest].isDeleted
    else { return nil }
    var view = self
    view.storage = storage.copy()
    view.storage.member = family.members[member].member
    view.groups[group] = memberGroup(member, group: group, latest: latest)
    guard var status = view.status(ofGroup: group) else { return nil }
    status.renewalInfo.appAccountToken = nil
    return status
  }
}
