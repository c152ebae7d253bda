import StoreCommands
import StoreConfiguration
import StoreSimulation
import Testing

@testable import StoreTerminal

/// The table updated event by event against the table rebuilt from the session.
@Suite struct TransactionTableTests {
  /// Commands of every kind that change rows: purchases, renewals, refunds, finishing,
  /// failures, Ask to Buy, deletion.
  static let script = [
    "set time-rate oneRenewalEveryTwoSeconds", "buy socialfeed.monthly", "advance 7s",
    "buy foodtruck.donuts.box", "set ask-to-buy on", "buy foodtruck.saleshistory",
    "set ask-to-buy off", "approve last", "advance next", "refund 1", "finish 0",
    "set billing-retry on", "set grace-period on", "advance next", "advance next",
    "resolve last", "buy foodtruck.donuts.box quantity=3", "finish last", "advance 9s",
    "set interrupted-purchases on", "buy foodtruck.donuts.box", "resolve last",
    "set interrupted-purchases off", "delete 2", "buy socialfeed.premium.monthly", "advance next",
    "expire socialfeed.premium.monthly",
  ]

  @Test(arguments: ["", "product:socialfeed", "state:renewed,refunded", "type:consumable"])
  func updatingRowByRowGivesTheSameTableAsRebuilding(_ filter: String) {
    var app = makeApp()
    if !filter.isEmpty {
      app.press(.character("/"))
      app.type(filter)
      app.press(.enter)
    }
    for line in Self.script {
      app.perform(line: line)
      #expect(app.message?.isError != true, "\(line): \(app.message?.text ?? "")")
      var rebuilt = TransactionTable(app.viewedSession)
      rebuilt.applyFilter(filter, session: app.viewedSession)
      #expect(Array(app.table.rows) == Array(rebuilt.rows), "\(line)")
      #expect(Array(app.table.visible) == Array(rebuilt.visible), "\(line)")
      #expect(app.table.pendingCounts == rebuilt.pendingCounts, "\(line)")
      #expect(app.table.entitledProducts == rebuilt.entitledProducts, "\(line)")
    }
    #expect(app.table.rows.count > 10)
  }
}

/// The table follows the live clock as a log viewer does: while the newest row is selected, new
/// rows keep it selected (and in view); a row chosen further down stays chosen.
@Suite struct TableFollowingTests {
  @Test func theNewestRowStaysSelectedAsRenewalsArrive() {
    var app = makeApp()
    app.perform(line: "set time-rate monthlyRenewalEveryThirtySeconds")
    app.perform(line: "buy socialfeed.monthly")
    app.perform(line: "advance 10m")
    #expect(app.table.rows.count > 15)
    #expect(app.table.selectedIndex == 0)
    #expect(app.table.selectedID == app.table.rows.last?.id, "the newest renewal")
    #expect(app.table.followsNewest)
  }

  @Test func aRowChosenFurtherDownStaysChosenUntilTheNewestIsChosenAgain() {
    var app = makeApp()
    app.perform(line: "set time-rate monthlyRenewalEveryThirtySeconds")
    app.perform(line: "buy socialfeed.monthly")
    app.perform(line: "advance 2m")
    app.press(.tab)  // the table
    app.press(.character("j"))
    app.press(.character("j"))
    #expect(app.table.selectedIndex == 2)
    let chosen = app.table.selectedID
    app.perform(line: "advance 2m")
    #expect(app.table.selectedID == chosen && !app.table.followsNewest)
    #expect(app.table.selectedIndex == 6, "four renewals came above it")
    app.press(.character("g"))  // the newest again
    app.perform(line: "advance 1m")
    #expect(app.table.selectedIndex == 0 && app.table.selectedID == app.table.rows.last?.id)
  }
}

/// A step back reads again only the rows that may differ; the table is the one a full reading
/// makes.
@Suite struct StepBackTableTests {
  @Test func steppingBackThroughAScriptGivesTheTableARebuildGives() {
    var app = makeApp()
    for line in TransactionTableTests.script { app.perform(line: line) }
    app.press(.tab)
    for _ in 0..<40 {
      app.press(.character("N"))
      let rebuilt = TransactionTable(app.viewedSession)
      #expect(Array(app.table.rows) == Array(rebuilt.rows))
      #expect(Array(app.table.visible) == Array(rebuilt.visible))
      #expect(app.table.pendingCounts == rebuilt.pendingCounts)
      #expect(app.table.entitledProducts == rebuilt.entitledProducts)
    }
  }

  /// The rows a step back changed are marked, whichever way the table was brought in line (a
  /// transaction `delete` took from the middle comes back: every row is read again then).
  @Test func aStepBackMarksEveryRowItChangedAndNoOther() {
    var app = makeApp()
    for line in TransactionTableTests.script { app.perform(line: line) }
    app.press(.tab)
    for _ in 0..<200 {
      let before = Dictionary(uniqueKeysWithValues: app.table.rows.map { ($0.id, $0) })
      app.press(.character("N"))
      let differing = Set(
        app.table.rows.filter { row in before[row.id].map { $0 != row } ?? false }.map(\.id))
      let marked = app.state.changes?.ids ?? []
      #expect(differing.isSubset(of: marked), "unmarked: \(differing.subtracting(marked))")
      let new = Set(app.table.rows.map(\.id)).subtracting(before.keys)
      #expect(marked.isSubset(of: differing.union(new)), "marked unchanged: \(marked)")
    }
  }
}

/// At 80 columns what matters stays: the filter's count (its text gives way, ending in an
/// ellipsis), and a named customer's purchase dates beside their long ids.
@Suite struct NarrowTableTests {
  @Test func theFiltersCountShowsWhateverTheFiltersLength() throws {
    var app = makeApp()
    app.perform(line: "customer alexandra-the-great")
    app.perform(line: "buy socialfeed.monthly")
    app.press(.tab, .character("/"))
    app.type("product:socialfeed.monthly state:purchased,renewed after:2026-01-01")
    app.press(.enter)
    let screen = app.screen(width: 80, height: 24)
    let title = try #require(screen.split(separator: "\n").first { $0.contains("Transactions") })
    #expect(title.contains("(1 of 1)"), "\(title)")
    #expect(title.contains("…"), "the filter's text ends in an ellipsis: \(title)")
  }

  @Test func aNamedCustomersPurchaseDateFitsBesideTheirLongIDs() throws {
    var app = makeApp()
    app.perform(line: "customer alice")
    app.perform(line: "buy socialfeed.monthly date=2025-12-01T10:00:00Z")
    let screen = app.screen(width: 80, height: 24)
    #expect(screen.contains("Purchased"), "\(screen)")
    #expect(screen.contains("2025-12-01"), "\(screen)")
  }
}
