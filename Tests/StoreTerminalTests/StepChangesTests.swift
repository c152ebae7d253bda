import StoreCommands
import StoreConfiguration
import StoreSimulation
import Testing

@testable import StoreTerminal

/// A step's marks compare what the transaction is made of, not what the screen says.
@Suite struct StepChangesTests {
  /// What a step changes of the transaction `setup` made.
  func changes(_ setup: String, then step: String) throws -> Set<InspectorLabel> {
    let app = makeApp()
    app.host.perform(line: setup)
    let before = try #require(TransactionFacts(0, in: app.viewedSession))
    #expect(app.host.perform(line: step).isApplied)
    return try #require(TransactionFacts(0, in: app.viewedSession)).changed(since: before)
  }

  @Test func aRefundChangesTheStateAndTheSignatureButNotTheDates() throws {
    let changed = try changes("buy socialfeed.monthly", then: "refund 0")
    #expect(changed.contains(.state) && changed.contains(.jws))
    #expect(!changed.contains(.dates) && !changed.contains(.product))
  }

  @Test func theClockMovingChangesNothingACountdownShows() throws {
    // Ten seconds on: the renewal's countdown moved, no value did.
    #expect(try changes("buy socialfeed.monthly", then: "advance 10s").isEmpty)
  }

  @Test func aTransactionThatIsNoMoreMarksNothing() {
    let app = makeApp()
    app.host.perform(line: "buy foodtruck.donuts.box")
    let before = TransactionFacts(0, in: app.viewedSession)
    #expect(app.host.perform(line: "undo").isApplied)
    #expect(app.session.transactionCount == 0)
    let changes = StepChanges(events: [], before: before, session: app.viewedSession)
    #expect(changes.labels.isEmpty)
  }
}

/// `storekeeper transactions` on a terminal: a table aligned in terminal cells.
@Suite struct TransactionListingTests {
  @Test func rowsAreAlignedDatedInUTCAndCounted() {
    let app = makeApp()
    app.host.perform(line: "buy socialfeed.monthly")
    app.host.perform(line: "buy foodtruck.donuts.box")
    let snapshot = app.session.ledgerSnapshot()
    let text = TransactionListing.render(
      rows: (0..<snapshot.count).map(snapshot.row), catalog: snapshot.catalog)
    let lines = text.split(separator: "\n")
    #expect(lines.first?.hasPrefix("ID  Product") == true)
    #expect(
      lines.contains { $0.contains("socialfeed.monthly") && $0.contains("2026-11-22 02:00:00") })
    #expect(lines.last == "2 transactions")
    #expect(text.contains("unfinished"))
  }
}
