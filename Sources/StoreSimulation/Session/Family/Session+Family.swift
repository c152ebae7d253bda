import StoreConfiguration

/// A change to the purchaser's family (`family join|leave|sharing`).
public enum FamilyAction: Equatable, Sendable {
  /// `family join <name>`: someone joins the purchaser's family.
  case join(String)
  /// `family leave <name>`: a member leaves it.
  case leave(String)
  /// `family sharing <product> on|off`: the purchaser resumes or stops sharing a product.
  case sharing(productID: String, enabled: Bool)
}

extension Session {
  /// The most members a family has besides the purchaser ("up to five family members",
  /// Apple's "Supporting Family Sharing in your app").
  public static let maximumFamilyMembers = 5

  /// The members in the family now, in the order they first joined.
  public var familyMembers: [FamilyMember] { family.members.filter(\.isJoined).map(\.member) }

  /// Every member who was ever in the family: a member who left keeps their transactions.
  public var everyFamilyMember: [FamilyMember] { family.members.map(\.member) }

  /// The member who was ever in the family under `name`.
  public func familyMember(named name: String) -> FamilyMember? {
    family.index(of: name).map { family.members[$0].member }
  }

  /// The account of the member who was ever in the family under `name` (a member who left
  /// keeps their device and transactions).
  ///
  /// - Throws: ``SessionError`` naming who was ever in the family, when nobody of that name was.
  public func memberAccount(named name: String) throws(SessionError) -> Account {
    if let member = familyMember(named: name) { return memberAccount(member) }
    throw Self.noMember(named: name, among: everyFamilyMember.map(\.name))
  }

  /// The refusal for a member nobody of that name was: who was ever in the family, or how one
  /// joins.
  public static func noMember(named name: String, among members: [String]) -> SessionError {
    SessionError(.noSuchMember(name: name, members: members))
  }

  /// Whether the purchaser shares a product with the family: the configuration makes it
  /// family-shareable, it is a kind Family Sharing shares (a non-consumable or an
  /// auto-renewable subscription), and the purchaser did not stop sharing it.
  public func isShared(_ productID: String) -> Bool {
    guard let index = catalog.index(of: productID) else { return false }
    return isShareable(index) && !family.unshared.contains(Int32(index))
  }

  /// Changes the family, then gives each member what the purchaser shares and revokes what
  /// they lost: a member who joins gets a transaction of their own for each shared purchase
  /// the purchaser is entitled to; a member who leaves, or a product the purchaser stops
  /// sharing, revokes the members' transactions (`FAMILY_REVOKE`).
  ///
  /// - Throws: ``SessionError`` when the name is not one a member can have, the family is full,
  ///   the member is not in it, or the product is not family-shareable.
  public mutating func changeFamily(_ action: FamilyAction, _ sink: EventSink) throws(SessionError)
  {
    try check(.family(action))
    let stamp = now.milliseconds
    switch action {
    case .join(let name):
      if let index = family.index(of: name) {
        family.members[index].isJoined = true
        family.members[index].joinedAt = stamp
      } else {
        let member = FamilyMember(name: name, number: family.members.count + 1)
        family.members.append(FamilyState.Member(member: member, joinedAt: stamp))
      }
    case .leave(let name):
      if let index = family.index(of: name) { family.members[index].isJoined = false }
    case .sharing(let productID, let enabled):
      guard let index = catalog.index(of: productID).map(Int32.init) else { return }
      if enabled {
        family.unshared.remove(index)
        family.sharedAgainAt[index] = stamp
      } else {
        family.unshared.insert(index)
      }
    }
    emit(.family(action), at: stamp, sink)
    settle(sink)
  }

  func checkFamily(_ action: FamilyAction) throws(SessionError) {
    switch action {
    case .join(let name):
      try Self.checkMemberName(name)
      let index = family.index(of: name)
      if let index, family.members[index].isJoined {
        throw SessionError(.alreadyInFamily(name))
      }
      guard index != nil || family.members.count < family.mostMembersEver else {
        throw SessionError(.familyNamesUsedUp(maximum: family.mostMembersEver))
      }
      guard family.joinedCount < Self.maximumFamilyMembers else {
        throw SessionError(
          .familyFull(maximum: Self.maximumFamilyMembers, members: familyMembers.map(\.name)))
      }
    case .leave(let name):
      guard let index = family.index(of: name), family.members[index].isJoined else {
        throw SessionError(.notInFamily(name: name, members: familyMembers.map(\.name)))
      }
    case .sharing(let productID, let enabled):
      let index = try requireProduct(productID)
      guard isShareable(index) else {
        let product = catalog.products[index]
        throw SessionError(
          product.familyShareable
            ? .family(
              .kindNotShared(productID: productID, kind: ProductKind(product.type).rawValue))
            : .family(.notFamilyShareable(productID: productID)))
      }
      guard family.unshared.contains(Int32(index)) == enabled else {
        throw SessionError(.sharingAlready(productID: productID, shared: enabled))
      }
    }
  }

