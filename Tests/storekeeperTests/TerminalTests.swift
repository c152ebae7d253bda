import Foundation
import StoreTestSupport
import Testing

/// The real binary in a real terminal (tmux): what a person does, and that the terminal comes
/// back sane on every way out.
@Suite(.serialized, .enabled(if: tmuxIsAvailable, "tmux is not installed"))
struct TerminalTests {
  static let start = ["--start", "2026-11-22T02:00:00Z", "--paused"]

  /// The shell after storekeeper printed its exit status and `stty -a` (wrapped over lines).
  func expectRestored(_ screen: String, status: String) {
    let joined = screen.replacingOccurrences(of: "\n", with: "")
    #expect(joined.contains("EXIT=\(status)"), "\(screen)")
    #expect(joined.contains("isig icanon iexten echo "), "the terminal was not restored: \(screen)")
  }

  @Test func buysThroughBAndThroughThePromptThenQuits() throws {
    let tmux = try TmuxSession(Self.start, width: 120)
    tmux.waitFor("Products")
    tmux.send("j", "j", "j", "j", "b")
    tmux.waitFor("Buy")
    tmux.send("Enter")
    var screen = tmux.waitFor("  0 socialfeed.monthly")
    #expect(screen.contains("purchased"))
    tmux.command("buy foodtruck.donuts.box quantity=3")
    // The status line is drawn last: waiting for it, the frame is whole.
    screen = tmux.waitFor("paused · .success: purchased foodtruck.donuts.box, transaction 1")
    #expect(screen.contains("  1 foodtruck.donuts.box"))
    tmux.send("Tab")
    screen = tmux.waitFor("2 unfinished")
    #expect(screen.contains("2 unfinished"))
    tmux.send("q")
    expectRestored(tmux.waitFor("STTY-DONE"), status: "0")
  }

  @Test(arguments: [(80, 24), (200, 50)])
  func aNewcomerStartsInProductsBuysWithBAndReadsTheOutcome(_ size: (Int, Int)) throws {
    let tmux = try TmuxSession(Self.start, width: size.0, height: size.1)
    tmux.waitFor("Products")
    tmux.send("b")
    tmux.waitFor("Buy")
    tmux.send("Enter")
    tmux.waitFor(".success")
    // b from the Transactions pane buys the selected transaction's product; Ask to Buy is
    // reported as StoreKit's .pending.
    tmux.send(":")
    tmux.type("set ask-to-buy on")
    tmux.send("Enter", "l", "b")
    tmux.waitFor("Buy")
    tmux.send("Enter")
    let screen = tmux.waitFor(".pending")
    #expect(screen.contains("Ask to"))
    tmux.send("q")
    expectRestored(tmux.waitFor("STTY-DONE"), status: "0")
  }

  @Test func mSwitchesToAFamilyMembersDeviceAndBack() throws {
    let tmux = try TmuxSession(Self.start, width: 120, height: 36)
    tmux.waitFor("Products")
    tmux.send("m")
    tmux.waitFor("nobody is in the family")
    tmux.command("family join Anna")
    tmux.command("buy foodtruck.saleshistory")
    tmux.waitFor("purchased foodtruck.saleshistory, transaction 0")
    tmux.send("m")
    var screen = tmux.waitFor("showing Anna's device")
    #expect(screen.contains("Transactions: Anna's device"))
    #expect(screen.contains("1000000000000 foodtruck.saleshistory"))
    #expect(!screen.contains("  0 foodtruck.saleshistory"), "the purchaser's is not hers")
    tmux.send("Tab")
    screen = tmux.waitFor("Anna, family shared by the purchaser")
    #expect(screen.contains("FAMILY_SHARED · appTransactionId 704000000000000002"))
    tmux.command("family leave Anna")
    screen = tmux.waitFor("revoked from Family Sharing")
    tmux.send("m")
    screen = tmux.waitFor("showing the purchaser's device")
    #expect(screen.contains("  0 foodtruck.saleshistory"))
    #expect(!screen.contains("1000000000000"))
    tmux.send("q")
    expectRestored(tmux.waitFor("STTY-DONE"), status: "0")
  }

