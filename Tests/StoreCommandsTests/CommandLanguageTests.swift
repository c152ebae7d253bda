import StoreSimulation
import Testing

@testable import StoreCommands

@Suite struct CommandLanguageTests {
  static let lines = [
    "buy socialfeed.monthly",
    "buy coins quantity=3",
    "buy socialfeed.monthly offer=intro",
    "buy socialfeed.monthly offer=promo:socialfeed.monthly.loyalty",
    "buy socialfeed.monthly offer=code:\"Free Month\"",
    "buy socialfeed.monthly offer=winback:wb.1 token=f1c2e0b4-2d0e-4c2b-9a61-4c4b1c0a9d11",
    "buy socialfeed.monthly date=2026-01-01T00:00:00.000Z renew=once from=store",
    "approve 3", "decline last", "resolve last:socialfeed.monthly", "refund 7",
    "refund 7 reason=developerIssue", "auto-renew 2 off", "auto-renew last on",
    "expire socialfeed.monthly", "renew socialfeed.monthly", "restore",
    "price-increase request 4", "price-increase request 4 price=12.49",
    "price-increase consent last", "price-increase decline 4",
    "finish all", "finish 9", "delete 2", "clear", "advance 30s", "advance 1mo", "advance 2y",
    "advance next", "advance 2026-12-01T00:00:00.000Z", "advance P1MT30S", "advance 1500ms",
    "set ask-to-buy on", "set interrupted-purchases off", "set billing-retry on",
    "set grace-period on", "set dialogs off", "set fail-transactions invalidOfferPrice",
    "set fail-transactions off", "set error products generic.networkError",
    "set error purchase purchase.productUnavailable", "set error verification off",
    "set time-rate monthlyRenewalEveryThirtySeconds", "set storefront JPN", "set locale ja",
    "set winback-eligible wb.1 off", "reset", "launch", "call products", "call status",
    "call refund-request 3 reason=fulfillmentIssue", "call redeem-sheet",
    "refund 3 percentage=33.333", "refund last reason=developerIssue percentage=50",
    "refund-request last reason=unintendedPurchase", "refund-request 2", "refund-decline 4",
    "refund-reverse last:foodtruck.saleshistory", "extend 0 days=30 reason=serviceIssueOrOutage",
    "extend last days=1",
    "extend-all socialfeed.monthly days=90 reason=customerSatisfaction request=r-1",
    "consumption 3 customerConsented=true deliveryStatus=DELIVERED refundPreference=DECLINE",
    #"consumption last platform=1 appAccountToken="""#,
    "account-token 0 7e3fb20b-4cdb-47cc-936d-99d65f608138", "account-token last none",
    "notify retry", "set notify-fault drop", "set notify-fault duplicate",
    "set notify-fault delay 30s", "set notify-fault off", "notify rescind-consent",
    "notify external-purchase-token unreported",
    "notify external-purchase-token created id=SANDBOX_x creation=2026-01-01T00:00:00.000Z "
      + "type=services expiration=2027-01-01T00:00:00.000Z",
  ]

  @Test(arguments: lines)
  func everyCommandPrintsBackAsTheSameLine(line: String) throws {
    let command = try #require(try Command.parse(line))
    #expect(command.description == line)
    #expect(try Command.parse(command.description) == command)
  }

