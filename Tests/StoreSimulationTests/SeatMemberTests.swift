import Testing

@testable import StoreSimulation

/// Apple-hosted members of a multiseat subscription: a member is a customer with an `ASSIGNED`
/// transaction in their own account, renews and ends with the purchaser, loses the seat when
/// removed (an assignment revocation), when the seats drop below the members or when the
/// purchaser is refunded; and every bad line is refused with nothing changed.
@Suite struct SeatMemberTests {
  /// The own customer holds `monthly` with `seats` seats, Apple hosting the invitations.
  func purchaser(seats: Int = 3) throws -> Session {
    var session = makeSession()
    _ = try events { try session.buy("premium.monthly", seated(seats), $0) }
    return session
  }

  func seated(_ seats: Int) -> PurchaseOptions {
    var options = PurchaseOptions()
    options.seats = seats
    return options
  }

  func invite(_ name: String, _ session: inout Session) throws -> [StoreEvent] {
    try events { try session.changeSeats(.invite(member: name), $0) }
  }

  func member(_ name: String, of session: Session) throws -> Session {
    let customer = try #require(session.customer(named: name))
    return try #require(session.acting(as: customer))
  }

  @Test func aMemberGetsAnAssignedTransactionOfTheirOwnCarryingThePurchasersSeats() throws {
    var session = try purchaser()
    let joined = try invite("ann", &session)
    let (transaction, delivery) = try #require(joined.transactions.first)
    #expect(joined.allSatisfy { $0.customer?.name == "ann" })
    #expect(transaction.ownership == .assigned && transaction.ownershipType == "assigned")
    #expect(delivery == .updates)
    #expect(transaction.purchasedQuantity == 3)
    #expect(transaction.seats?.invitations == .apple)
    #expect(transaction.seats?.assignedBy == 0)
    #expect(transaction.id == transaction.originalID)
    #expect(joined.first?.notifications.first?.type == .subscribed)
    let ann = try member("ann", of: session)
    #expect(ann.currentEntitlements().map(\.id) == [transaction.id])
    #expect(session.customer.isOwn, "the purchaser stays the current customer")
    let seats = try #require(session.seatGroup(ofTransaction: 0))
    #expect(seats.memberCount == 1 && seats.available == 2)
    #expect(session.groupMembers.map(\.name) == ["ann"])
    #expect(
      ann.status(forGroup: "G1")?.renewalInfo.renewalSeats == 3,
      "a member's renewal info renews the purchaser's seats")
  }

  @Test func membersRenewWithThePurchaserAndEndWithIt() throws {
    var session = try purchaser()
    _ = try invite("ann", &session)
    let renewed = try events { try session.advance(to: t0.plus(seconds: 32 * 86_400), $0) }
    let annRenewal = renewed.transactions.filter { $0.0.owner.customer.name == "ann" }
    #expect(annRenewal.count == 1)
    #expect(annRenewal.first?.0.reason == .renewal)
    #expect(annRenewal.first?.0.ownership == .assigned)
    let own = renewed.transactions.first { $0.0.owner.customer.isOwn }?.0
    #expect(annRenewal.first?.0.expirationDate == own?.expirationDate)
    _ = try events { try session.setAutoRenew(0, enabled: false, $0) }
    let ended = try events { try session.advance(to: t0.plus(seconds: 70 * 86_400), $0) }
    let annStatus = ended.statuses.last { $0.owner.customer.name == "ann" }
    #expect(annStatus?.state == .expired)
    #expect(session.seatGroup(ofTransaction: 0)?.memberCount == 0, "no members after the end")
    #expect(try member("ann", of: session).currentEntitlements().isEmpty)
  }

  @Test func aRemovedMemberLosesTheSeatByAnAssignmentRevocation() throws {
    var session = try purchaser()
    let first = try #require(try invite("ann", &session).transactions.first?.0)
    let removed = try events { try session.changeSeats(.remove(member: "ann"), $0) }
    let revoked = try #require(removed.transactions.first?.0)
    #expect(revoked.id == first.id && revoked.revocationType == .assignmentRevoke)
    #expect(revoked.revocationPercentage == nil)
    #expect(removed.first?.notifications.first?.type == .revoke)
    #expect(session.seatGroup(ofTransaction: 0)?.available == 3)
    let again = try #require(try invite("ann", &session).transactions.first?.0)
    #expect(again.originalID != first.originalID, "a new assignment")
  }

  @Test func fewerSeatsAtTheRenewalRevokeTheLatestMembers() throws {
    var session = try purchaser()
    for name in ["ann", "bob", "cid"] { _ = try invite(name, &session) }
    _ = try events { try session.changeSeats(.change(0, total: 1), $0) }
    #expect(session.seatGroup(ofTransaction: 0)?.memberCount == 3, "until the renewal")
    let renewed = try events { try session.advance(to: t0.plus(seconds: 32 * 86_400), $0) }
    let revoked = renewed.transactions.filter { $0.0.revocationType == .assignmentRevoke }
    #expect(Set(revoked.map { $0.0.owner.customer.name }) == ["bob", "cid"])
    #expect(session.groupMembers.map(\.name) == ["ann"])
  }

  @Test func aRefundOfThePurchaserRevokesEveryMember() throws {
    var session = try purchaser()
    _ = try invite("ann", &session)
    let refunded = try events { try session.refund(0, reason: .other, share: nil, $0) }
    let ann = refunded.transactions.first { $0.0.owner.customer.name == "ann" }?.0
    #expect(ann?.revocationType == .assignmentRevoke)
    #expect(try member("ann", of: session).currentEntitlements().isEmpty)
  }

  @Test func badMemberLinesAreRefusedNamingTheRuleWithNothingChanged() throws {
    var session = try purchaser(seats: 1)
    _ = try invite("ann", &session)
    let before = session.transactionCountOfEveryCustomer
    func rule(_ body: (inout Session) throws -> Void) -> SeatRule? {
      do {
        try body(&session)
      } catch let error as SessionError {
        if case .seats(let refusal) = error.reason { return refusal.rule }
      } catch {}
      return nil
    }
    #expect(rule { try $0.changeSeats(.invite(member: "bob"), { _ in }) } == .noAvailableSeats)
    #expect(rule { try $0.changeSeats(.invite(member: "ann"), { _ in }) } == .unchanged)
    #expect(rule { try $0.changeSeats(.remove(member: "zed"), { _ in }) } == .memberNotFound)
    try session.selectCustomer(named: "ann")
    let annID = try #require(session.currentEntitlements().first?.id)
    #expect(rule { try $0.setAutoRenew(annID, enabled: false, { _ in }) } == .assignedSeat)
    #expect(rule { try $0.refund(annID, reason: .other, share: nil, { _ in }) } == .assignedSeat)
    #expect(rule { try $0.buy("monthly", PurchaseOptions(), { _ in }) } == .assignedSeat)
    #expect(
      rule { try $0.changeSeats(.invite(member: "bob"), { _ in }) } == .notAppleManaged,
      "a member has no subscription of their own to invite to")
    try session.selectCustomer(named: nil)
    _ = try events { try session.changeSeats(.invitations(.developer), $0) }
    try session.selectCustomer(named: "dev")
    _ = try events { try session.buy("premium.monthly", seated(2), $0) }
    #expect(rule { try $0.changeSeats(.invite(member: "eve"), { _ in }) } == .notAppleManaged)
    #expect(session.transactionCountOfEveryCustomer == before + 1)
    #expect(session.customer(named: "bob") == nil && session.customer(named: "eve") == nil)
  }

  @Test func aThousandMembersJoinAndRenew() throws {
    var session = try purchaser(seats: 1000)
    for number in 1...1000 { _ = try invite("m\(number)", &session) }
    let renewed = try events { try session.advance(to: t0.plus(seconds: 32 * 86_400), $0) }
    #expect(renewed.transactions.filter { $0.0.ownership == .assigned }.count == 1000)
    #expect(session.seatGroup(ofTransaction: 0)?.available == 0)
  }

  /// A member who joins after every member left (and renewals went by) gets one transaction,
  /// the period's, and renews with the next renewal only.
  @Test func aMemberJoiningAfterOthersLeftGetsOneSeat() throws {
    var session = try purchaser()
    _ = try invite("ann", &session)
    _ = try events { try session.changeSeats(.remove(member: "ann"), $0) }
    _ = try events { try session.advance(to: t0.plus(seconds: 32 * 86_400), $0) }
    let joined = try invite("bob", &session)
    #expect(joined.transactions.count == 1)
    let settled = try events { try session.changeSeats(.change(0, total: 5), $0) }
    #expect(settled.transactions.allSatisfy { $0.0.ownership != .assigned }, "no renewal for bob")
    let renewed = try events { try session.advance(to: t0.plus(seconds: 63 * 86_400), $0) }
    #expect(renewed.transactions.filter { $0.0.ownership == .assigned }.count == 1)
  }

  @Test func someoneSubscribedInTheGroupCannotBeInvited() throws {
    var session = try purchaser()
    try session.selectCustomer(named: "zoe")
    _ = try events { try session.buy("premium.monthly", PurchaseOptions(), $0) }
    try session.selectCustomer(named: nil)
    do {
      try session.changeSeats(.invite(member: "zoe")) { _ in }
      Issue.record("zoe was invited")
    } catch {
      guard case .seats(let refusal) = error.reason else {
        Issue.record("\(error)")
        return
      }
      #expect(refusal.rule == .alreadySubscribed && refusal.message.contains("zoe"))
    }
  }

  /// The purchaser's deleted purchase (`delete`, `clear`) takes the members' seats with it; a
  /// member who clears their own transactions leaves the group and may be invited again.
  @Test func aDeletedPurchaseTakesItsMembersSeatsWithIt() throws {
    for verb in ["delete", "clear"] {
      var session = try purchaser()
      let seat = try #require(try invite("ann", &session).transactions.first?.0)
      let gone = try events {
        if verb == "delete" { try session.delete(0, $0) } else { session.clear($0) }
      }
      #expect(gone.removed.contains(seat.id), "\(verb)")
      #expect(session.seatGroup(ofTransaction: 0) == nil)
      #expect(try member("ann", of: session).currentEntitlements().isEmpty)
      // The clock goes on without a seat left over to end.
      _ = try events { try session.advance(to: t0.plus(seconds: 40 * 86_400), $0) }
    }
    var session = try purchaser()
    _ = try invite("ann", &session)
    try session.selectCustomer(named: "ann")
    _ = try events { session.clear($0) }
    try session.selectCustomer(named: nil)
    #expect(session.seatGroup(ofTransaction: 0)?.memberCount == 0)
    #expect(try invite("ann", &session).transactions.count == 1, "invited again")
  }
}
