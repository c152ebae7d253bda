import StoreCommands
import StoreConfiguration
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
    #expect(app.message?.text == ".success: purchased foodtruck.donuts.box, transaction 0")
    app.perform(line: "set ask-to-buy on")
    app.perform(line: "buy foodtruck.saleshistory")
    #expect(
      app.message?.text
        == ".pending: Ask to Buy — a approves, D declines (transaction 1, foodtruck.saleshistory)")
    app.perform(line: "set ask-to-buy off")
    app.perform(line: "set interrupted-purchases on")
    app.perform(line: "buy socialfeed.monthly")
    #expect(app.message?.text.hasPrefix(".pending: interrupted — r resolves it") == true)
    app.perform(line: "set interrupted-purchases off")
    app.perform(line: "set error purchase userCancelled")
    app.perform(line: "buy foodtruck.donuts.box")
    #expect(app.message?.text == ".userCancelled: the customer cancelled (foodtruck.donuts.box)")
    app.perform(line: "set error purchase off")
    app.perform(line: "set fail-transactions paymentNotAllowed")
    app.perform(line: "buy foodtruck.donuts.box")
    #expect(app.message?.text.hasPrefix("threw StoreKitError.unknown") == true)
    #expect(app.message?.text.contains("bought") == false)
  }

  /// What happened comes first, so an 80-column status line (the clock before it) keeps it
  /// whatever the product's name.
  @Test(arguments: [
    ("set ask-to-buy on", ".pending: Ask to Buy"),
    ("set interrupted-purchases on", ".pending: interrupted — r resolves it"),
    ("set error purchase userCancelled", ".userCancelled: the customer cancelled"),
    ("set fail-transactions paymentNotAllowed", "threw StoreKitError.unknown"),
    ("reset", ".success: purchased"),
  ])
  func everyPurchaseOutcomeKeepsItsKeyWordsAt80Columns(setting: String, words: String) {
    var app = makeApp()
    app.perform(line: setting)
    app.perform(line: "buy socialfeed.premium.monthly")
    // A message too long for one row takes the key bar's row too: nothing is cut.
    let lines = app.screen(width: 80, height: 24).split(separator: "\n")
    let statusLine = lines.suffix(2).joined(separator: " ")
    #expect(statusLine.contains(words), "\(statusLine)")
    #expect(statusLine.contains("socialfeed.premium.monthly"), "the whole message shows")
  }
}

/// Help that scrolls and searches, the filter line's Esc and history, completions shown in
/// the prompt line, the log like every list.
@Suite struct FindingYourWayTests {
  @Test func helpScrollsAndNarrowsAsYouType() {
    var app = makeApp()
    app.press(.tab, .character("?"))
    guard case .help(let help)? = app.overlay else {
      Issue.record("no help")
      return
    }
    let count = help.lines(app.state, app.viewedSession).count
    #expect(count > 30, "every key of the pane and the global ones")
    let first = app.screen(width: 80, height: 24)
    #expect(first.contains("Help · Transactions"))
    #expect(first.contains("of \(count)"), "a cut list says where it is")
    #expect(first.contains("approve Ask to Buy"))
    for _ in 0..<60 { app.press(.down) }
    let last = app.screen(width: 80, height: 24)
    #expect(last.contains("zoom the inspector in or out"))
    #expect(last.contains("\(count) of \(count)"))
    #expect(!last.contains("approve Ask to Buy"))
    app.press(.home)
    app.type("log")
    let narrowed = app.screen(width: 80, height: 24)
    #expect(narrowed.contains("view or hide the event log"))
    #expect(!narrowed.contains("approve Ask to Buy"))
    app.press(.escape)
    if case .help? = app.overlay {} else { Issue.record("the first Esc clears the search") }
    app.press(.escape)
    #expect(app.overlay == nil)
  }

  @Test func theFilterLineRestoresOnEscRemembersAndExplainsItsSyntax() {
    var app = makeApp()
    for line in [
      "buy foodtruck.donuts.box", "buy socialfeed.monthly", "buy foodtruck.saleshistory",
    ] {
      app.perform(line: line)
    }
    app.press(.character("/"))
    app.type("product:food")
    app.press(.enter)
    #expect(app.table.visible.count == 2)
    #expect(app.screen(width: 120, height: 30).contains("product:food  (2 of 3)"))
    app.press(.character("/"), .backspace, .backspace, .backspace, .backspace)
    app.type("social")
    #expect(app.table.visible.count == 1)
    app.press(.escape)
    #expect(app.table.filter.text == "product:food", "Esc puts back the filter before")
    app.press(.escape)
    #expect(app.table.filter.isEmpty, "a second Esc clears it")
    app.press(.character("/"), .up)
    #expect(app.table.filter.text == "product:food", "↑ walks the filter history")
    app.press(.character("?"))
    let help = app.screen(width: 100, height: 30)
    #expect(help.contains("Help · filter"))
    #expect(help.contains("on:\"11-23 14:05\""))
    app.press(.escape)
    guard case .filter(let line)? = app.overlay else {
      Issue.record("closing the syntax goes back to the filter line")
      return
    }
    #expect(line.input.text == "product:food")
  }