  @Test func cSwitchesWhoseStoreIsShownAndTheFilterPicksACustomer() throws {
    let tmux = try TmuxSession(Self.start, width: 120, height: 36)
    tmux.waitFor("Products")
    tmux.send("c")
    tmux.waitFor("the session has only its own customer")
    tmux.command("buy foodtruck.saleshistory")
    tmux.waitFor("purchased foodtruck.saleshistory, transaction 0")
    tmux.command("customer alice")
    var screen = tmux.waitFor("showing customer alice's store")
    #expect(screen.contains("Transactions of alice") && screen.contains("customer alice"))
    #expect(!screen.contains("  0 foodtruck.saleshistory"), "the own customer's is not hers")
    tmux.command("buy foodtruck.saleshistory")
    screen = tmux.waitFor("purchased foodtruck.saleshistory, transaction 140741783322624")
    tmux.send("c")
    tmux.waitFor("2 customers · ")
    // The list's rows may reach the pane a moment after its overview line.
    screen = tmux.waitFor("(own)")
    #expect(screen.contains("alice"), "the customers view lists both")
    tmux.send("Enter")
    screen = tmux.waitFor("showing the session's own customer's store")
    #expect(screen.contains("  0 foodtruck.saleshistory") && !screen.contains("140741783322624"))
    tmux.send("/")
    tmux.type("customer:alice")
    tmux.send("Enter")
    screen = tmux.waitFor("showing customer alice's store")
    #expect(screen.contains("140741783322624 foodtruck.saleshisto"))
    #expect(screen.contains(" c customers "), "the key bar puts it first once there are customers")
    tmux.send("/")
    tmux.type("customer:zed")
    tmux.send("Enter")
    tmux.waitFor("customer:zed: there is no such customer (customers: alice)")
    tmux.send("?")
    tmux.waitFor("customers: every customer with their status")
    tmux.send("Escape", "q")
    expectRestored(tmux.waitFor("STTY-DONE"), status: "0")
  }

  @Test func aMonthlyPlanIsBoughtInTheBuyDialogAndItsCommitmentShown() throws {
    let tmux = try TmuxSession(
      ["Configs/Everything.storekit"] + Self.start, width: 120, height: 36)
    tmux.waitFor("Products")
    tmux.command("buy everything.pro.max.yearly plan=MONTHLY")
    tmux.waitFor("purchased everything.pro.max.yearly, transaction 0")
    tmux.send("Tab")
    var screen = tmux.waitFor("MONTHLY · payment 1 of 12")
    #expect(screen.contains("commitment ¥15,600 until"))
    #expect(screen.contains("then renews"))
    tmux.send("n", "g")
    screen = tmux.waitFor("payment 2 of 12")
    // The buy dialog (b on a transaction: its product) offers the plan beside the offers.
    tmux.send("b")
    tmux.waitFor("Buy")
    tmux.send("j", "Left")
    screen = tmux.waitFor("plan MONTHLY: ¥1,300 a month for 12 months (¥15,600)")
    tmux.send("Escape", "q")
    expectRestored(tmux.waitFor("STTY-DONE"), status: "0")
  }

  @Test(arguments: [(80, 24), (200, 50)])
  func helpScrollsSearchesAndExplainsTheFilter(_ size: (Int, Int)) throws {
    let tmux = try TmuxSession(Self.start, width: size.0, height: size.1)
    tmux.waitFor("Products")
    tmux.send("?")
    tmux.waitFor("Help · Products")
    var screen = tmux.waitFor("buy the selected product")
    for _ in 0..<40 { tmux.send("Down") }
    screen = tmux.waitFor("zoom the inspector")
    #expect(screen.contains("zoom the inspector in or out"))
    tmux.type("log")
    screen = tmux.waitFor("search: log")
    #expect(screen.contains("view or hide the event log"))
    #expect(!screen.contains("buy the selected product"))
    tmux.send("Escape", "Escape", "/", "?")
    tmux.waitFor("Help · filter")
    tmux.waitFor("on:today")
    tmux.send("Escape")
    tmux.type("state:gr")
    tmux.send("Enter")
    screen = tmux.waitFor("state:gr  (0 of 0)")
    tmux.send("q")
    expectRestored(tmux.waitFor("STTY-DONE"), status: "0")
  }

  @Test(arguments: [(80, 24), (200, 50)])
  func stepsBackWithCapitalNAndTheJournalReopensThere(_ size: (Int, Int)) throws {
    let state = try temporaryFolder()
    defer { try? FileManager.default.removeItem(at: state) }
    do {
      let tmux = try TmuxSession(Self.start, width: size.0, height: size.1, state: state)
      tmux.waitFor("Products")
      tmux.send(":")
      tmux.type("buy socialfeed.monthly")
      tmux.send("Enter", "n", "n")
      tmux.waitFor(" 2 socialfeed.m")
      tmux.send("N")
      let screen = tmux.waitFor("stepped back")
      #expect(!screen.contains(" 2 socialfeed.m"))
      #expect(screen.contains(" 1 socialfeed.m"))
      tmux.send("q")
      expectRestored(tmux.waitFor("STTY-DONE"), status: "0")
    }
    let reopened = try TmuxSession(["--paused"], width: size.0, height: size.1, state: state)
    var screen = reopened.waitFor(" 1 socialfeed.m")
    #expect(!screen.contains(" 2 socialfeed.m"), "the journal reopens where it stepped back to")
    reopened.command("undo")
    // The last command was the first n: undone, the purchase is all there is.
    screen = reopened.waitFor("before the last command")
    #expect(screen.contains(" 0 socialfeed.m") && !screen.contains(" 1 socialfeed.m"))
    reopened.send("q")
    expectRestored(reopened.waitFor("STTY-DONE"), status: "0")
  }

