import Foundation
import StoreCommands
import StoreConfiguration
import StoreJSON
import StoreSimulation
import StoreTestSupport
import Testing

@testable import StoreTerminal

@Suite struct AppTests {
  @Test func noKeyMeansTwoThingsInOnePane() {
    for pane in Pane.allCases {
      var seen: [Key: Action] = [:]
      for binding in Keymap.bindings(for: pane) {
        for key in binding.keys {
          if let earlier = seen[key], binding.pane == nil {
            let own = Keymap.bindings.first { $0.pane == pane && $0.keys.contains(key) }
            #expect(own == nil, "\(key) is \(earlier) and \(binding.action) in \(pane)")
          }
          seen[key] = seen[key] ?? binding.action
        }
      }
    }
    for fixed: Key in [
      .character("?"), .character("/"), .character(":"), .tab, .character("q"), .escape,
      .character(" "), .character("n"), .up, .down,
    ] {
      #expect(Keymap.bindings.filter { $0.pane == nil && $0.keys.contains(fixed) }.count == 1)
      #expect(!Keymap.bindings.contains { $0.pane != nil && $0.keys.contains(fixed) })
    }
  }

  @Test func theFirstScreenShowsProductsGroupedWithPrices() {
    let screen = makeApp().screen(width: 100, height: 30)
    #expect(screen.contains("┌ ▸ Products"), "focused, and marked so without color")
    #expect(screen.contains("Consumables"))
    #expect(screen.contains("Social Feed+"))
    #expect(screen.contains("L2 Social Feed+ Month… [IPC]"))
    #expect(screen.contains("$9.99"))
    #expect(screen.contains("No transactions yet"))
    #expect(screen.contains("■ 2026-11-22 02:00:00 UTC paused · monthly renewal every 30 seconds"))
  }