  @Test func tabShowsTheCandidatesAndCompletesEveryField() {
    var app = makeApp()
    app.perform(line: "buy foodtruck.donuts.box")
    app.press(.character("/"))
    app.type("state:re")
    app.press(.tab)
    #expect(app.screen(width: 120, height: 30).contains("renewed  refunded  retry"))
    app.press(.backspace, .backspace, .backspace, .backspace, .backspace, .backspace)
    app.press(.backspace, .backspace)
    app.type("on:yes")
    app.press(.tab)
    guard case .filter(let line)? = app.overlay else { return }
    #expect(line.input.text == "on:yesterday")
    app.press(.escape, .character(":"))
    app.type("buy socialfeed.monthly offer=")
    app.press(.tab)
    #expect(app.screen(width: 160, height: 30).contains("code:\"Free Month\""))
    #expect(app.screen(width: 160, height: 30).contains("promo:socialfeed.monthly.loyalty"))
  }

  @Test(arguments: [
    ("buy foodtruck.sa", "buy foodtruck.saleshistory"),
    ("refund la", "refund last"),
    ("set ask", "set ask-to-buy"),
    ("set ask-to-buy o", "set ask-to-buy o"),
    ("set storefront FR", "set storefront FRA"),
    ("price-increase req", "price-increase request"),
    ("refund 0 reason=dev", "refund 0 reason=developerIssue"),
  ])
  func promptCompletionKnowsTheVerb(typed: String, completed: String) {
    var app = makeApp()
    app.perform(line: "buy foodtruck.donuts.box")
    app.press(.character(":"))
    app.type(typed)
    app.press(.tab)
    guard case .prompt(let input)? = app.overlay else { return }
    #expect(input.text == completed)
  }

  @Test func theLogScrollsBackAndSearchesAndTheWheelScrollsWhatIsUnderIt() {
    var app = makeApp()
    app.perform(line: "buy socialfeed.monthly")
    app.perform(line: "advance 5m")
    app.press(.character("v"), .backTab)
    #expect(app.focus == .log)
    let newest = app.screen(width: 120, height: 30)
    app.press(.pageUp)
    let older = app.screen(width: 120, height: 30)
    #expect(older != newest)
    #expect(older.contains("back; G newest"))
    app.press(.character("G"))
    #expect(app.screen(width: 120, height: 30) == newest)
    app.press(.character("/"))
    app.type("purchase()")
    app.press(.enter)
    let found = app.screen(width: 120, height: 30)
    #expect(found.contains("search: purchase()"))
    #expect(found.contains("purchase() socialfeed.monthly → success"))
    #expect(!found.contains("DID_RENEW") && !found.contains("transaction 3 "))
    // The wheel over the transaction table moves its selection, focus staying in the log.
    for _ in 0..<10 { app.press(.wheel(up: true, x: 60, y: 5)) }
    #expect(app.table.selectedIndex == 0)
    app.press(.wheel(up: false, x: 60, y: 5))
    #expect(app.table.selectedIndex == 3)
    app.press(.wheel(up: true, x: 60, y: 5))
    #expect(app.table.selectedIndex == 0)
    #expect(app.focus == .log)
  }

  @Test func clearAndResetAtThePromptAskFirst() {
    var app = makeApp()
    app.perform(line: "buy foodtruck.donuts.box")
    app.perform(line: "clear")
    #expect(app.session.transactionCount == 1)
    #expect(app.screen().contains("Clear the session"))
    app.press(.character("n"))
    #expect(app.session.transactionCount == 1)
    app.perform(line: "clear")
    app.press(.character("y"))
    #expect(app.session.transactionCount == 0)
  }
}

/// Dates with their zone and year, kept at 80 columns.
@Suite struct DatesTests {
  @Test func eightyColumnsKeepThePurchaseDateAndTheStatusBarNamesTheZone() {
    var app = makeApp()
    app.perform(line: "buy socialfeed.monthly")
    app.perform(line: "set ask-to-buy on")
    app.perform(line: "buy foodtruck.saleshistory")
    let screen = app.screen(width: 80, height: 24)
    #expect(screen.contains("Purchased"))
    #expect(screen.contains("11-22 02:00:00"))
    #expect(screen.contains("pending"))
    #expect(screen.contains("2026-11-22 02:00:00 UTC"))
    let wide = app.screen(width: 200, height: 50)
    #expect(wide.contains("Expires") && wide.contains("Type") && wide.contains("pending approval"))
  }

