import StoreConfiguration
import Testing

@testable import StoreSimulation

/// A snapshot on disk keeps its meaning whatever the engine's enumerations become: each is
/// written with a code of its own, not its place in the declaration.
@Suite struct LedgerSnapshotCodeTests {
  @Test func theCodesAreTheOnesWrittenDown() {
    #expect(
      LedgerState.allCases.map(SnapshotCode.code)
        == LedgerState.allCases.map { state -> UInt8 in
          [
            "purchased": 0, "renewed": 1, "pending": 2, "declined": 3, "interrupted": 4,
            "failed": 5, "refunded": 6, "upgraded": 7, "expired": 8, "grace": 9, "retry": 10,
            "priceIncrease": 11, "revoked": 12,
          ][state.rawValue]!
        })
    #expect(OfferKind.allCases.map(SnapshotCode.code) == [0, 1, 2, 3])
    #expect([.purchased, .failed, .deferred].map(SnapshotCode.code) == [0, 1, 2])
    for state in LedgerState.allCases {
      #expect(SnapshotCode.label(SnapshotCode.code(state)) == state)
    }
    #expect(SnapshotCode.label(13) == nil && SnapshotCode.state(3) == nil)
  }

  @Test func aSnapshotWithAFailureAndAnOfferReadsBackTheSame() throws {
    var session = makeSession(rate: .monthlyRenewalEveryThirtySeconds) {
      $0.simulatedErrors[.purchase] = .purchase(.productUnavailable)
    }
    try session.buy("monthly", PurchaseOptions()) { _ in }
    session.updateSettings { $0.simulatedErrors[.purchase] = nil }
    try session.buy("monthly", PurchaseOptions(offer: .introductory)) { _ in }
    let snapshot = session.ledgerSnapshot()
    var bytes: [UInt8] = []
    snapshot.encoded { bytes += $0 }
    let read = try #require(LedgerSnapshot(decoding: bytes, from: 0, catalog: session.catalog))
    #expect(read.count == snapshot.count)
    for index in 0..<read.count {
      #expect(read.transaction(index) == snapshot.transaction(index))
      #expect(read.row(index) == snapshot.row(index))
    }
  }

  /// A purchaser's multiseat terms (tiers, refunded seats) and a member's seat (`ASSIGNED`) read
  /// back from a saved snapshot as the session has them: a journal's listing shows them.
  @Test func multiseatTermsAndAMembersSeatReadBackTheSame() throws {
    var session = makeSession()
    var options = PurchaseOptions()
    options.seats = 4
    try session.buy("premium.monthly", options) { _ in }
    try session.changeSeats(.refund(0, seats: 1)) { _ in }
    try session.changeSeats(.invite(member: "ann")) { _ in }
    for customer in [Customer.own, try #require(session.customer(named: "ann"))] {
      let snapshot = try #require(session.acting(as: customer)).ledgerSnapshot()
      var bytes: [UInt8] = []
      snapshot.encoded { bytes += $0 }
      let read = try #require(
        LedgerSnapshot(
          decoding: bytes, from: 0, catalog: session.catalog, owner: Account(customer: customer)))
      #expect(read.count == snapshot.count && read.count > 0)
      for index in 0..<read.count {
        #expect(read.transaction(index) == snapshot.transaction(index))
        #expect(read.transaction(index).seats != nil)
      }
    }
    let ann = try #require(session.customer(named: "ann"))
    let seat = try #require(session.acting(as: ann)).ledgerSnapshot().transaction(0)
    #expect(seat.ownership == .assigned && seat.seats?.revoked == nil)
    #expect(session.ledgerSnapshot().transaction(0).seats?.revoked == 1)
  }
}