  @Test func buyingThroughTheDialogAddsATransaction() {
    var app = makeApp()
    #expect(app.focus == .products, "an empty session starts in Products")
    app.press(.down, .down, .down, .down, .character("b"))
    guard case .buy(let dialog)? = app.overlay else {
      Issue.record("no buy dialog")
      return
    }
    #expect(
      dialog.offers.map(\.label).contains { $0.hasPrefix("intro") && $0.hasSuffix("(eligible)") })
    app.press(.down, .right, .enter)
    #expect(app.session.transactionCount == 1)
    #expect(app.session.transaction(0)?.offer?.type == .introductory)
    #expect(app.screen().contains("socialfeed.monthly"))
  }

  @Test func thePromptRunsCommandsWithHistory() {
    var app = makeApp()
    app.press(.character(":"))
    app.type("buy foodtruck.donuts.box quantity=2")
    app.press(.enter)
    #expect(app.session.transaction(0)?.purchasedQuantity == 2)
    app.press(.character(":"))
    app.type("refund 7")
    app.press(.enter)
    #expect(app.message?.isError == true)
    #expect(app.message?.text == "refund 7: there is no transaction 7")
    app.press(.character(":"), .up, .up)
    guard case .prompt(let input)? = app.overlay else {
      Issue.record("no prompt")
      return
    }
    #expect(input.text == "buy foodtruck.donuts.box quantity=2")
  }

  @Test func promptCompletesVerbsAndProducts() {
    var app = makeApp()
    app.press(.character(":"))
    app.type("bu")
    app.press(.tab)
    app.type(" foodtruck.s")
    app.press(.tab)
    guard case .prompt(let input)? = app.overlay else { return }
    #expect(input.text == "buy foodtruck.saleshistory")
  }

  @Test func filteringIsLiveAndExplainsMistakes() {
    var app = makeApp()
    app.perform(line: "buy foodtruck.donuts.box")
    app.perform(line: "buy socialfeed.monthly")
    app.perform(line: "buy foodtruck.saleshistory")
    app.press(.character("/"))
    app.type("product:social")
    #expect(app.table.visible.count == 1)
    #expect(app.screen().contains("Transactions  product:social  (1 of 3)"))
    app.type(" stat:x")
    #expect(
      app.table.filterError
        == "unknown field \"stat:\"; the fields are product: state: type: offer: id: original: after: before: on: date: customer:"
    )
    #expect(app.screen().contains("⚠ unknown field"))
    for _ in 0..<7 { app.press(.backspace) }
    app.type("!id:1")
    #expect(app.table.visible.isEmpty)
    app.press(.escape, .escape)
    #expect(app.table.visible.count == 3)
  }

  @Test func filterCompletesProductIDs() {
    var app = makeApp()
    app.press(.character("/"))
    app.type("product:foodtruck.s")
    app.press(.tab)
    guard case .filter(let input)? = app.overlay else { return }
    #expect(input.input.text == "product:foodtruck.saleshistory")
  }

  @Test func theSelectionStaysPutWhileRowsArrive() throws {
    var app = makeApp()
    app.perform(line: "buy socialfeed.monthly")
    app.perform(line: "buy foodtruck.saleshistory")
    app.press(.tab, .down)
    #expect(app.table.selectedID == 0)
    app.perform(line: "advance 95s")
    #expect(app.table.selectedID == 0)
    #expect(app.table.rows.count == 5)
  }

  @Test func actionsTheStateForbidsAreExplained() {
    var app = makeApp()
    app.perform(line: "buy foodtruck.saleshistory")
    app.press(.tab, .character("a"))
    #expect(app.message?.text == "transaction 0 is not awaiting approval (it is purchased)")
    app.press(.character("R"), .character("d"))
    #expect(app.session.transaction(0)?.revocationReason == .developerIssue)
    app.press(.character("R"), .character("o"))
    #expect(app.message?.text == "refund 0 reason=other: transaction 0 is already refunded")
    app.press(.character("x"), .character("y"))
    #expect(app.session.transactionCount == 0)
  }

  @Test func steppingThroughBillingRetryByKeyboard() {
    var app = makeApp()
    app.perform(line: "set billing-retry on")
    app.perform(line: "set grace-period on")
    app.perform(line: "buy socialfeed.premium.monthly")
    app.press(.tab, .character("n"))
    #expect(app.table.rows.last?.state == .grace)
    #expect(app.screen().contains("in grace until"))
    app.press(.character("n"))
    #expect(app.table.rows.last?.state == .retry)
    app.press(.character("r"))
    #expect(app.table.rows.last?.state == .renewed)
  }

  @Test func theInspectorShowsUpcomingRenewals() {
    var app = makeApp()
    app.perform(line: "buy socialfeed.monthly")
    app.perform(line: "buy socialfeed.monthly offer=code:\"Free Month\" from=store")
    app.press(.tab)
    let screen = app.screen(width: 140, height: 40)
    #expect(
      screen.contains(
        "Upcoming      intro ×2 at $0.99 · code \"Free Month\" ×1 at $0.00 · then socialfeed.monthly at $9.99 every 30 s, indefinitely"
      ))
    app.press(.enter)
    #expect(app.screen(width: 140, height: 60).contains("offerPaymentMode: payAsYouGo"))
  }

  @Test func settingsToggleSessionSwitchesAndWriteToTheFile() throws {
    let folder = FileManager.default.temporaryDirectory.appendingPathComponent(
      "tui-\(UUID().uuidString)")
    try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
    defer { try? FileManager.default.removeItem(at: folder) }
    let copy = folder.appendingPathComponent("FoodTruck.storekit")
    try FileManager.default.copyItem(
      at: packageRoot.appendingPathComponent("Configs/FoodTruck.storekit"), to: copy)
    let configuration = StoreKitConfiguration.load(contentsOf: copy.path).configuration!
    var app = App(
      journaled: JournaledSession(
        session: Session(configuration: configuration, start: start), journal: nil),
      configurationPath: copy.path, configurationBytes: configuration.xcodeFormattedBytes(),
      display: DisplayOptions(color: false, glyphs: .ascii),
      clock: ClockState(running: false, offset: 0))
    app.press(.character("s"), .enter)
    #expect(app.session.settings.askToBuyEnabled)
    app.press(.character("w"))
    let written = StoreKitConfiguration.load(contentsOf: copy.path)
    #expect(written.configuration?.settings?.askToBuyEnabled == true)
    #expect(written.diagnostics.isEmpty)
  }

  @Test func aChangedFileReloadsAndABrokenOneKeepsTheCatalog() {
    var app = makeApp()
    var configuration = app.session.configuration
    configuration.products?.removeAll { $0.productID == "foodtruck.donuts.box" }
    app.configurationFileChanged(to: configuration.xcodeFormattedBytes())
    #expect(!app.screen().contains("Box of Donuts"))
    app.configurationFileChanged(to: Array("{ broken".utf8))
    #expect(app.message?.isError == true)
    #expect(app.screen().contains("Sales History"))
  }

  @Test func aJapaneseCatalogShowsLocalizedNamesAndYen() {
    let app = makeApp("Everything")
    let screen = app.screen(width: 110, height: 30)
    #expect(screen.contains("コイン100枚"))
    #expect(screen.contains("¥160"))
    #expect(screen.contains("エブリシング Pro"))
  }

  @Test func textFromTheConfigurationCannotEscapeIntoTheTerminal() {
    let app = makeApp { configuration in
      configuration.products?[0].localizations = [
        Localization(locale: "en_US", displayName: "Evil\u{1B}]0;x\u{7}", description: "")
      ]
    }
    let canvas = app.render(width: 100, height: 30, wall: start)
    #expect(
      !canvas.cells.contains {
        $0.text.unicodeScalars.contains { $0.value < 0x20 || (0x7F...0x9F).contains($0.value) }
      })
  }

  @Test func tooSmallTerminalsSaySo() {
    let screen = makeApp().screen(width: 30, height: 8)
    #expect(screen == "Terminal too small: 30×8.\nStorekeeper needs\nat least 40×12.\n\n\n\n\n")
  }

  @Test func stackedPanesAt60Columns() {
    let screen = makeApp().screen(width: 60, height: 30)
    let lines = screen.split(separator: "\n")
    #expect(lines[0].hasPrefix("┌ ▸ Products"))
    #expect(lines.contains { $0.hasPrefix("┌ Transactions") })
  }

  @Test func theHelpOverlayListsThePanesKeys() {
    var app = makeApp()
    app.press(.tab, .character("?"))
    let screen = app.screen(width: 100, height: 40)
    #expect(screen.contains("Help · Transactions"))
    #expect(screen.contains("approve Ask to Buy"))
    app.press(.escape)
    #expect(app.overlay == nil)
  }

  @Test func theRunningClockAdvancesWithTheWallClockAndSleepsUntilTheNextEvent() {
    var app = makeApp(clock: ClockState(running: true, offset: 0))
    app.perform(line: "buy socialfeed.premium.monthly")
    #expect(app.sleepMilliseconds(wall: start.adding(milliseconds: 250)) == 750)
    app.tick(wall: start.adding(milliseconds: 31_000))
    #expect(app.table.rows.count == 2)
    #expect(app.sleepMilliseconds(wall: start.adding(milliseconds: 59_500)) == 500)
  }
}