  @Test func aPurchaseFromAnotherYearShowsItsYear() {
    var app = makeApp()
    app.perform(line: "buy foodtruck.donuts.box date=2025-12-31T23:00:00Z")
    app.perform(line: "buy foodtruck.donuts.box")
    app.press(.tab)
    let screen = app.screen(width: 120, height: 30)
    #expect(screen.contains("2025-12-31 23:00"))
    #expect(screen.contains("11-22 02:00:00"))
    app.press(.end)
    #expect(app.screen(width: 120, height: 30).contains("purchased 2025-12-31 23:00:00"))
  }
}

@Suite struct PriceIncreaseInspectorTests {
  @Test func theInspectorShowsOldAndNewPriceConsentAndWhenItTakesEffect() {
    var app = makeApp()
    app.perform(line: "buy socialfeed.premium.monthly")
    app.perform(line: "price-increase request 0 price=16.49")
    app.press(.tab)
    var screen = app.screen(width: 160, height: 40)
    #expect(screen.contains("•Price increas $14.99 → $16.49"), "marked: the request added it")
    #expect(screen.contains("awaiting the customer's consent"))
    #expect(screen.contains("new price from the renewal 11-22 02:00:30"))
    #expect(screen.contains("period ends 11-22 02:00:30 (in 30 s): renews at the new price if"))
    #expect(!screen.contains("renews 11-22"), "no contradicting renewal while it waits")
    app.press(.character("p"), .character("c"))
    screen = app.screen(width: 160, height: 40)
    #expect(screen.contains("consented"))
    #expect(screen.contains("then socialfeed.premium.monthly at $16.49"))
  }
}

@Suite struct BuyDialogOfferTests {
  @Test func theDialogShowsTheIntroductoryOfferThatAppliesByItself() {
    var app = makeApp()
    app.perform(line: "buy socialfeed.monthly")
    app.perform(line: "expire socialfeed.monthly")
    app.press(.down, .down, .down, .down, .character("b"))
    let screen = app.screen(width: 160, height: 40)
    // Bought once already: no longer eligible, so the standard price.
    #expect(screen.contains("Offer    no offer: $9.99"), "\(screen)")
    var fresh = makeApp()
    fresh.press(.down, .down, .down, .down, .character("b"))
    let first = fresh.screen(width: 160, height: 40)
    #expect(first.contains("applied automatically; then $9.99"))
    #expect(first.contains("at $0.99"))
  }

  @Test func anOfferTooLongForEightyColumnsWrapsUnderItsLabel() {
    var app = makeApp()
    app.press(.down, .down, .down, .down, .character("b"))
    let lines = app.screen(width: 80, height: 24).split(separator: "\n").map(String.init)
    let offer = try? #require(lines.firstIndex { $0.contains("Offer    intro pay as you go") })
    guard let offer else { return }
    // The rest of the sentence is on the next row, under the text, not cut.
    let rest = lines[offer + 1]
    #expect(rest.contains("$9.99"), "\(lines[offer])\n\(rest)")
    #expect(lines.joined(separator: " ").contains("then"))
    #expect(lines.contains { $0.contains("From     the app") }, "the next field still shows")
    #expect(lines.allSatisfy { TextCells.width($0) <= 80 })
  }
}

@Suite struct SteppingMarksTests {
  @Test func nMarksTheRowsItTouchedAndTheInspectorLinesItChanged() {
    var app = makeApp()
    app.perform(line: "buy socialfeed.monthly")
    app.press(.tab, .character("n"))
    #expect(app.state.changes?.ids == [1], "the renewal and its status name transaction 1")
    // The table followed the newest row, the renewal; down to the purchase.
    #expect(app.table.selectedID == 1)
    app.press(.character("j"))
    let screen = app.screen(width: 140, height: 40)
    let lines = screen.split(separator: "\n")
    #expect(lines.contains { $0.contains("⚠•   1 socialfeed.monthly") })
    #expect(lines.contains { $0.contains("⚠    0 socialfeed.monthly") })
    // The renewal made transaction 0 a past period: its status line says so, marked.
    #expect(
      lines.contains { $0.contains("│•Status") && $0.contains("current period is transaction 1") })
    #expect(!lines.contains { $0.contains("•Product") }, "what did not change is not marked")
    // The next step marks only what it touches.
    app.perform(line: "buy foodtruck.donuts.box")
    #expect(app.state.changes?.ids == [2])
    #expect(!app.screen(width: 140, height: 40).contains("⚠•   1 socialfeed.monthly"))
  }
}

