import Testing

@testable import StoreSimulation

/// The debug build a newcomer runs (`swift run`) checks the engine's invariants after every verb
/// without making a session's life quadratic.
@Suite struct InvariantCheckingTests {
  /// A session with `purchases` consumables bought, checking its invariants as `checking` says,
  /// then `verbs` steps of 30 seconds.
  func transactionsVisited(
    _ checking: InvariantChecking, purchases: Int, verbs: Int
  ) throws -> (visited: Int, ledger: Int) {
    var options = SessionOptions()
    options.invariantChecking = checking
    var session = Session(configuration: testConfiguration, start: t0, options: options)
    for _ in 0..<purchases { try session.buy("coins", PurchaseOptions()) { _ in } }
    for _ in 0..<verbs { try session.advance(to: session.now.plus(seconds: 30)) { _ in } }
    return (
      session.storage.customers.addressedState.checked.transactionsVisited,
      session.ledger.records.count
    )
  }

  @Test func theDebugBuildsChecksVisitAConstantShareOfTheLedgerPerVerb() throws {
    let (visited, ledger) = try transactionsVisited(.amortized, purchases: 2_000, verbs: 4_000)
    #expect(ledger == 2_000)
    // Each verb pays for its own new transactions and 32 of a whole check's.
    let share = InvariantChecking.Progress.transactionsPerVerb
    #expect(visited <= (share + 2) * (6_000 + ledger))
  }

  @Test func checkingTheWholeStateAfterEveryVerbIsQuadraticAndOnlyForFuzzing() throws {
    let (visited, ledger) = try transactionsVisited(.everyVerb, purchases: 500, verbs: 1_000)
    let share = InvariantChecking.Progress.transactionsPerVerb
    #expect(visited > 1_000 * ledger)
    #expect(visited > 5 * (share + 2) * (1_500 + ledger))
    #expect(SessionOptions().invariantChecking == .amortized)
  }

  @Test func aWholeCheckStillComesDuringALongSession() throws {
    var session = Session(configuration: testConfiguration, start: t0)
    for _ in 0..<100 { try session.buy("coins", PurchaseOptions()) { _ in } }
    let before = session.storage.customers.addressedState.checked.transactionsVisited
    for _ in 0..<4 {
      try session.advance(to: session.now.plus(seconds: 30)) { _ in }
    }
    // 100 transactions: a whole check falls due within four verbs, and walks all of them.
    #expect(session.storage.customers.addressedState.checked.transactionsVisited - before >= 100)
    #expect(session.invariantViolation() == nil)
  }
}