  @Test(arguments: [(80, 24), (200, 50)])
  func filtersLogAndPriceIncreaseWorkTheWayTheyAreExplained(_ size: (Int, Int)) throws {
    let tmux = try TmuxSession(Self.start, width: size.0, height: size.1)
    tmux.waitFor("Products")
    tmux.command(
      "buy socialfeed.premium.monthly", "buy foodtruck.donuts.box",
      "price-increase request 0 price=16.49")
    tmux.waitFor("price-increase")
    // The dates the table shows (UTC, the zone in the status bar) filter as they are shown.
    tmux.waitFor("11-22 02:00:00")
    tmux.waitFor("UTC")
    tmux.send("/")
    tmux.type("on:11-22")
    tmux.send("Enter")
    tmux.waitFor("on:11-22  (2 of 2)")
    // A state by its first letters: the subscription waits for consent to a price increase.
    tmux.send("/")
    tmux.type(" state:pri")
    tmux.waitFor("state:pri  (1 of 2)")
    tmux.send("Escape")
    tmux.waitFor("filter restored")
    tmux.waitFor("on:11-22  (2 of 2)")
    tmux.send("Escape")
    tmux.waitFor("filter cleared")
    tmux.send("/", "Up")
    tmux.waitFor("on:11-22  (2 of 2)")
    tmux.send("Enter")
    // The price increase in the inspector: old and new price, consent, when.
    tmux.send("Escape", "Tab", "G")
    tmux.waitFor("$14.99 → $16.49")
    tmux.waitFor("awaiting the customer")
    // The log: shown with v, searched with / in it.
    tmux.send("v", "l", "l", "/")
    tmux.type("message")
    tmux.send("Enter")
    tmux.waitFor("search: message")
    tmux.waitFor("message priceIncrease")
    tmux.send("q")
    expectRestored(tmux.waitFor("STTY-DONE"), status: "0")
  }

  @Test(arguments: [(80, 24), (200, 50)])
  func theWheelStepMarksQuestionsAndCompletionsWork(_ size: (Int, Int)) throws {
    let tmux = try TmuxSession(Self.start, width: size.0, height: size.1)
    tmux.waitFor("Products")
    tmux.command("buy socialfeed.monthly", "advance 3m")
    tmux.send("Tab")
    // The table followed the renewals: the newest is selected.
    tmux.waitFor("Inspector · transaction 6")
    // The wheel over the table (an SGR mouse report, as terminals send it) moves down 3 rows.
    tmux.send("\u{1B}[<65;\(size.0 / 2);5M", literal: true)
    tmux.waitFor("Inspector · transaction 3")
    // n: the rows the step touched are marked.
    tmux.send("n")
    tmux.waitFor("⚠•   7 socialfeed.m")
    // A question before clearing, answered with y or n.
    tmux.command("clear")
    tmux.waitFor("Clear the session")
    tmux.send("n")
    tmux.waitFor("   7 socialfeed.m")
    // Tab shows what it could complete in the prompt line.
    tmux.send(":")
    tmux.type("buy socialfeed.")
    tmux.send("Tab")
    tmux.waitFor("  socialfeed.premium.monthly")
    tmux.send("Escape", "q")
    expectRestored(tmux.waitFor("STTY-DONE"), status: "0")
  }

  @Test func filtersByProductAndByDate() throws {
    let tmux = try TmuxSession(Self.start, width: 120)
    tmux.waitFor("Products")
    tmux.command("buy foodtruck.donuts.box", "buy foodtruck.saleshistory", "buy socialfeed.yearly")
    tmux.waitFor("socialfeed.yearly")
    tmux.send("/")
    tmux.type("product:foodtruck")
    var screen = tmux.waitFor("product:foodtruck  (2 of 3)")
    #expect(!screen.contains("socialfeed.yearly   "))
    tmux.send("Enter", "Escape", "/")
    tmux.type("on:2026-11-21")
    screen = tmux.waitFor("on:2026-11-21  (0 of 3)")
    #expect(screen.contains("on:2026-11-21  (0 of 3)"))
    for _ in 0..<13 { tmux.send("BSpace") }
    tmux.type("on:2026-11-22")
    screen = tmux.waitFor("on:2026-11-22  (3 of 3)")
    #expect(screen.contains("on:2026-11-22  (3 of 3)"))
    tmux.send("Enter", "q")
    expectRestored(tmux.waitFor("STTY-DONE"), status: "0")
  }

