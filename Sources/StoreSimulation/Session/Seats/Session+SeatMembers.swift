/// Apple-hosted members of multiseat subscriptions: a customer joins a seat (`group invite`)
/// and gets an `ASSIGNED` transaction of their own, the purchaser removes them (`group
/// remove`: an assignment revocation), and each member's subscription follows the purchaser's
/// (renewals, grace and retry, expiry, a refund). Every rule of members is here.
extension Session {
  /// The purchaser's period that members follow: read from the purchaser's state, handed to
  /// each member's.
  struct PurchaserPeriod {
    var group: GroupState
    var record: TransactionRecord
    var seats: TransactionSeats?

    /// The member's seat terms: the purchaser's (seat count and tiers), as Apple documents.
    var memberSeats: TransactionSeats {
      var terms = seats ?? TransactionSeats(invitations: .apple, tiers: [])
      terms.assignedBy = group.originalID
      terms.isAddition = false
      terms.revoked = nil
      return terms
    }
  }

  /// The Apple-hosted members of the current customer's multiseat subscription whose
  /// invitations Apple hosts, earliest first; empty without one.
  public var groupMembers: [Customer] {
    guard let index = try? appleHostedGroup(),
      let seats = storage.seats[groups[index].originalID]
    else { return [] }
    return seats.members.compactMap { customer(number: $0.customer) }
  }

  /// The addressed customer's running multiseat subscription whose invitations Apple hosts (the
  /// first by subscription group when there are several [unverified]).
  func appleHostedGroup() throws(SessionError) -> Int {
    for index in groups.indices where groups[index].isActive && !groups[index].isAssigned {
      guard !storage.seats.isEmpty else { break }
      if storage.seats[groups[index].originalID]?.invitations == .apple { return index }
    }
    throw seatRefusal(
      .notAppleManaged,
      "\(addressedCustomer.name ?? "the session's own customer") has no running multiseat subscription "
        + "whose invitations Apple hosts (set invitations apple, then buy <product> seats=N)")
  }

  /// The original transaction whose seats a group's subscription holds: its own, or for a
  /// member's seat the purchaser's (a member's renewal info renews the purchaser's seats).
  func seatsKey(of group: GroupState) -> UInt64 {
    guard group.isAssigned, let position = ledger.position(of: group.current) else {
      return group.originalID
    }
    return ledger.details(of: ledger[position])?.seats?.assignedBy ?? group.originalID
  }

  /// Refuses a change of an assigned seat through the member's own verbs: it follows the
  /// purchaser's subscription.
  func refuseAssigned(group index: Int) throws(SessionError) {
    guard groups[index].isAssigned, groups[index].isActive else { return }
    let purchaser =
      ledger.position(of: groups[index].current)
      .flatMap { ledger.details(of: ledger[$0])?.seats?.assignedBy }
      .flatMap { customer(owningID: $0)?.name } ?? "the purchaser"
    throw seatRefusal(
      .assignedSeat,
      "\(addressedCustomer.name ?? "this customer") holds a seat of \(purchaser)'s multiseat "
        + "subscription in group \(catalog.groups[index].id): it renews and ends with "
        + "\(purchaser)'s (group remove \(addressedCustomer.name ?? "") as \(purchaser) ends it)")
  }

