/// What the App Store keeps of multiseat subscriptions, for every customer: each
/// subscription's seats by its original transaction id (unique among customers), App Store
/// Connect's invitation hosting for new purchases, and each product's seat pricing. The rules
/// that read only these are here (what seats cost, how many a product sells, how a period's
/// seats open, renew, are refunded and claimed); those that need a customer's subscription are
/// the session's (Session+Seats, Session+SeatMembers).
struct SeatRecords: Sendable {
  /// Each multiseat subscription's seats, by original transaction id; changed in place.
  var groups: [UInt64: SeatGroup] = [:]
  /// Who hosts the invitations of a multiseat purchase made now (`set invitations`).
  var invitations = InvitationManagement.apple
  /// Products' seat pricing set by `set seat-pricing` (by catalog index); the others sell
  /// seats at their own price.
  private var pricing: [Int32: SeatPricing] = [:]

  /// Whether there is no multiseat subscription (the engine's fast path skips the seats' rules).
  var isEmpty: Bool { groups.isEmpty }

  /// The seats of the subscription of `original`, if it is multiseat.
  subscript(original: UInt64) -> SeatGroup? { groups[original] }

  // MARK: - Pricing

  /// Sets a product's seat pricing (checked: ``checkTiers(_:)``).
  mutating func setPricing(_ pricing: SeatPricing?, of product: Int32) {
    self.pricing[product] = pricing
  }

  /// Whether `product` is sold by the seat at all (`multiSeatPurchaseDisabled` when not).
  func sellsSeats(of product: Int32) -> Bool { pricing[product] != .disabled }

  /// The most seats `product`'s tiers sell; `nil` when they end open (or it has none).
  func mostSeats(of product: Int32) -> Int? {
    guard case .tiers(let tiers)? = pricing[product] else { return nil }
    return tiers.last?.maximumSeats
  }

  /// The per-seat tiers `product` sells seats at, ascending: its own, or one tier at `price`
  /// for every seat; `nil` when turned off.
  func tiers(of product: Int32, price: Int64) -> [SeatTier]? {
    switch pricing[product] {
    case .disabled?: nil
    case .tiers(let tiers)?: tiers
    case nil: [SeatTier(maximumSeats: nil, price: price)]
    }
  }

  /// What seats `first + 1` to `first + count` of a period of `product` cost, by price: its
  /// tiers, else one price, `base` (the period's price: an offer's price is one price for
  /// every seat).
  func charges(
    product: Int32, offered: Bool, after first: Int, count: Int, base: Int64
  ) -> [SeatCharge] {
    guard !offered, !pricing.isEmpty, case .tiers(let tiers)? = pricing[product],
      let last = tiers.last
    else { return [SeatCharge(price: base, quantity: count)] }
    var charges: [SeatCharge] = []
    var seat = first
    let end = first + count
    for tier in tiers where seat < end {
      let upper = min(end, tier.maximumSeats ?? end)
      if upper > seat {
        charges.append(SeatCharge(price: tier.price, quantity: upper - seat))
        seat = upper
      }
    }
    if seat < end { charges.append(SeatCharge(price: last.price, quantity: end - seat)) }
    return charges
  }

  /// What the charges come to.
  static func total(_ charges: [SeatCharge]) -> Int64 {
    charges.reduce(0) { $0 + $1.price * Int64($1.quantity) }
  }

  /// Whether tiers have Apple's shape: one to five, going up in seats, each price above 0,
  /// only the last open.
  static func checkTiers(_ tiers: [SeatTier]) throws(SeatRefusal) {
    var previous = 0
    for (place, tier) in tiers.enumerated() {
      let isLast = place == tiers.count - 1
      guard tier.price > 0, isLast || tier.maximumSeats != nil,
        (tier.maximumSeats ?? Int.max) > previous
      else {
        throw SeatRefusal(
          .multiSeatDisabled,
          "seat tiers go up in seats (5:9.99 10:7.99 *:5.99), each price above 0, only the last "
            + "open (*)")
      }
      previous = tier.maximumSeats ?? Int.max
    }
    guard (1...SeatTier.most).contains(tiers.count) else {
      throw SeatRefusal(
        .multiSeatDisabled, "a product has 1 to \(SeatTier.most) seat tiers, not \(tiers.count)")
    }
  }

  // MARK: - A subscription's seats

  /// A new run of periods of `original` with `seats` seats at `seatPrice` each, the invitations
  /// hosted as set now (claims and members start over); the hosting it took.
  mutating func open(
    _ original: UInt64, seats: Int, seatPrice: Int64
  ) -> InvitationManagement {
    groups[original] = SeatGroup(
      invitations: invitations, total: seats, renewalTotal: seats, seatPrice: seatPrice)
    return invitations
  }

  /// The subscription of `original` is no longer multiseat (a resubscription without seats, a
  /// deleted purchase).
  mutating func close(_ original: UInt64) { groups[original] = nil }

  /// A renewal of `original` at `seatPrice` a seat: the seats that renew are the period's,
  /// none refunded (claims stay: the App Store does not unclaim at a renewal). The seats now.
  mutating func renew(_ original: UInt64, seatPrice: Int64) -> SeatGroup? {
    guard var group = groups[original] else { return nil }
    group.total = group.renewalTotal
    group.revoked = 0
    group.seatPrice = seatPrice
    groups[original] = group
    return group
  }

  /// Apple refunds `count` seats of the current period of `original`: claims beyond the seats
  /// left are unclaimed, the latest first; their ids.
  mutating func refund(_ count: Int, of original: UInt64) -> [String] {
    groups[original]!.revoked += count
    let inForce = groups[original]!.inForce
    return groups[original]!.keepClaims(atMost: inForce)
  }

  /// Claims a seat of `original` (idempotent by `request`): a new claim id, made from the
  /// subscription and the claims made so far.
  mutating func claim(_ original: UInt64, request: String, member: String?) {
    guard groups[original]?.claim(request: request) == nil else { return }
    // In place: a copy of the group would copy its claims at every claim.
    groups[original]!.claimsMade += 1
    let made = groups[original]!.claimsMade
    let claim = stableUUID("seat-claim-\(original)-\(made)-\(request)")
    groups[original]!.add(
      SeatClaim(id: claim, requestIdentifier: request, appTransactionID: member))
  }

  /// A member joins a seat of `original`: the seat is of the period now, so what the members
  /// follow is `terms` (after every member left, what they followed last is stale).
  mutating func join(_ member: SeatMember, _ original: UInt64, following terms: MemberTerms) {
    groups[original]!.add(member)
    groups[original]!.followed = terms
  }

  /// Customer `number` no longer holds a seat of `original`.
  mutating func removeMember(_ number: Int, from original: UInt64) {
    groups[original]?.removeMember(customer: number)
  }
}
