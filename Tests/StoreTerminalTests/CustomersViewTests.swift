import StoreCommands
import StoreSimulation
import Testing

@testable import StoreTerminal

/// The customers view (`c`): every customer listed with their status, sorted by any column,
/// filtered as typed; Enter opens one and the panes follow them; `c` and Esc come back to the
/// list where it was; it fits 80×24 and 120×40.
@Suite struct CustomersViewTests {
  /// An app with three customers: alice subscribed, bob refunded (revoked), carol in billing
  /// retry, and the session's own one who bought nothing.
  func appWithCustomers() -> App {
    var app = makeApp()
    for line in [
      "customer alice", "buy socialfeed.monthly", "customer bob", "buy socialfeed.yearly",
      "refund last", "customer carol", "set storefront JPN", "set billing-retry on",
      "buy socialfeed.premium.monthly", "advance next", "customer",
    ] {
      app.perform(line: line)
    }
    return app
  }

  func customersView(_ app: App) -> CustomersView? {
    if case .customers(let view)? = app.state.overlay { return view }
    return nil
  }

  @Test func cListsEveryCustomerWithTheirStatusInStoreKitsWords() throws {
    var app = appWithCustomers()
    app.press(.character("c"))
    let view = try #require(customersView(app))
    #expect(
      view.rows.map { $0.customer.name } == ["alice", "bob", "carol"], "the own one bought nothing")
    let statuses = Dictionary(
      uniqueKeysWithValues: view.rows.map { ($0.customer.name!, $0.statusName) })
    #expect(statuses["alice"] == "subscribed")
    #expect(statuses["bob"] == "revoked")
    #expect(statuses["carol"] == "inBillingRetryPeriod")
    #expect(view.rows.first { $0.customer.name == "carol" }?.storefront.countryCode == "JPN")
    let screen = app.screen(width: 120, height: 40)
    #expect(screen.contains("3 customers"), "\(screen)")
    #expect(screen.contains("1 in retry"))
    #expect(screen.contains("inBillingRetryPeriod"))
    #expect(screen.contains("subscribers at month ends"))
  }

  @Test func aNumberSortsByItsColumnAndAgainReverses() throws {
    var app = appWithCustomers()
    app.press(.character("c"), .character("4"))
    let sorted = ["inBillingRetryPeriod", "revoked", "subscribed"]
    #expect(customersView(app)?.rows.map(\.statusName) == sorted)
    app.press(.character("4"))
    #expect(customersView(app)?.rows.map(\.statusName) == sorted.reversed())
    app.press(.character("1"))
    #expect(customersView(app)?.rows.map { $0.customer.name } == ["alice", "bob", "carol"])
  }

  @Test func theFilterNarrowsByStatusProductAndStorefront() throws {
    var app = appWithCustomers()
    app.press(.character("c"), .character("/"))
    app.type("status:inbill")
    #expect(customersView(app)?.rows.map { $0.customer.name } == ["carol"])
    app.press(.enter)
    #expect(customersView(app)?.isFiltering == false)
    app.press(.character("/"), .escape)
    #expect(customersView(app)?.rows.count == 3, "Esc clears the filter")
    app.press(.character("/"))
    app.type("storefront:jpn")
    #expect(customersView(app)?.rows.map { $0.customer.name } == ["carol"])
    app.press(.escape, .character("/"))
    app.type("!product:yearly")
    #expect(customersView(app)?.rows.map { $0.customer.name } == ["alice", "carol"])
    app.press(.escape, .character("/"))
    app.type("status:happy")
    #expect(app.screen().contains("unknown status \"happy\""))
  }

  /// The filter is incremental (a key typed on looks only at who the last one kept): typing a
  /// filter a key at a time, erasing and typing again, keeps whom the whole filter keeps.
  @Test func aFilterTypedKeyByKeyKeepsWhomTheWholeFilterKeeps() throws {
    var app = appWithCustomers()
    app.press(.character("c"), .character("/"))
    var typed = ""
    for (text, expected) in [
      ("s", ["alice", "bob", "carol"]), ("status:in", ["carol"]), ("sta", []),
      ("status:sub", ["alice"]), ("status:sub !name:a", []), ("status:sub", ["alice"]),
      ("status:r,i", ["bob", "carol"]), ("status:r,i n", ["carol"]),
      ("", ["alice", "bob", "carol"]),
    ] {
      // Erase back to what the two share, then type the rest, a key at a time.
      let shared = typed.commonPrefix(with: text)
      for _ in 0..<(typed.count - shared.count) { app.press(.backspace) }
      app.type(String(text.dropFirst(shared.count)))
      typed = text
      #expect(customersView(app)?.filter.text == text)
      #expect(customersView(app)?.rows.map { $0.customer.name ?? "" } == expected, "\(text)")
      var fresh = appWithCustomers()
      fresh.press(.character("c"), .character("/"))
      fresh.type(text)
      #expect(customersView(fresh)?.rows == customersView(app)?.rows, "\(text)")
    }
  }

  /// A journal of many customers (a population's) opens on the customers view, not on
  /// whichever customer it acted for last; the chart's "now" is the overview's subscribers.
  @Test func aSessionOfManyCustomersOpensOnTheCustomersView() throws {
    let app = appWithCustomers()
    var session = app.session
    try session.perform(.selectCustomer(name: "carol", number: nil)) { _ in }
    let reopened = App(
      journaled: JournaledSession(session: session, journal: nil),
      configurationPath: app.state.configurationPath, configurationBytes: [],
      display: DisplayOptions(color: true, glyphs: .unicode),
      clock: ClockState(running: false, offset: 0))
    let view = try #require(customersView(reopened), "opens on the customers view")
    #expect(view.rows.count == 3)
    #expect(reopened.state.message?.text.contains("Esc shows customer carol's store") == true)
    let screen = reopened.screen(width: 120, height: 40)
    #expect(screen.contains("\(view.overview.subscribers) subscribers"))
    #expect(!screen.contains("no month has ended") || screen.contains("subscribers"))
    var single = makeApp()
    single.perform(line: "customer alice")
    single.perform(line: "buy socialfeed.monthly")
    let one = App(
      journaled: JournaledSession(session: single.session, journal: nil),
      configurationPath: single.state.configurationPath, configurationBytes: [],
      display: DisplayOptions(color: true, glyphs: .unicode),
      clock: ClockState(running: false, offset: 0))
    #expect(customersView(one) == nil, "one named customer (an import): their store")
    #expect(one.state.message?.text == "showing customer alice's store (c lists the customers)")
  }

  /// Revenue is sorted by currency, then amount: a yen is never compared with a dollar.
  @Test func revenueSortsByCurrencyThenAmount() throws {
    var app = appWithCustomers()
    app.press(.character("c"), .character("7"))
    let revenue = try #require(customersView(app)).rows.map { $0.revenue.keys.min() ?? "" }
    #expect(revenue == revenue.sorted(), "\(revenue)")
    #expect(app.screen(width: 120, height: 40).contains("USD"))
  }

  @Test func enterOpensTheCustomerAndEscComesBackToTheListWhereItWas() throws {
    var app = appWithCustomers()
    app.press(.character("c"), .down, .down, .enter)
    #expect(app.state.overlay == nil)
    #expect(app.session.customer.name == "carol")
    #expect(app.screen().contains("Transactions of carol"))
    app.press(.escape)
    #expect(customersView(app)?.selectedCustomer?.customer.name == "carol")
    app.press(.up, .enter)
    #expect(app.session.customer.name == "bob")
    app.press(.character("c"))
    #expect(customersView(app)?.selectedCustomer?.customer.name == "bob")
    app.press(.character("?"))
    #expect(app.screen().contains("Help · customers"))
    app.press(.escape)
    #expect(customersView(app) != nil, "closing the help goes back to the list")
    app.press(.escape)
    #expect(app.state.overlay == nil)
  }

  @Test func theViewFitsEightyByTwentyFour() throws {
    var app = appWithCustomers()
    app.press(.character("c"))
    let screen = app.screen(width: 80, height: 24)
    let lines = screen.split(separator: "\n", omittingEmptySubsequences: false)
    #expect(lines.contains { $0.contains("3 customers · ") && $0.contains("churned") }, "\(screen)")
    for name in ["alice", "bob", "carol", "inBillingRetryPeriod", "revoked", "JPN", "Enter open"] {
      #expect(screen.contains(name), "\(name) in\n\(screen)")
    }
    // Eight columns do not fit 80 cells with a 26-letter product beside inBillingRetryPeriod:
    // the transactions' count goes, the product is cut last.
    #expect(screen.contains("socialfeed.premi"), "\(screen)")
    #expect(screen.contains("2026-11-22   0"), "the date and the renewals whole\n\(screen)")
    let wide = app.screen(width: 120, height: 40)
    #expect(wide.contains("socialfeed.premium.monthly inBillingRetryPeriod 2026-11-22 02:00:30"))
  }

  @Test func aSessionWithOnlyItsOwnCustomerSaysHowToMakeOne() {
    var app = makeApp()
    app.press(.character("c"))
    #expect(app.state.overlay == nil)
    #expect(app.screen(width: 120).contains("the session has only its own customer"))
  }
}