  @Test func equivalentSpellingsNormalize() throws {
    #expect(try Command.parse("advance P1M")?.description == "advance 1mo")
    #expect(try Command.parse("advance PT30S")?.description == "advance 30s")
    #expect(try Command.parse("advance 60s")?.description == "advance 1m")
    #expect(try Command.parse("advance P1DT12H")?.description == "advance 36h")
    #expect(try Command.parse("advance 24mo")?.description == "advance 2y")
    #expect(
      try Command.parse("set time-rate 15")?.description
        == "set time-rate monthlyRenewalEveryThirtySeconds")
    #expect(try Command.parse("notify fault drop")?.description == "set notify-fault drop")
    #expect(try Command.parse("set storefront jpn")?.description == "set storefront JPN")
    #expect(
      try Command.parse("set error products networkError")?.description
        == "set error products generic.networkError")
  }

  @Test func quotesAndCommentsFollowTheGrammar() throws {
    #expect(try Command.parse("  # a comment") == nil)
    #expect(try Command.parse("") == nil)
    #expect(
      try Command.parse("buy coins   # buy some coins")
        == .buy(productID: "coins", options: PurchaseOptions()))
    let quoted = try #require(try Command.parse(#"buy "odd \"id\" #1""#))
    #expect(quoted == .buy(productID: #"odd "id" #1"#, options: PurchaseOptions()))
    #expect(quoted.description == #"buy "odd \"id\" #1""#)
    #expect(try Command.parse(#"buy "with\\backslash""#)?.description == #"buy "with\\backslash""#)
  }

  /// A JSON object or array is a value as written (issue 51, item 17): spaces, quotes and `#`
  /// inside it are its own; the escaped form reads the same.
  @Test func aJSONValueIsAWordAsWritten() throws {
    let id = "33333333-3333-4333-8333-333333333333"
    let written = try #require(
      try Command.parse(
        #"retention upload-message \#(id) {"header": "Stay #1", "body": "Say \"hi\" [a b]"}"#))
    let escaped = try #require(
      try Command.parse(
        #"retention upload-message \#(id) "{\"header\": \"Stay #1\", \"body\": \"Say \\\"hi\\\" [a b]\"}""#
      ))
    #expect(written == escaped)
    #expect(try Command.parse(written.description) == written, "printed, it reads back")
    let answer = try #require(
      try Command.parse(
        #"retention show request=\#(id) status=200 answer={"message": {"messageIdentifier": "\#(id)"}}"#
      ))
    guard case .retention(.show(let exchange?)) = answer,
      case .answered(200, let body, _) = exchange.outcome
    else {
      Issue.record("\(answer)")
      return
    }
    #expect(body == #"{"message": {"messageIdentifier": "\#(id)"}}"#)
    #expect(throws: CommandError.self) {
      try Command.parse(#"retention upload-message \#(id) {"header": "open"#)
    }
  }

  /// Apple's milliseconds written as a float (`1.7639e12`, `1763900000000.0`) are the whole
  /// numbers they are; a fraction is refused.
  @Test func importedDatesWrittenAsFloatsAreTheirWholeNumbers() throws {
    for written in ["1.7639e12", "1763900000000.0", "1763900000000"] {
      let line =
        #"import transaction {"transactionId":"5","originalTransactionId":"5","productId":"p","purchaseDate":"#
        + written + "}"
      guard case .importTransaction(let t)? = try Command.parse(line) else {
        Issue.record("\(line)")
        continue
      }
      #expect(t.purchaseDate == Instant(milliseconds: 1_763_900_000_000), "\(written)")
    }
    #expect(throws: CommandError.self) {
      try Command.parse(
        #"import transaction {"transactionId":"5","originalTransactionId":"5","productId":"p","purchaseDate":1.5}"#
      )
    }
  }

  @Test(arguments: [
    (
      "frobnicate",
      "unknown command \"frobnicate\"; the commands are account-token, advance, approve, auto-renew, back, buy, call, clear, commerce, consumption, customer, decline, delete, expire, extend, extend-all, family, finish, group, import, launch, notify, price-increase, refund, refund-decline, refund-request, refund-reverse, renew, reset, resolve, restore, retention, seat-associate, seat-claim, seat-unclaim, seats, set, undo"
    ),
    ("buy", "buy needs a product ID"),
    (
      #"import transaction "{\"transactionId\":\"1\",\"productId\":\"a\"}""#,
      "the transaction: $.originalTransactionId must be present (a string)"
    ),
    (
      #"import renewal "{\"originalTransactionId\":\"1\",\"status\":9,\"productId\":\"a\"}""#,
      "the renewal info: $.status must be 1 (active) to 5 (revoked)"
    ),
    ("import transaction [1]", "import transaction: the payload must be one JSON object"),
    (
      "notify again",
      "notify takes retry, fault, rescind-consent or external-purchase-token, not \"again\""
    ),
    (
      "notify external-purchase-token soon",
      "\"soon\" is not an external purchase token's subtype: unreported, created, "
        + "active-token-reminder"
    ),
    ("notify rescind-consent id=x", "unexpected \"id=x\" after the command"),
    (
      "notify external-purchase-token created type=link",
      "\"link\" is not a custom link token's type: acquisition, services"
    ),
    (
      "consumption 3",
      "consumption needs at least one field, such as customerConsented=true; the fields are customerConsented, consumptionStatus, consumptionPercentage, platform, sampleContentProvided, deliveryStatus, appAccountToken, accountTenure, playTime, lifetimeDollarsRefunded, lifetimeDollarsPurchased, userStatus, refundPreference"
    ),
    ("account-token 0 abc", "the app account token must be a UUID or none, not \"abc\""),
    ("extend 0", "extend needs days=N (1 to 90)"),
    ("extend 0 days=91", "days must be a whole number from 1 to 90, not \"91\""),
    ("extend-all socialfeed.monthly days=0", "days must be a whole number from 1 to 90, not \"0\""),
    ("refund 1 percentage=0", "percentage must be above 0 and at most 100, not \"0\""),
    ("refund 1 percentage=100.001", "percentage must be above 0 and at most 100, not \"100.001\""),
    (
      "refund 1 percentage=50%",
      "percentage must be a number above 0 and at most 100 with up to three decimals, such as 50 or 33.333, not \"50%\""
    ),
    (
      "refund-request 1 reason=legl",
      "\"legl\" is not a refund request's reason: unintendedPurchase, fulfillmentIssue, unsatisfiedWithPurchase, legal, other"
    ),
    ("buy coins quantity=0", "quantity must be a whole number from 1 to 1000000, not \"0\""),
    (
      "buy coins color=red",
      "buy has no option \"color\"; its options are quantity, seats, offer, token, date, renew, from, "
        + "key, nonce, timestamp, signature, jws, intro-jws, bundle, plan, advanced-commerce"
    ),
    (
      "buy socialfeed.monthly nonce=x",
      "a signature is for a promotional offer: add offer=promo:<offerID>"
    ),
    (
      "buy socialfeed.monthly offer=promo:a jws=x key=y",
      "give jws= or key=, nonce=, timestamp= and signature=, not both"
    ),
    (
      "buy socialfeed.monthly offer=promo:a timestamp=soon",
      "timestamp must be milliseconds since 1970, not \"soon\""
    ),
    ("buy coins quantity=2 quantity=3", "the option quantity is given twice"),
    (
      "buy coins offer=gift",
      "offer must be intro, promo:<offerID>, code:<referenceName> or winback:<offerID>, not \"gift\""
    ),
    ("buy coins token=abc", "token must be a UUID, not \"abc\""),
    (
      "buy coins date=yesterday",
      "date must be ISO-8601 such as 2026-11-22T02:00:00Z, not \"yesterday\""
    ),
    ("refund seven", "\"seven\" is not a transaction: write an id, last or last:<productID>"),
    ("refund 7 extra", "unexpected \"extra\"; options are written key=value"),
    ("auto-renew 3 maybe", "\"maybe\" is not on or off"),
    (
      "advance soon",
      "\"soon\" is not a duration (30s, 5m, 2h, 3d, 1w, 1mo, 1y, P1M, PT30S), next or a date"
    ),
    (
      "set volume 11",
      "unknown setting \"volume\"; the settings are ask-to-buy, interrupted-purchases, billing-retry, grace-period, dialogs, fail-transactions, error, storefront, locale, time-rate, refund-review, consumable-history, winback-eligible, invitations, seat-pricing"
    ),
    ("set time-rate warp", "\"warp\" is not a time rate"),
    ("set storefront XYZ", "\"XYZ\" is not a known storefront"),
    (
      "set error verification networkError",
      "\"networkError\" is not an error the verification API can fail with"
    ),
    ("buy \"open", "a quote is not closed"),
    ("restore now", "unexpected \"now\" after the command"),
  ])
  func errorsSayWhatIsWrong(line: String, message: String) {
    #expect(
      throws: CommandError(
        message, suggestions: (try? Command.parse(line)).map { _ in [] } ?? suggestions(line))
    ) {
      try Command.parse(line)
    }
  }

  private func suggestions(_ line: String) -> [String] {
    do {
      _ = try Command.parse(line)
      return []
    } catch {
      return (error as? CommandError)?.suggestions ?? []
    }
  }

  @Test func unknownVerbsSuggestCloseOnes() {
    do {
      _ = try Command.parse("refnud 3")
      Issue.record("accepted")
    } catch {
      #expect(error.suggestions == ["refund"])
    }
  }

  @Test func durationsAddCalendarMonthsInUTC() throws {
    let start = Instant(iso8601: "2026-01-31T10:00:00Z")!
    #expect(try parseDuration("1mo")?.after(start).iso8601 == "2026-02-28T10:00:00.000Z")
    #expect(try parseDuration("1y")?.after(start).iso8601 == "2027-01-31T10:00:00.000Z")
    #expect(
      try parseDuration("P1DT2H30M")
        == CommandDuration(milliseconds: Int64(26 * 60 + 30) * 60_000))
    #expect(try parseDuration("PT0.5S")?.milliseconds == 500)
    for bad in ["P", "PT", "P1.5M", "1x", "P1H", "-5s", "s", "P1MT", "P١M"] {
      #expect(try parseDuration(bad) == nil, "\(bad)")
    }
  }

  @Test(arguments: [
    "advance 99999999999999w", "advance PT99999999999999999999S", "advance 99999999999999mo",
    "advance 9999999999999y", "advance 10001y", "advance P120001M", "advance PT1e400S",
    "advance 999999999999999999999999999999ms", "advance P9999Y9999Y",
  ])
  func durationsTooLongForTheClockAreErrorsNamingTheLimit(line: String) {
    do {
      _ = try Command.parse(line)
      Issue.record("\(line) was accepted")
    } catch {
      #expect(
        error.message.contains("limited to 10000 years")
          || error.message.contains("not a duration"),
        "\(line): \(error.message)")
    }
  }

  @Test func quantitiesAreLimited() {
    #expect(throws: CommandError.self) {
      try Command.parse("buy foodtruck.donuts.box quantity=99999999999999 from=store")
    }
    #expect(throws: CommandError.self) {
      try Command.parse("buy foodtruck.donuts.box quantity=1000001")
    }
    #expect(throws: Never.self) { try Command.parse("buy foodtruck.donuts.box quantity=1000000") }
  }

  @Test func theRefundSheetTakesXcodesReasonsAndTheRequestReasonsScriptsWroteBefore() throws {
    #expect(
      try Command.parse("call refund-request 3 reason=developerIssue")
        == .call(.refundRequest, .id(3), reason: .developerIssue))
    #expect(
      try Command.parse("call refund-request 3 reason=fulfillmentIssue")?.description
        == "call refund-request 3 reason=fulfillmentIssue")
    #expect(try Command.parse("refund 3 percentage=40")?.description == "refund 3 percentage=40")
    #expect(
      try Command.parse("refund 3 percentage=40.500")
        == .refund(.id(3), reason: nil, share: 40_500))
  }
}