  /// A member's name is a word of the command language, and not the purchaser's.
  static func checkMemberName(_ name: String) throws(SessionError) {
    let allowed = name.utf8.allSatisfy {
      ($0 >= 0x30 && $0 <= 0x39) || ($0 >= 0x41 && $0 <= 0x5A) || ($0 >= 0x61 && $0 <= 0x7A)
        || $0 == 0x2D || $0 == 0x5F || $0 == 0x2E
    }
    // A name starting with '-' or '.' would read as an option (`--fresh`) or a path (`..`).
    let first = name.utf8.first ?? 0
    guard allowed, (1...32).contains(name.utf8.count), name != "purchaser",
      first != 0x2D && first != 0x2E
    else {
      throw SessionError(.invalidMemberName(name))
    }
  }

  /// Whether product `index` is one Family Sharing shares when the purchaser shares it.
  func isShareable(_ index: Int) -> Bool {
    let product = catalog.products[index]
    return product.familyShareable
      && (product.type == .nonConsumable || product.type == .autoRenewableSubscription)
  }

  // MARK: - Keeping the members' transactions with the purchaser's

  /// Brings every member's transactions in line with the purchaser's, at `stamp`: revokes the
  /// shares of refunded or deleted purchases, of products no longer shared and of members who
  /// left; gives each member in the family a share of each shared purchase the purchaser is
  /// entitled to (a renewal gets one as it happens); then tells each member's changed
  /// subscription statuses. Called after every verb and every scheduled transition; costs
  /// nothing without a family.
  mutating func syncFamily(at stamp: Int64, _ sink: EventSink) {
    // Read in place: the renewal loop calls this after every transition.
    guard !storage.customers.addressedState.family.members.isEmpty else { return }
    let entitled = entitledPositions().filter {
      let product = ledger[$0].product
      return isShareable(Int(product)) && !family.unshared.contains(product)
    }
    for member in family.members.indices {
      revokeLostShares(of: member, at: stamp, sink)
      if family.members[member].isJoined {
        for source in entitled { grantShare(of: source, to: member, at: stamp, sink) }
      }
      tellStatuses(of: member, at: stamp, sink)
    }
  }

  private mutating func revokeLostShares(of member: Int, at stamp: Int64, _ sink: EventSink) {
    let joined = family.members[member].isJoined
    var kept: [Int] = []
    defer {
      // What stopped giving access is looked up no more.
      for index in family.members[member].active where !kept.contains(index) {
        let source = family.members[member].shares[index].source
        if family.members[member].bySource[source] == index {
          family.members[member].bySource[source] = nil
        }
      }
      family.members[member].active = kept
    }
    for index in family.members[member].active {
      let share = family.members[member].shares[index]
      guard !share.isDeleted, !share.isRevoked else { continue }
      let source = ledger[share.source]
      if source.isDeleted {
        deleteShare(member, index, at: stamp, sink)
        continue
      }
      guard givesAccess(source) else { continue }
      if source.isRevoked || !joined || family.unshared.contains(source.product) {
        // Apple's revocationReason: 0 when a member leaves or sharing stops; the purchaser's
        // when the purchaser is refunded.
        family.members[member].shares[index].revocationDate = max(stamp, share.purchaseDate)
        family.members[member].shares[index].isRevokedForDeveloperIssue =
          source.isRevoked && source.flags.contains(.revokedForDeveloperIssue)
        emitShare(member, index, delivery: .updates, at: stamp, sink, tells: .revocation)
        continue
      }
      kept.append(index)
    }
  }

  /// Whether a share of the purchaser's `source` still gives access: a lasting purchase, or the
  /// current period of a subscription that is not over (a subscription whose period ended is
  /// history, not revoked).
  private func givesAccess(_ source: TransactionRecord) -> Bool {
    guard let group = product(at: source.product).groupIndex else { return true }
    return groups[group].current == source.id && groups[group].isActive
  }

  private mutating func grantShare(
    of source: Int, to member: Int, at stamp: Int64, _ sink: EventSink
  ) {
    let record = ledger[source]
    if let existing = family.members[member].bySource[source],
      !family.members[member].shares[existing].isRevoked,
      !family.members[member].shares[existing].isDeleted
    {
      return
    }
    let group = product(at: record.product).groupIndex
    let index = family.members[member].shares.count
    let previous = group.flatMap { family.members[member].latestInGroup[$0] }
    let since = max(
      family.members[member].joinedAt, family.sharedAgainAt[record.product] ?? .min)
    // Access goes on when the member's last share of the group was never revoked and was
    // given since they (and the product's sharing) last came back: a revocation marks every
    // interruption.
    let continues = previous.map { previous in
      let share = family.members[member].shares[previous]
      return !share.isRevoked && !share.isDeleted && share.purchaseDate >= since
    }
    var original = index
    if let previous, !family.members[member].shares[previous].isDeleted {
      original = family.members[member].shares[previous].original
    }
    family.members[member].shares.append(
      FamilyState.Share(
        source: source, purchaseDate: max(record.purchaseDate, since), original: original,
        isRenewal: record.flags.contains(.renewal) && continues == true))
    family.members[member].active.removeAll { $0 == previous }
    family.members[member].active.append(index)
    family.members[member].bySource[source] = index
    if let group {
      family.members[member].latestInGroup[group] = index
      family.members[member].liveSharesInGroup[group, default: 0] += 1
    }
    emitShare(member, index, delivery: .updates, at: stamp, sink, tells: .purchase)
  }

