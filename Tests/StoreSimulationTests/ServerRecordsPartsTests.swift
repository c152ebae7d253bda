import Testing

@testable import StoreSimulation

/// The session's shared server-side records, each a value that owns its rules: multiseat
/// subscriptions' seats and pricing, Advanced Commerce's subscriptions and reference ids, and
/// who holds the ids the engine did not make. Each rule is proved on the value alone.
@Suite struct ServerRecordsPartsTests {
  @Test func tieredSeatsAreChargedTierByTierAndTheLastTierPricesTheRest() throws {
    var seats = SeatRecords()
    let tiers = [SeatTier(maximumSeats: 2, price: 10_000), SeatTier(maximumSeats: 4, price: 8_000)]
    try SeatRecords.checkTiers(tiers)
    seats.setPricing(.tiers(tiers), of: 3)
    let charges = seats.charges(product: 3, offered: false, after: 1, count: 5, base: 99)
    #expect(
      charges == [
        SeatCharge(price: 10_000, quantity: 1), SeatCharge(price: 8_000, quantity: 2),
        SeatCharge(price: 8_000, quantity: 2),
      ])
    #expect(SeatRecords.total(charges) == 42_000)
    #expect(seats.mostSeats(of: 3) == 4)
    // An offer's price is one price for every seat; another product sells at its own.
    #expect(
      seats.charges(product: 3, offered: true, after: 0, count: 3, base: 99)
        == [SeatCharge(price: 99, quantity: 3)])
    #expect(seats.tiers(of: 4, price: 5) == [SeatTier(maximumSeats: nil, price: 5)])
    seats.setPricing(.disabled, of: 4)
    #expect(!seats.sellsSeats(of: 4) && seats.tiers(of: 4, price: 5) == nil)
  }

  @Test func tiersNotOfApplesShapeAreRefused() {
    let shapes: [[SeatTier]] = [
      [],
      [SeatTier(maximumSeats: nil, price: 0)],
      [SeatTier(maximumSeats: nil, price: 1), SeatTier(maximumSeats: 5, price: 1)],
      [SeatTier(maximumSeats: 5, price: 1), SeatTier(maximumSeats: 5, price: 1)],
      (1...6).map { SeatTier(maximumSeats: $0 == 6 ? nil : $0, price: 1) },
    ]
    for tiers in shapes {
      #expect(throws: SeatRefusal.self, "\(tiers)") { try SeatRecords.checkTiers(tiers) }
    }
  }

  @Test func aSeatRefundUnclaimsTheLatestClaimsBeyondTheSeatsLeftAndARenewalRestoresThem() {
    var seats = SeatRecords()
    seats.invitations = .developer
    #expect(seats.open(7, seats: 3, seatPrice: 1_000) == .developer)
    for request in ["a", "b", "c", "a"] { seats.claim(7, request: request, member: nil) }
    #expect(seats[7]?.claimCount == 3)
    let unclaimed = seats.refund(2, of: 7)
    #expect(unclaimed.count == 2)
    #expect(seats[7]?.claims.map(\.requestIdentifier) == ["a"])
    #expect(seats[7]?.inForce == 1)
    let renewed = seats.renew(7, seatPrice: 900)
    #expect(renewed?.inForce == 3 && renewed?.seatPrice == 900 && renewed?.claimCount == 1)
    seats.close(7)
    #expect(seats.isEmpty && seats.renew(7, seatPrice: 1) == nil)
  }

  @Test func aReferenceIdServesOneRequestAndOnlyARetryOfItAnswersAsTheFirst() throws {
    var commerce = CommerceRecords()
    let info = CommerceRequestInfo(
      requestReferenceID: "r1", appAccountToken: nil, consistencyToken: nil)
    try commerce.checkUnused(info)
    commerce.spend(info, asking: "cancel 5")
    #expect(commerce.isRetry("r1", asking: "cancel 5"))
    #expect(!commerce.isRetry("r1", asking: "revoke 5"))
    try commerce.checkFresh(info, asking: "cancel 5")
    #expect(throws: CommerceRefusal.self) { try commerce.checkFresh(info, asking: "revoke 5") }
    #expect(throws: CommerceRefusal.self) { try commerce.checkUnused(info) }
  }

  @Test func eachChangeMakesANewTokenAndOnlyTheLatestIsAccepted() throws {
    var commerce = CommerceRecords()
    let terms = CommerceTerms(
      descriptors: CommerceDescriptors(description: "Pro", displayName: "Pro"),
      items: [CommerceItem(sku: "pro", description: "Pro", displayName: "Pro", price: 4_990)],
      period: .oneMonth, taxCode: "C003-00-1", requestReferenceID: "r0", currency: "USD")
    commerce.open(9, renewing: terms)
    let first = try #require(commerce[9]?.consistencyToken)
    commerce.renewToken(9)
    let second = try #require(commerce[9]?.consistencyToken)
    #expect(first != second)
    try commerce.checkToken(
      CommerceRequestInfo(requestReferenceID: "x", appAccountToken: nil, consistencyToken: second),
      9)
    #expect(throws: CommerceRefusal.self) {
      try commerce.checkToken(
        CommerceRequestInfo(requestReferenceID: "x", appAccountToken: nil, consistencyToken: first),
        9)
    }
    // Reopened (a resubscription), the tokens go on from the last: never one seen before.
    commerce.open(9, renewing: terms)
    #expect(![first, second].contains(commerce[9]!.consistencyToken))
    #expect(commerce[9]!.consistencyToken == CommerceRecords.consistencyToken(9, 3))
  }

  @Test func theNextFreeIdSkipsIdsAnotherCustomerHolds() {
    var ids = IDOwners()
    #expect(ids.isEmpty && ids.firstFree(from: 10, for: 1) == 10)
    ids.give(transaction: 10, to: 2)
    ids.give(transaction: 11, to: 2)
    ids.give(transaction: 12, to: 1)
    ids.give(appTransaction: 77, to: 2)
    #expect(!ids.isEmpty)
    #expect(ids.firstFree(from: 10, for: 1) == 12)
    #expect(ids.firstFree(from: 10, for: 2) == 10)
    #expect(ids.owner(ofTransaction: 11) == 2 && ids.owner(ofTransaction: 13) == nil)
    #expect(ids.owner(ofAppTransaction: 77) == 2 && ids.owner(ofAppTransaction: 10) == nil)
  }
}