/// Every customer's transactions at once (`t` in the customers view).
@Suite struct EveryTransactionViewTests {
  let customers = CustomersViewTests()

  func everyView(_ app: App) -> EveryTransactionView? {
    if case .everyTransaction(let view)? = app.state.overlay { return view }
    return nil
  }

  @Test func tListsEveryCustomersTransactionsNewestFirstWithWhoseTheyAre() throws {
    var app = customers.appWithCustomers()
    app.press(.character("c"), .character("t"))
    let view = try #require(everyView(app))
    let all = view.page(from: 0, count: 100)
    #expect(all.count == view.shownCount)
    #expect(Set(all.map { $0.customer.name }) == ["alice", "bob", "carol"])
    #expect(all.map(\.row.purchaseDate) == all.map(\.row.purchaseDate).sorted(by: >))
    let screen = app.screen(width: 120, height: 40)
    #expect(screen.contains("Transactions of every customer"))
    #expect(screen.contains("Customer") && screen.contains("carol"))
    app.press(.character("/"))
    app.type("customer:bob")
    #expect(everyView(app)?.page(from: 0, count: 10).map { $0.customer.name } == ["bob"])
    app.press(.enter)
    app.press(.character("/"), .escape)
    app.press(.character("/"))
    app.type("state:retry")
    let retry = try #require(everyView(app)?.selectedRow)
    #expect(retry.customer.name == "carol")
    app.press(.enter, .enter)
    #expect(app.session.customer.name == "carol")
    #expect(app.state.table.selectedID == retry.row.id, "the transaction is selected")
    app.press(.character("c"), .character("t"), .escape)
    #expect(customers.customersView(app) != nil, "Esc goes back to the customers")
    app.press(.character("t"), .character("/"))
    app.type("customer:zed")
    #expect(app.screen(width: 120).contains("customer:zed: no such customer"))
  }
}