@Suite struct BuyDialogTests {
  @Test func aBackDatedPurchaseRenewsUntilNowOrOnce() {
    var app = makeApp()
    app.perform(line: "advance 1d")
    app.press(.down, .down, .down, .down, .down, .character("b"))
    app.press(.down, .down, .down, .right, .right)
    #expect(app.screen(width: 120, height: 40).contains("▸ Date     1 day ago"))
    app.press(.enter)
    #expect(app.session.transactionCount > 100)
    var other = makeApp()
    other.perform(line: "advance 1d")
    other.press(.down, .down, .down, .down, .down, .character("b"))
    other.press(.down, .down, .down, .right, .right, .down, .right, .enter)
    #expect(other.session.transactionCount == 1)
    #expect(other.session.subscriptionStatuses().first?.state == .expired)
  }
}

@Suite struct InspectorHooksTests {
  /// Hears the host as the notification sender does, and says what it sent.
  final class Listener: CommandObserver {
    var seen: [StoreEvent] = []
    var lines: [NotificationLine] = []
    func stream(_ events: ArraySlice<StoreEvent>) { seen += events }
    func finished(_ outcome: CommandOutcome, session: Session) {
      guard let first = seen.first else { return }
      lines.append(
        NotificationLine(
          time: first.time, text: "notification SUBSCRIBED-INITIAL_BUY", isFailure: false))
      lines.append(
        NotificationLine(
          text: "POST SUBSCRIBED-INITIAL_BUY failed: HTTP 500 after 5 attempts", isFailure: true))
    }
  }