@Suite struct SteppingBackTests {
  @Test func nGoesForwardAndCapitalNGoesBackMarkingWhatChangedBack() {
    var app = makeApp()
    app.perform(line: "buy socialfeed.monthly")
    app.press(.tab, .character("n"), .character("n"))
    #expect(app.session.transactionCount == 3)
    app.press(.end)  // the purchase, transaction 0
    app.press(.character("N"))
    #expect(app.session.transactionCount == 2)
    // Back where the last n started from.
    #expect(app.session.now == start.adding(milliseconds: 30_000))
    #expect(app.message?.text.hasPrefix("stepped back before the last event") == true)
    #expect(app.clock.running == false)
    #expect(app.table.selectedID == 0, "the selection stays")
    let screen = app.screen(width: 140, height: 40)
    // Transaction 1 is the current period again: the inspector says so, marked.
    #expect(!screen.contains("   2 socialfeed.monthly"))
    #expect(screen.contains("•Status") && screen.contains("current period is transaction 1"))
    app.press(.character("N"), .character("N"))
    #expect(app.session.transactionCount == 0)
    app.press(.character("N"))
    #expect(app.message?.isError == true)
    #expect(app.message?.text.contains("start of the session") == true)
    app.perform(line: "buy foodtruck.donuts.box")
    app.perform(line: "undo")
    #expect(app.session.transactionCount == 0)
    #expect(app.message?.text.hasPrefix("stepped back before the last command") == true)
  }
}

/// Every line of the inspector comes from the one state: after a refund nothing says it renews.
@Suite struct InspectorConsistencyTests {
  @Test func aRefundedSubscriptionSaysNothingOfRenewing() {
    var app = makeApp()
    app.perform(line: "buy socialfeed.monthly")
    app.perform(line: "refund last")
    app.press(.tab)  // the table: the inspector shows the transaction
    let screen = app.screen(width: 160, height: 40)
    #expect(screen.contains("revoked"))
    #expect(!screen.contains("renews"), "\(screen)")
    app.press(.character("n"))
    #expect(app.message?.text.contains("nothing is scheduled") == true)
  }

  @Test func autoRenewOffSaysItExpiresAndAnExpiryThatItEnded() {
    var app = makeApp()
    app.perform(line: "buy socialfeed.monthly")
    app.perform(line: "auto-renew last off")
    app.press(.tab)
    var screen = app.screen(width: 160, height: 40)
    #expect(screen.contains("expires 11-22 02:00:30 (in 30 s) (auto-renew off)"), "\(screen)")
    #expect(!screen.contains("renews 11-22"))
    app.perform(line: "advance 31s")
    screen = app.screen(width: 160, height: 40)
    #expect(screen.contains("ended 11-22 02:00:30"), "\(screen)")
  }
}

/// The filter line opens with the filter in force selected: typing replaces it; a move edits it;
/// Ctrl-U clears it.
@Suite struct FilterLineEditingTests {
  @Test func typingReplacesTheFilterInForceAndCtrlUClearsTheLine() {
    var app = makeApp()
    app.perform(line: "buy foodtruck.donuts.box")
    app.press(.character("/"))
    app.type("product:food")
    app.press(.enter)
    #expect(app.table.filter.text == "product:food")
    app.press(.character("/"))
    app.type("today")
    app.press(.enter)
    #expect(app.table.filter.text == "today", "not product:foodtoday")
    app.press(.character("/"))
    app.press(.end)
    app.type(" type:consumable")
    app.press(.enter)
    #expect(app.table.filter.text == "today type:consumable", "a move first edits it")
    app.press(.character("/"))
    app.press(.killLine)
    app.press(.enter)
    #expect(app.table.filter.text.isEmpty)
  }
}

/// At 80×24 nothing a person needs is cut.
@Suite struct EightyColumnsTests {
  @Test func aNamedCustomersLongIDsLeaveRoomForThePurchaseDate() {
    var app = makeApp()
    app.perform(line: "customer alice")
    app.perform(line: "buy socialfeed.monthly")
    let screen = app.screen(width: 80, height: 24)
    #expect(screen.contains("Purchased"), "\(screen)")
    let id = String(app.table.rows[0].id)
    #expect(screen.contains("…" + id.suffix(7)), "the id's last digits")
  }

  @Test func theZoomedInspectorWrapsWhatDoesNotFit() {
    var app = makeApp()
    app.perform(line: "buy socialfeed.monthly")
    app.press(.tab, .enter)
    let screen = app.screen(width: 80, height: 24)
    let upcoming = try? #require(
      screen.split(separator: "\n").firstIndex { $0.contains("Upcoming") })
    #expect(!screen.split(separator: "\n").prefix(12).contains { $0.contains("…│") }, "\(screen)")
    #expect(upcoming != nil)
  }

  @Test func everySettingsLabelIsWhole() {
    var app = makeApp()
    app.press(.character("s"))
    let screen = app.screen(width: 80, height: 24)
    #expect(screen.contains("Error: Offer Code Redeem Sheet"), "\(screen)")
  }
}
