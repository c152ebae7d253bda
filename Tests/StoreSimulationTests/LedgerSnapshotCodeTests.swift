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
}
