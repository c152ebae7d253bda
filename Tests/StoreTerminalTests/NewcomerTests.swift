import StoreCommands
import StoreSimulation
import Testing

@testable import StoreTerminal

/// The first minutes of someone who has not read the README: where the focus starts, how `b`
/// and the pane keys behave, and what a purchase is reported as.
@Suite struct NewcomerTests {
  @Test func anEmptySessionStartsInProductsAndBFromAnyPaneOpensTheBuyDialog() {
    var app = makeApp()
    #expect(app.focus == .products)
    app.press(.character("b"))
    guard case .buy(let first)? = app.overlay else {
      Issue.record("b in Products opened no buy dialog")
      return
    }
    app.press(.enter)
    #expect(app.session.transactionCount == 1)
    let bought = app.session.catalog.products[first.product].productID
    // In Transactions, b buys the selected transaction's product again.
    app.press(.tab)
    #expect(app.focus == .transactions)
    app.press(.character("b"))
    guard case .buy(let second)? = app.overlay else {
      Issue.record("b in Transactions opened no buy dialog")
      return
    }
    #expect(app.session.catalog.products[second.product].productID == bought)
    app.press(.escape, .character("l"), .character("b"))
    #expect(app.focus == .inspector)
    if case .buy? = app.overlay {} else { Issue.record("b in the Inspector opened no dialog") }
  }

  @Test func panesFollowTheScreenWithTabArrowsAndHL() {
    var app = makeApp()
    app.perform(line: "buy foodtruck.donuts.box")
    var seen: [Pane] = [app.focus]
    for key in [Key.tab, .tab, .tab] {
      app.press(key)
      seen.append(app.focus)
    }
    #expect(seen == [.products, .transactions, .inspector, .products])
    app.press(.right)
    #expect(app.focus == .transactions)
    app.press(.character("l"))
    #expect(app.focus == .inspector)
    app.press(.left, .character("h"))
    #expect(app.focus == .products)
    app.press(.character("v"))
    app.press(.backTab)
    #expect(app.focus == .log, "with the log shown it is the last pane")
  }

  @Test func aPurchaseIsReportedInStoreKitsWords() {
    var app = makeApp()
    app.perform(line: "buy foodtruck.donuts.box")
    #expect(app.message?.text == "purchased foodtruck.donuts.box: .success, transaction 0")
    app.perform(line: "set ask-to-buy on")
    app.perform(line: "buy foodtruck.saleshistory")
    #expect(
      app.message?.text
        == "foodtruck.saleshistory: .pending — Ask to Buy is waiting for approval (transaction 1); "
        + "a approves, D declines")
    app.perform(line: "set ask-to-buy off")
    app.perform(line: "set interrupted-purchases on")
    app.perform(line: "buy socialfeed.monthly")
    #expect(
      app.message?.text.hasPrefix("socialfeed.monthly: .pending — the purchase was interrupted")
        == true)
    app.perform(line: "set interrupted-purchases off")
    app.perform(line: "set error purchase userCancelled")
    app.perform(line: "buy foodtruck.donuts.box")
    #expect(
      app.message?.text
        == "foodtruck.donuts.box: .userCancelled — the customer cancelled the purchase")
    app.perform(line: "set error purchase off")
    app.perform(line: "set fail-transactions paymentNotAllowed")
    app.perform(line: "buy foodtruck.donuts.box")
    #expect(app.message?.text.hasPrefix("foodtruck.donuts.box: purchase() threw ") == true)
    #expect(app.message?.text.contains("bought") == false)
  }
}