  /// Throws why `group invite` or `group remove` cannot apply.
  func checkMembers(invite name: String?, remove: String?) throws(SessionError) {
    let index = try appleHostedGroup()
    let seats = storage.seats[groups[index].originalID]!
    if let name = remove {
      guard let slot = storage.customers.slot(named: name),
        seats.member(customer: storage.customers.customers[slot].number) != nil
      else {
        let members = seats.members.compactMap { customer(number: $0.customer)?.name }
        throw seatRefusal(
          .memberNotFound,
          "\(name) holds no seat of this subscription (members: "
            + "\(members.isEmpty ? "none" : members.joined(separator: ", ")))")
      }
      return
    }
    guard let name else { return }
    try checkCustomer(named: name, number: nil)
    guard groups[index].phase == .subscribed else {
      throw seatRefusal(
        .purchaserNotSubscribed,
        "\(addressedCustomer.name ?? "the purchaser")'s subscription waits for a payment "
          + "(\(groups[index].renewalState?.rawValue ?? "")): members join once it renews")
    }
    guard name != addressedCustomer.name else {
      throw seatRefusal(.alreadySubscribed, "\(name) is the purchaser: they hold the subscription")
    }
    if let slot = storage.customers.slot(named: name) {
      if seats.member(customer: storage.customers.customers[slot].number) != nil {
        throw seatRefusal(.unchanged, "\(name) holds a seat of this subscription already")
      }
      if storage.customers[slot].groups[index].isActive {
        throw seatRefusal(
          .alreadySubscribed,
          "\(name) is subscribed in group \(catalog.groups[index].id) already (their own "
            + "subscription or another's seat)")
      }
    }
    guard seats.available > 0 else {
      throw seatRefusal(
        .noAvailableSeats,
        "every seat is taken (\(seats.memberCount) members, \(seats.inForce) seats): "
          + "seats \(groups[index].current) \(seats.total + 1) adds one")
    }
  }

  /// The purchaser's current period of group `index` (the addressed customer's).
  private func purchaserPeriod(group index: Int) -> PurchaserPeriod? {
    guard let position = ledger.position(of: groups[index].current) else { return nil }
    let record = ledger[position]
    return PurchaserPeriod(
      group: groups[index], record: record, seats: ledger.details(of: record)?.seats)
  }

  /// `group invite <name>`: the customer (made on first use) joins a seat of the acting
  /// customer's Apple-hosted subscription, with an `ASSIGNED` transaction of their own.
  mutating func inviteMember(_ name: String, _ sink: EventSink) {
    guard let index = try? appleHostedGroup(), let source = purchaserPeriod(group: index) else {
      return
    }
    let slot = storage.customers.slot(named: name) ?? addCustomer(named: name)
    let member = storage.customers.customers[slot]
    let stamp = now.milliseconds
    let original = source.group.originalID
    let assigned = addressing(member) { $0.openAssignment(group: index, source, at: stamp, sink) }
    makeUnique()
    storage.seats.join(
      SeatMember(customer: member.number, originalID: assigned!), original,
      following: terms(of: index))
  }

  /// `group remove <name>`: the member's assignment is revoked, their seat free again.
  mutating func removeMember(_ name: String, _ sink: EventSink) {
    guard let index = try? appleHostedGroup(), let slot = storage.customers.slot(named: name)
    else { return }
    let member = storage.customers.customers[slot]
    let stamp = now.milliseconds
    addressing(member) { $0.revokeAssignment(group: index, at: stamp, sink) }
    makeUnique()
    storage.seats.removeMember(member.number, from: groups[index].originalID)
  }

  /// What members follow of the addressed customer's group `index` now.
  private func terms(of index: Int) -> MemberTerms {
    let revoked = ledger.position(of: groups[index].current).map { ledger[$0].isRevoked } ?? false
    let seats = storage.seats[groups[index].originalID]?.inForce ?? 0
    return MemberTerms(groups[index], isRevoked: revoked, seats: seats)
  }

  // MARK: - Members following the purchaser