  @Test func theInspectorShowsAMultiseatSubscriptionsSeats() throws {
    let tmux = try TmuxSession(Self.start, width: 120, height: 34)
    tmux.waitFor("Products")
    tmux.command(
      "set invitations developer", "buy socialfeed.monthly seats=5",
      "seat-claim 0 request=00000000-0000-4000-8000-000000000001", "seats 0 3")
    tmux.waitFor("socialfeed.monthly")
    tmux.send("Tab")
    let screen = tmux.waitFor("5 seats")
    #expect(screen.contains("developer-hosted"))
    #expect(screen.contains("renews 3"))
    #expect(screen.contains("1 claimed, 4 free"))
    tmux.send("q")
    expectRestored(tmux.waitFor("STTY-DONE"), status: "0")
  }

  @Test func theSeatsMenuInvitesAndRemovesMembers() throws {
    let tmux = try TmuxSession(Self.start, width: 120, height: 34)
    tmux.waitFor("Products")
    tmux.command("buy socialfeed.monthly seats=3")
    tmux.waitFor("socialfeed.monthly")
    tmux.send("Tab", "S")
    var screen = tmux.waitFor("invite a new member (member1)")
    #expect(screen.contains("one seat more now (4)"))
    tmux.send("i")
    screen = tmux.waitFor("1 member, 2 free")
    #expect(screen.contains("Apple-hosted"))
    #expect(screen.contains("Members"))
    tmux.send("S")
    screen = tmux.waitFor("remove member1")
    tmux.send("1")
    screen = tmux.waitFor("0 members, 3 free")
    // The customers view marks the member's seat.
    tmux.send("c")
    screen = tmux.waitFor("member1")
    #expect(screen.contains("(seat)") == false, "removed: the seat is revoked, not held")
    tmux.send("Escape", "q")
    expectRestored(tmux.waitFor("STTY-DONE"), status: "0")
  }

  @Test func theBuyDialogBuysSeats() throws {
    let tmux = try TmuxSession(Self.start, width: 120, height: 34)
    tmux.waitFor("Products")
    tmux.command("group invite nobody")
    tmux.waitFor("has no running multiseat")
    tmux.command("buy socialfeed.monthly")
    tmux.waitFor("socialfeed.monthly")
    tmux.send("Tab", "b")
    var screen = tmux.waitFor("Quantity")
    #expect(screen.contains("→: seats, a multiseat purchase"))
    tmux.send("Escape")
    tmux.command("expire socialfeed.monthly")
    tmux.waitFor("expired")
    tmux.send("b", "Right", "Right")
    screen = tmux.waitFor("3 seats: multiseat (seats=3)")
    tmux.send("Enter")
    screen = tmux.waitFor("3 seats")
    tmux.command("group invite ann")
    tmux.send("c")
    screen = tmux.waitFor("(seat)")
    #expect(screen.contains("ann"))
    tmux.send("Escape", "q")
    expectRestored(tmux.waitFor("STTY-DONE"), status: "0")
  }