  @Test func eventsReachTheHostsObserversAndTheirLinesTheLog() {
    var app = makeApp()
    let listener = Listener()
    app.host.attach(listener)
    app.hooks.deliveryLines = {
      defer { listener.lines = [] }
      return listener.lines
    }
    app.perform(line: "buy socialfeed.monthly")
    #expect(listener.seen.contains { if case .status = $0.kind { true } else { false } })
    #expect(app.message?.isError == true)
    app.press(.character("v"))
    let screen = app.screen(width: 160, height: 30)
    #expect(screen.contains("02:00:00 notification SUBSCRIBED-INITIAL_BUY"))
    #expect(screen.contains("POST SUBSCRIBED-INITIAL_BUY failed: HTTP 500"))
  }

  @Test func theZoomedInspectorDecodesTheJWSAndWrapsTheRawForm() {
    var app = makeApp()
    // {"alg":"ES256"} . {"transactionId":"0"} . signature
    let form = InspectorHooks.SignedForm(
      raw: "eyJhbGciOiJFUzI1NiJ9.eyJ0cmFuc2FjdGlvbklkIjoiMCJ9."
        + String(repeating: "A", count: 200),
      header: JSONObject([JSONMember("alg", .string("ES256"))]),
      payload: JSONObject([JSONMember("transactionId", .string("0"))]))
    app.hooks.sign = { subject, _ in
      if case .transaction = subject { form } else { nil }
    }
    app.perform(line: "buy socialfeed.monthly")
    app.press(.tab)
    #expect(app.screen().contains("JWS            eyJhbGciOiJFUzI1NiJ9"))
    app.press(.enter)
    for _ in 0..<30 { app.press(.down) }
    let screen = app.screen(width: 100, height: 30)
    #expect(screen.contains(#"header         {"alg":"ES256"}"#))
    #expect(screen.contains("payload        transactionId: 0"))
    #expect(screen.contains(String(repeating: "A", count: 60)))
  }
}

@Suite struct RefundMenuTests {
  @Test func theRefundMenuAsksDeclinesRefundsInPartAndReverses() {
    var app = makeApp()
    app.perform(line: "buy socialfeed.monthly")
    app.press(.tab, .character("R"))
    #expect(app.screen().contains("the customer asks Apple (CONSUMPTION_REQUEST)"))
    app.press(.character("a"))
    #expect(app.session.transaction(0)?.hasRefundRequest == true)
    #expect(app.session.subscriptionStatuses().first?.renewalInfo.willAutoRenew == false)
    #expect(
      app.screen(width: 140, height: 40).contains("refund requested, awaiting Apple's decision"))
    app.press(.character("R"), .character("n"))
    #expect(app.session.transaction(0)?.hasRefundRequest == false)
    app.press(.character("R"), .character("h"))
    #expect(app.session.transaction(0)?.revocationPercentage == 50_000)
    #expect(app.screen(width: 140, height: 40).contains("refunded 50%"))
    app.press(.character("R"), .character("v"))
    #expect(app.session.transaction(0)?.revocationDate == nil)
    #expect(app.session.subscriptionStatuses().first?.state == .subscribed)
  }

  @Test func extendingMovesTheRenewalDate() {
    var app = makeApp()
    app.perform(line: "buy socialfeed.premium.monthly")
    app.press(.tab)
    let before = app.session.subscriptionStatuses().first?.renewalInfo.renewalDate
    app.press(.character("E"), .character("7"))
    let after = app.session.subscriptionStatuses().first?.renewalInfo.renewalDate
    #expect(before != nil && after != nil && after! > before!)
    #expect(app.message?.text == "extend 0 days=7 done")
  }
}