  /// Brings the members of the addressed customer's Apple-hosted subscriptions in line with them,
  /// at `stamp`: a renewal renews each member's seat; grace, retry and expiry are theirs too;
  /// a refund revokes their assignments; seats fewer than members (a reduction at the renewal,
  /// a seat refund) revoke the latest members' [unverified]; a subscription that ended leaves
  /// no members. Called after every verb and scheduled transition; walks the members only when
  /// the purchaser's subscription changed, so a verb costs O(*g*) in subscription groups.
  mutating func syncSeatMembers(at stamp: Int64, _ sink: EventSink) {
    guard !storage.seats.isEmpty else { return }
    for index in groups.indices where groups[index].phase != .none && !groups[index].isAssigned {
      let original = groups[index].originalID
      guard let seats = storage.seats[original], seats.memberCount > 0 else { continue }
      let now = terms(of: index)
      guard now != seats.followed, let source = purchaserPeriod(group: index) else { continue }
      // A new period: a later renewal (not a deletion that went back to an earlier one).
      let renewed =
        seats.followed.map {
          now.current > $0.current && source.record.flags.contains(.renewal)
        } ?? false
      let ended = now.phase == .expired || now.phase == .revoked
      var members = seats.members
      while !ended && members.count > now.seats {
        let latest = members.removeLast()
        if let member = customer(number: latest.customer) {
          addressing(member) { $0.revokeAssignment(group: index, at: stamp, sink) }
        }
        makeUnique()
        storage.seats.removeMember(latest.customer, from: original)
      }
      for seat in members {
        guard let member = customer(number: seat.customer) else { continue }
        addressing(member) {
          $0.followPurchaser(group: index, source, renewed: renewed, at: stamp, sink)
        }
        if ended {
          makeUnique()
          storage.seats.removeMember(seat.customer, from: original)
        }
      }
      makeUnique()
      storage.seats.groups[original]?.followed = now
    }
  }

  // MARK: - The member's side (acting as the member)

  /// Opens the member's assignment: a transaction of their own (`ASSIGNED`) for the
  /// purchaser's period, their group following the purchaser's. Returns its id. The member
  /// pays nothing: its price is 0 (the seats' prices are in its `multiSeatInfo`) [unverified].
  private mutating func openAssignment(
    group index: Int, _ source: PurchaserPeriod, at stamp: Int64, _ sink: EventSink
  ) -> UInt64 {
    var record = TransactionRecord(
      id: 0, originalID: nextFreeID, purchaseDate: stamp, originalPurchaseDate: stamp,
      expirationDate: source.record.expirationDate, price: 0, product: source.record.product,
      quantity: source.record.quantity, storefront: storefrontIndex(), state: .purchased)
    record.flags.insert(.purchaseUntold)
    let id = appendMade(record, details: TransactionDetails(seats: source.memberSeats))
    var group = groups[index]
    group.isAssigned = true
    group.originalID = id
    group.current = id
    group.product = record.product
    group.recentStart = stamp
    group.purchasedCount += 1
    Self.follow(source.group, into: &group)
    groups[index] = group
    reschedule(group: index)
    emitTransaction(ledger.records.count - 1, delivery: .updates, at: stamp, sink)
    emitStatus(group: index, at: stamp, sink)
    return id
  }

  /// The member's seat follows the purchaser's period: a renewal of theirs when the purchaser
  /// renewed, a revocation when the purchaser's period was refunded, the purchaser's state.
  private mutating func followPurchaser(
    group index: Int, _ source: PurchaserPeriod, renewed: Bool, at stamp: Int64,
    _ sink: EventSink
  ) {
    guard groups[index].isAssigned, groups[index].phase != .revoked else { return }
    // Refunded, or over while the member's period still runs (the purchaser's latest period
    // was deleted): the seat is taken back.
    let over = source.group.phase == .expired || source.group.phase == .revoked
    let running = ledger.position(of: groups[index].current).map {
      ledger[$0].expirationDate > stamp
    }
    if source.record.isRevoked || (over && running == true) {
      return revokeAssignment(group: index, at: stamp, sink)
    }
    if renewed && source.group.isEntitled {
      let record = TransactionRecord(
        id: 0, originalID: groups[index].originalID, purchaseDate: source.record.purchaseDate,
        originalPurchaseDate: originalPurchaseDate(group: index),
        expirationDate: source.record.expirationDate, price: 0, product: source.record.product,
        quantity: source.record.quantity, storefront: storefrontIndex(), state: .purchased,
        flags: .renewal)
      let id = appendMade(record, details: TransactionDetails(seats: source.memberSeats))
      let cause = NotificationCause.renewal(after: groups[index].told)
      groups[index].renewed(as: id, product: record.product, until: record.expirationDate)
      emitTransaction(ledger.records.count - 1, delivery: .updates, at: stamp, sink, cause: cause)
    }
    var group = groups[index]
    Self.follow(source.group, into: &group)
    groups[index] = group
    reschedule(group: index)
    emitStatus(group: index, at: stamp, sink)
  }