  /// Deletes a member's share with the purchase it shared, and tells the member's device.
  private mutating func deleteShare(
    _ member: Int, _ index: Int, at stamp: Int64, _ sink: EventSink
  ) {
    family.members[member].shares[index].isDeleted = true
    let source = family.members[member].shares[index].source
    if let group = product(at: ledger[source].product).groupIndex {
      family.members[member].liveSharesInGroup[group, default: 0] -= 1
    }
    emit(
      .transactionRemoved(
        id: shareID(member, index), owner: memberAccount(family.members[member].member)),
      at: stamp, sink)
  }

  /// Tells each of a member's statuses that changed, with what its change notifies (the
  /// status last told is the member's, kept beside their shares).
  private mutating func tellStatuses(of member: Int, at stamp: Int64, _ sink: EventSink) {
    for group in family.members[member].latestInGroup.keys.sorted() {
      let status = memberStatus(member, group: group)
      let previous = family.members[member].statuses[group]
      guard previous != status else { continue }
      family.members[member].statuses[group] = status
      guard let status else { continue }
      let causes = previous.map {
        NotificationCauses.statusChange(
          from: ToldStatus($0, catalog: catalog), to: ToldStatus(status, catalog: catalog),
          redeemed: false)
      }
      emit(.status(status), at: stamp, sink, causes: causes ?? NotificationCauses())
    }
  }

  /// What a member's share tells when it is emitted.
  private enum ShareNews {
    /// Nothing: it changed (finished).
    case none
    /// The member was given it: a purchase, against the member's status in its group.
    case purchase
    /// The member lost it: `REVOKE` when the family took it back, `REFUND` when the
    /// purchaser was refunded.
    case revocation
  }

  private mutating func emitShare(
    _ member: Int, _ index: Int, delivery: Delivery?, at stamp: Int64, _ sink: EventSink,
    tells news: ShareNews = .none
  ) {
    countEvent()
    guard !isMuted else { return }
    let transaction = shareSnapshot(member, index)
    var causes = NotificationCauses()
    switch news {
    case .none: break
    case .purchase:
      let group = product(at: ledger[family.members[member].shares[index].source].product)
        .groupIndex
      let previous = group.flatMap { family.members[member].statuses[$0] }
      // A member redeems no offer: the purchaser did.
      causes = .purchase(
        isSubscription: group != nil, isRenewal: transaction.reason == .renewal,
        redeemsOffer: false, previous: previous.map { ToldStatus($0, catalog: catalog) })
    case .revocation:
      causes.append(.init(transaction.revocationType == .familyRevoke ? .revoke : .refund))
    }
    let (customer, place) = eventCustomer
    sink(
      StoreEvent(
        time: Instant(milliseconds: stamp), kind: .transaction(transaction, delivery: delivery),
        customer: customer, customerPlace: place, notifications: causes))
  }

  /// Finishes a member's transaction (the member's app finished it).
  mutating func finishShare(_ member: Int, _ index: Int, _ sink: EventSink) {
    family.members[member].shares[index].isFinished = true
    emitShare(member, index, delivery: nil, at: now.milliseconds, sink)
  }
}

extension Session {
  /// After `delete` or `clear`: the members' transactions of deleted purchases go with them.
  mutating func dropSharesOfDeletedPurchases(_ sink: EventSink) {
    guard !family.members.isEmpty else { return }
    let stamp = now.milliseconds
    for member in family.members.indices {
      var changed = false
      for index in family.members[member].shares.indices {
        let share = family.members[member].shares[index]
        guard !share.isDeleted, ledger[share.source].isDeleted else { continue }
        deleteShare(member, index, at: stamp, sink)
        changed = true
      }
      guard changed else { continue }
      var kept = family.members[member]
      kept.active.removeAll { kept.shares[$0].isDeleted }
      kept.bySource = kept.bySource.filter { !kept.shares[$0.value].isDeleted }
      kept.latestInGroup = [:]
      for (index, share) in kept.shares.enumerated() where !share.isDeleted {
        if let group = product(at: ledger[share.source].product).groupIndex {
          kept.latestInGroup[group] = index
        }
      }
      kept.statuses = kept.statuses.filter { kept.latestInGroup[$0.key] != nil }
      family.members[member] = kept
    }
  }
}