  /// An Advanced Commerce subscription: the buy dialog explains where its items come from and
  /// loads a signed request from a file; the inspector shows the items it charged, its period
  /// and what changes at the next renewal.
  @Test func theInspectorShowsAnAdvancedCommerceSubscription() throws {
    let folder = try temporaryFolder()
    defer { try? FileManager.default.removeItem(at: folder) }
    let request = folder.appendingPathComponent("request.json")
    try Data(
      (#"{"operation":"CREATE_SUBSCRIPTION","version":"1","requestInfo":{"requestReferenceId":"#
        + #""6f1c3e2a-1b2c-4d5e-8f90-0a1b2c3d4e5f"},"currency":"USD","taxCode":"C003-00-1","#
        + #""period":"P1M","descriptors":{"description":"All the news","displayName":"News+"},"#
        + #""items":[{"SKU":"daily","description":"Daily","displayName":"Daily","price":4990},"#
        + #"{"SKU":"sports","description":"Sports","displayName":"Sports","price":1990}]}"#).utf8
    ).write(to: request)
    let signed = try storekeeper([
      "advanced-commerce-request", "Configs/FoodTruck.storekit", request.path, "--issued-at",
      "1795312800",
    ])
    try #require(signed.status == 0, "\(signed.stderr)")
    let jws = folder.appendingPathComponent("request.jws")
    try Data(signed.stdout.utf8).write(to: jws)
    let tmux = try TmuxSession(Self.start, width: 120, height: 34)
    tmux.waitFor("Products")
    tmux.command("set advanced-commerce com.example.news subscription")
    var screen = tmux.waitFor("[ACA]")
    tmux.send("G", "b")
    screen = tmux.waitFor("f load one from a file")
    #expect(screen.contains("its items and prices come from a request your server signs"))
    tmux.send("f")
    tmux.waitFor("advanced-commerce=@")
    tmux.type(jws.path)
    tmux.send("Enter")
    tmux.waitFor("com.example.news")
    tmux.command(
      #"commerce change-price 0 {"requestInfo":{"requestReferenceId":"00000000-0000-4000-8000-000000000002"},"items":[{"SKU":"sports","price":2490}]}"#
    )
    tmux.send("Tab")
    screen = tmux.waitFor("Items")
    #expect(screen.contains("News+"), "\(screen)")
    #expect(screen.contains("daily 4.99"))
    #expect(screen.contains("sports 1.99 → 2.49 scheduled"), "\(screen)")
    tmux.send("q")
    expectRestored(tmux.waitFor("STTY-DONE"), status: "0")
  }

  @Test func stepsThroughGraceRetryAndResolveWithTheKeyboard() throws {
    let tmux = try TmuxSession(Self.start, width: 120, height: 34)
    tmux.waitFor("Products")
    tmux.command("set billing-retry on", "set grace-period on", "buy socialfeed.premium.monthly")
    tmux.waitFor("socialfeed.premium.monthly")
    tmux.send("Tab", "n")
    var screen = tmux.waitFor("in grace until")
    #expect(screen.contains("in grace"))
    tmux.send("n")
    screen = tmux.waitFor("in billing retry")
    #expect(screen.contains("retry until"))
    tmux.send("r")
    screen = tmux.waitFor("renewed")
    tmux.send("R", "d")
    screen = tmux.waitFor("refunded")
    tmux.send("q")
    expectRestored(tmux.waitFor("STTY-DONE"), status: "0")
  }

  @Test func renewalsAppearLiveWhileTheClockRuns() throws {
    let tmux = try TmuxSession(["--start", "2026-11-22T02:00:00Z"])
    tmux.waitFor("Products")
    tmux.send(":")
    tmux.type("set time-rate oneRenewalEveryTwoSeconds")
    tmux.send("Enter", ":")
    tmux.type("buy socialfeed.premium.monthly")
    tmux.send("Enter")
    let screen = tmux.waitFor("renewed", timeout: 8)
    #expect(screen.contains("renewed"))
    tmux.send("q")
    expectRestored(tmux.waitFor("STTY-DONE"), status: "0")
  }

  @Test func showsSignedFormsAndPostsNotificationsFromTheInspector() throws {
    let server = try WebhookServer(statuses: [])
    defer { server.stop() }
    let url = "http://127.0.0.1:\(server.port)/asn"
    let tmux = try TmuxSession(
      Self.start + ["--sign", "--notify-url", url], width: 160, height: 40)
    tmux.waitFor("Products")
    tmux.send(":")
    tmux.type("buy socialfeed.monthly")
    tmux.send("Enter", "Tab", "v")
    var screen = tmux.waitFor("notification SUBSCRIBED-INITIAL_BUY → HTTP 200")
    #expect(screen.contains("notification SUBSCRIBED-INITIAL_BUY"))
    #expect(screen.contains("JWS            eyJhbGciOiJFUzI1NiIs"))
    tmux.send("n")
    tmux.waitFor("notification DID_RENEW → HTTP 200")
    // The table followed the renewal (the newest row): down to the purchase.
    tmux.send("j")
    tmux.waitFor("Inspector · transaction 0")
    tmux.send("Enter")
    // Down past the fields and the receipt's record, a line at a time.
    screen = tmux.scroll(until: "transactionReason: PURCHASE")
    #expect(screen.contains("payload        transactionId: 0"))
    #expect(screen.contains("originalTransactionId: 0"))
    tmux.scroll(until: "raw   ")
    tmux.send("q")
    expectRestored(tmux.waitFor("STTY-DONE"), status: "0")
    #expect(server.requests().count == 2)
  }

  @Test func servesItsOwnSessionAndShowsEachRequestAndDeliveryInTheLog() throws {
    let backend = try WebhookServer(statuses: [])
    defer { backend.stop() }
    let url = "http://127.0.0.1:\(backend.port)/asn"
    let tmux = try TmuxSession(
      Self.start + ["--serve", "127.0.0.1:0", "--notify-url", url], width: 140, height: 40)
    var screen = tmux.waitFor("serving the App Store Server API on http://127.0.0.1:")
    let port = try #require(
      screen.firstMatch(of: /API on http:\/\/127\.0\.0\.1:(\d+)/).flatMap { Int($0.output.1) })
    // The backend's test plays the app through the control endpoint.
    let bought = try httpRequest(
      port: port, "POST", "/storekeeper/v1/commands", body: "buy socialfeed.monthly")
    #expect(bought.status == 200 && bought.body.contains(#""event":"transaction""#))
    tmux.send("Tab", "v")
    screen = tmux.waitFor("served POST /storekeeper/v1/commands 200")
    #expect(screen.contains("socialfeed.monthly"), "the table shows what the request bought")
    let info = try httpRequest(port: port, "GET", "/inApps/v1/transactions/0")
    #expect(info.status == 200 && info.body.contains("signedTransactionInfo"))
    tmux.waitFor("served GET /inApps/v1/transactions/0 200")
    tmux.waitFor("notification SUBSCRIBED-INITIAL_BUY")
    // A command typed in the inspector is what the API answers next, once it is applied (reads
    // answer from the session as last committed, beside the inspector's loop).
    tmux.command("refund 0")
    tmux.waitFor("notification REFUND")
    let refunds = try httpRequest(port: port, "GET", "/inApps/v2/refund/lookup/0")
    #expect(refunds.body.contains("signedTransactions\":[\"ey"), "\(refunds.body)")
    // The delivery lab's commands work typed here too.
    tmux.command("set notify-fault drop", "buy foodtruck.donuts.box")
    tmux.waitFor("notification fault: drop")
    tmux.waitFor("notification ONE_TIME_CHARGE failed")
    tmux.command("set notify-fault off", "notify retry")
    tmux.waitFor("notify retry: 1 notification sent again")
    tmux.waitFor("notification ONE_TIME_CHARGE → HTTP 200")
    tmux.send("q")
    expectRestored(tmux.waitFor("STTY-DONE"), status: "0")
    #expect(backend.requests().count == 3, "SUBSCRIBED, REFUND and the retried ONE_TIME_CHARGE")
    #expect(throws: (any Error).self, "the port is closed after quitting") {
      try rawHTTP(port: port, "GET /storekeeper/v1/health HTTP/1.1\r\n\r\n")
    }
  }

  @Test func buysAPromotionalOfferSignedValidOrTamperedThenShowsAndWritesTheReceipt() throws {
    let state = try temporaryFolder()
    defer { try? FileManager.default.removeItem(at: state) }
    let receipts = state.appendingPathComponent("receipts")
    try FileManager.default.createDirectory(at: receipts, withIntermediateDirectories: true)
    let tmux = try TmuxSession(
      Self.start + ["--receipts", receipts.path], width: 140, height: 44, state: state)
    tmux.waitFor("Products")
    tmux.command("buy socialfeed.yearly")
    tmux.waitFor(".success")
    // socialfeed.monthly, its first promotional offer, a valid signature.
    tmux.send("g", "j", "j", "j", "j", "b")
    tmux.waitFor("Buy")
    tmux.send("j", "l", "l")
    tmux.waitFor("promo socialfeed.monthly.loyalty")
    tmux.send("j", "j", "j", "j")
    var screen = tmux.waitFor("Signature")
    #expect(screen.contains("signed for you (not checked)"))
    tmux.send("l")
    tmux.waitFor("a valid signature (the configuration's key)")
    tmux.send("Enter")
    // The same, tampered: StoreKit's error, and why.
    tmux.send("b")
    tmux.waitFor("Buy")
    tmux.send("j", "l", "l", "j", "j", "j", "j", "l", "l")
    tmux.waitFor("a tampered signature")
    tmux.send("Enter")
    screen = tmux.waitFor("invalidOfferSignature — the signature")
    // The valid one went through: a subscriber moving to another duration gets the offer at
    // the next renewal.
    tmux.send("Tab", "g")
    tmux.waitFor("Upcoming       promo socialfeed.monthly.loyalty")
    // The receipt: the zoomed inspector shows the transaction's record, W writes it.
    tmux.send("Enter")
    screen = tmux.scroll(until: "1719 is_in_intro_offer_period: 0")
    #expect(screen.contains("1702 product_id: socialfeed.yearly"))
    #expect(screen.contains("in the app receipt"))
    #expect(screen.contains("1703 transaction_id: 0"))
    tmux.send("Enter", "W", "v")
    screen = tmux.waitFor("receipt (1 in-app purchase) → ")
    tmux.send("q")
    expectRestored(tmux.waitFor("STTY-DONE"), status: "0")
    let written = try FileManager.default.contentsOfDirectory(atPath: receipts.path)
    #expect(
      written.count == 1 && written[0].hasPrefix("receipt-2026-11-22T02-00-00Z"), "\(written)")
  }

  @Test func resizesStacksAndSaysWhenTooSmall() throws {
    let tmux = try TmuxSession(Self.start)
    tmux.waitFor("Products")
    tmux.resize(width: 60, height: 30)
    var screen = tmux.waitFor("\n┌ Transactions")
    #expect(screen.split(separator: "\n").first?.hasPrefix("┌ ▸ Products ────") == true)
    tmux.resize(width: 30, height: 10)
    screen = tmux.waitFor("at least 40×12.")
    #expect(screen.hasPrefix("Terminal too small: 30×10."))
    tmux.resize(width: 100, height: 30)
    screen = tmux.waitFor("┐┌ Transactions")
    #expect(screen.contains("┌ Inspector"))
    tmux.send("q")
    expectRestored(tmux.waitFor("STTY-DONE"), status: "0")
  }

  @Test func controlCAndSIGTERMRestoreTheTerminal() throws {
    let first = try TmuxSession(Self.start)
    first.waitFor("Products")
    first.send("C-c")
    expectRestored(first.waitFor("STTY-DONE"), status: "130")
    let second = try TmuxSession(Self.start)
    second.waitFor("Products")
    second.signal(SIGTERM)
    expectRestored(second.waitFor("STTY-DONE"), status: "143")
    let third = try TmuxSession(Self.start)
    third.waitFor("Products")
    third.signal(SIGHUP)
    expectRestored(third.waitFor("STTY-DONE"), status: "129")
  }

  @Test func aDumbTerminalIsRefusedAtOnceNamingTERM() throws {
    for environment in ["TERM=dumb", "-u TERM"] {
      let tmux = try TmuxSession(
        Self.start, environment: environment == "-u TERM" ? "TERM=" : environment)
      let screen = tmux.waitFor("STTY-DONE")
      expectRestored(screen, status: "1")
      let joined = screen.replacingOccurrences(of: "\n", with: "")
      #expect(joined.contains("cannot draw on this terminal"), "\(screen)")
      #expect(joined.contains(environment == "TERM=dumb" ? "TERM=dumb" : "TERM is not set"))
      #expect(joined.contains("storekeeper run CONFIG SCRIPT"))
      #expect(joined.contains("storekeeper transactions CONFIG"))
    }
  }

  @Test func aBadNotifyCAIsRefusedAtStartNamingTheFile() throws {
    let folder = try temporaryFolder()
    defer { try? FileManager.default.removeItem(at: folder) }
    let bad = folder.appendingPathComponent("bad-ca.pem")
    try Data("not a certificate".utf8).write(to: bad)
    let tmux = try TmuxSession(Self.start + ["--notify-ca", bad.path])
    let screen = tmux.waitFor("STTY-DONE")
    expectRestored(screen, status: "1")
    let joined = screen.replacingOccurrences(of: "\n", with: "")
    #expect(joined.contains("--notify-ca") && joined.contains("bad-ca.pem"), "\(screen)")
  }

  @Test func asciiMeansOnlyASCII() throws {
    let tmux = try TmuxSession(Self.start + ["--ascii"], width: 120, height: 34)
    tmux.waitFor("Products")
    tmux.send(":")
    tmux.type("buy socialfeed.monthly")
    tmux.send("Enter", "?")
    let screen = tmux.waitFor("Help")
    #expect(screen.unicodeScalars.allSatisfy { $0.value < 0x80 }, "\(screen)")
    #expect(screen.contains("= 2026-11-22 02:00:00 UTC paused"))
    tmux.send("Escape", "q")
    expectRestored(tmux.waitFor("STTY-DONE"), status: "0")
  }

  @Test func aKeyTheStateForbidsSaysWhatRunSays() throws {
    let reason = "transaction 0 is not awaiting approval (it is purchased)"
    let tmux = try TmuxSession(Self.start, width: 120, height: 34)
    tmux.waitFor("Products")
    tmux.command("buy foodtruck.saleshistory")
    tmux.waitFor("purchased")
    tmux.send("Tab", "a")
    #expect(tmux.waitFor(reason).contains("⚠ \(reason)"))
    tmux.send("q")
    expectRestored(tmux.waitFor("STTY-DONE"), status: "0")
    let run = try storekeeper(
      ["run", "Configs/FoodTruck.storekit", "-", "--start", "2026-11-22T02:00:00Z"],
      stdin: "buy foodtruck.saleshistory\napprove 0\n")
    #expect(run.status == 1)
    #expect(run.stderr.contains("approve 0: \(reason)"), "\(run.stderr)")
  }

  @Test func numbersTooBigAtThePromptAreErrorsAndTheInspectorGoesOn() throws {
    let tmux = try TmuxSession(Self.start, width: 200)
    tmux.waitFor("Products")
    tmux.command("advance 99999999999999w")
    let screen = tmux.waitFor("limited to 10000")
    #expect(screen.contains("advance 99999999999999w: durations are limited to 10000"), "\(screen)")
    #expect(screen.contains("⚠"))
    tmux.command("buy foodtruck.donuts.box quantity=99999999999999 from=store")
    #expect(tmux.waitFor("from 1 to 1000000").contains("from 1 to 1000000"))
    tmux.send("q")
    expectRestored(tmux.waitFor("STTY-DONE"), status: "0")
  }

  @Test func aCrashSignalStillRestoresTheTerminal() throws {
    // Swift's crash reporter takes the signal after the terminal is restored; not interactive
    // here, so that it ends at once.
    let tmux = try TmuxSession(Self.start, environment: "SWIFT_BACKTRACE=interactive=no")
    tmux.waitFor("Products")
    tmux.signal(SIGILL)
    let screen = tmux.waitFor("STTY-DONE", timeout: 20)
    let joined = screen.replacingOccurrences(of: "\n", with: "")
    #expect(joined.contains("EXIT=132"), "\(screen)")
    #expect(joined.contains("isig icanon iexten echo "), "the terminal was not restored: \(screen)")
    #expect(!screen.contains("┌ Products"), "still on the alternate screen: \(screen)")
  }

  @Test func aLongCatchUpShowsProgressAndQuitsCleanlyKeepingWhatWasDone() throws {
    let state = try temporaryFolder()
    defer { try? FileManager.default.removeItem(at: state) }
    let journal = state.appendingPathComponent("behind.journal").path
    let weekAgo = ISO8601DateFormatter().string(from: Date().addingTimeInterval(-7 * 86_400))
    let made = try storekeeper(
      ["run", "Configs/FoodTruck.storekit", "--journal", journal, "--start", weekAgo],
      stdin: "set time-rate oneRenewalEveryTwoSeconds\nbuy socialfeed.premium.monthly\n"
        + "buy socialfeed.monthly\n")
    try #require(made.status == 0, "\(made.stderr)")
    let tmux = try TmuxSession(["--journal", journal], width: 100, height: 30, state: state)
    tmux.waitFor("Catching up", timeout: 10)
    // Each line is waited for: a capture as the box's title appears can predate its lines.
    tmux.waitFor("renewals", timeout: 10)
    tmux.waitFor("s left", timeout: 10)
    tmux.send("q")
    expectRestored(tmux.waitFor("STTY-DONE", timeout: 10), status: "0")
    let listed = try storekeeper(
      ["transactions", "Configs/FoodTruck.storekit", "--journal", journal, "--format", "csv"])
    #expect(listed.status == 0, "\(listed.stderr)")
    #expect(listed.stdout.split(separator: "\n").count > 3, "nothing of the catch-up was kept")
  }

  @Test func anIdleInspectorWritesNothingToItsJournal() throws {
    let state = try temporaryFolder()
    let journal = state.appendingPathComponent("idle.journal").path
    let tmux = try TmuxSession(
      ["--journal", journal, "--start", "2026-11-22T02:00:00Z"], state: state)
    tmux.waitFor("Products")
    tmux.command("buy foodtruck.donuts.box")
    // The typed line shows the product too; the row's state shows only once it is journaled.
    tmux.waitFor("purchased")
    let before = try String(contentsOfFile: journal, encoding: .utf8)
    #expect(before.contains("buy foodtruck.donuts.box"))
    // The loop runs on: three clock seconds drawn (frames, ticks) and nothing journaled.
    var seen = Set<String>()
    let deadline = Date().addingTimeInterval(15)
    while seen.count < 3 && Date() < deadline {
      if let clock = tmux.capture().firstMatch(of: /(\d\d:\d\d:\d\d) UTC/)?.output.1 {
        seen.insert(String(clock))
      }
      usleep(50_000)
    }
    #expect(seen.count == 3, "the clock did not run: \(seen)")
    #expect(try String(contentsOfFile: journal, encoding: .utf8) == before)
    tmux.send("q")
    expectRestored(tmux.waitFor("STTY-DONE"), status: "0")
    #expect(try String(contentsOfFile: journal, encoding: .utf8).split(separator: "\n").count == 3)
  }

  @Test func withoutATerminalItPointsToRun() throws {
    let result = try storekeeper(["Configs/FoodTruck.storekit"])
    #expect(result.status == 1)
    #expect(result.stderr.contains("needs a terminal"))
    #expect(result.stderr.contains("storekeeper run Configs/FoodTruck.storekit SCRIPT"))
    #expect(result.stderr.contains("storekeeper transactions Configs/FoodTruck.storekit"))
    let dumb = try storekeeper(["Configs/FoodTruck.storekit"], environment: ["TERM": "dumb"])
    #expect(dumb.status == 1)
    #expect(dumb.stderr.contains("TERM=dumb"))
  }
}