  /// The member's assignment ends now: their current transaction revoked (`REVOKE`,
  /// `ASSIGNMENT_REVOKE`), their subscription revoked.
  private mutating func revokeAssignment(group index: Int, at stamp: Int64, _ sink: EventSink) {
    guard groups[index].isAssigned, let position = ledger.position(of: groups[index].current),
      !ledger[position].isRevoked
    else { return }
    ledger.update(position) { $0.revocationDate = max(stamp, $0.purchaseDate) }
    groups[index].phase = .revoked
    groups[index].willAutoRenew = false
    reschedule(group: index)
    emitTransaction(position, delivery: .updates, at: stamp, sink, cause: .init(.revoke))
    emitStatus(group: index, at: stamp, sink)
  }

  /// The purchaser's state, copied into a member's group.
  private static func follow(_ purchaser: GroupState, into group: inout GroupState) {
    group.phase = purchaser.phase
    group.willAutoRenew = purchaser.willAutoRenew
    group.renewalProduct = purchaser.renewalProduct
    group.periodEnd = purchaser.periodEnd
    group.graceEnd = purchaser.graceEnd
    group.retryEnd = purchaser.retryEnd
    group.expirationReason = purchaser.expirationReason
    // The offers the purchaser's renewals take: the member's renewal info says the same price.
    group.upcoming = purchaser.upcoming
  }

  // MARK: - Deleted purchases

  /// After `delete` or `clear`: a multiseat purchase of the addressed customer's that is gone
  /// takes its members' seats with it (their transactions deleted, as a family member's shares
  /// are); the addressed customer's own seat that is gone leaves its group. In the order of the
  /// purchases' ids, so that a replay tells the same.
  ///
  /// - Complexity: O(*s*) in multiseat subscriptions, and the members' transactions deleted.
  mutating func dropSeatsOfDeletedPurchases(_ sink: EventSink) {
    guard !storage.seats.isEmpty else { return }
    let me = addressedCustomer.number
    let stamp = now.milliseconds
    for original in storage.seats.groups.keys.sorted() {
      guard let seats = storage.seats[original] else { continue }
      if let position = ledger.anyPosition(of: original), ledger[position].isDeleted {
        for seat in seats.members {
          guard let member = customer(number: seat.customer) else { continue }
          addressing(member) { $0.deleteAssignment(original: seat.originalID, at: stamp, sink) }
        }
        makeUnique()
        storage.seats.close(original)
      } else if let seat = seats.member(customer: me),
        let position = ledger.anyPosition(of: seat.originalID), ledger[position].isDeleted
      {
        makeUnique()
        storage.seats.removeMember(me, from: original)
      }
    }
  }

  /// The member's seat `original` is deleted with every period of it, as the purchase it came
  /// from was; their subscription in the group is forgotten.
  private mutating func deleteAssignment(original: UInt64, at stamp: Int64, _ sink: EventSink) {
    guard let first = ledger.position(of: original) else { return }
    let groupIndex = product(at: ledger[first].product).groupIndex
    for position in ledger.records.indices[first...]
    where !ledger[position].isDeleted && ledger[position].originalID == original {
      ledger.update(position) { $0.flags.insert(.deleted) }
      if let groupIndex { groups[groupIndex].purchasedCount -= 1 }
      emit(.transactionRemoved(id: ledger[position].id), at: stamp, sink)
    }
    guard let groupIndex, groups[groupIndex].originalID == original else { return }
    // An earlier seat of the group (revoked) still counts among the member's purchases.
    var forgotten = GroupState(generation: groups[groupIndex].generation)
    forgotten.purchasedCount = groups[groupIndex].purchasedCount
    groups[groupIndex] = forgotten
    reschedule(group: groupIndex)
  }
}
