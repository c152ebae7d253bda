import Testing

@testable import StoreSimulation

@Suite struct FilterTests {
  /// A ledger: coins (0), pro (1, refunded), monthly with intro (2) and renewals (3, 4),
  /// bought at t0, t0+1d, …
  func session() throws -> Session {
    var session = makeSession()
    try session.buy("coins", PurchaseOptions()) { _ in }
    try session.advance(to: t0.plus(seconds: 86_400)) { _ in }
    try session.buy("pro", PurchaseOptions()) { _ in }
    try session.refund(1) { _ in }
    try session.advance(to: t0.plus(seconds: 2 * 86_400)) { _ in }
    try session.buy("monthly", PurchaseOptions()) { _ in }
    try session.advance(to: instant("2026-04-01T00:00:00Z")) { _ in }
    return session
  }

  func ids(_ filter: String, _ session: Session) throws -> [UInt64] {
    let compiled = try TransactionFilter(parsing: filter).compiled(
      for: session.catalog, now: session.now)
    return session.ledgerRows().filter(compiled.matches).map(\.id)
  }

  @Test func termsMatchByFieldAndCombine() throws {
    let session = try session()
    #expect(try ids("", session) == [0, 1, 2, 3, 4])
    #expect(try ids("product:monthly", session) == [2, 3, 4])
    #expect(try ids("product:coins,pro", session) == [0, 1])
    #expect(try ids("!product:monthly", session) == [0, 1])
    #expect(try ids("state:refunded", session) == [1])
    #expect(try ids("state:renewed", session) == [3, 4])
    #expect(try ids("type:consumable", session) == [0])
    #expect(try ids("type:subscription", session) == [2, 3, 4])
    #expect(try ids("offer:intro", session) == [2, 3, 4])
    #expect(try ids("id:1..3", session) == [1, 2, 3])
    #expect(try ids("original:2 !id:2", session) == [3, 4])
    #expect(try ids("refunded", session) == [1])
    #expect(try ids("3", session) == [3])
  }

  @Test func datesFilterThePurchaseDate() throws {
    let session = try session()
    #expect(try ids("on:2026-01-15", session) == [0])
    #expect(try ids("after:2026-01-16", session) == [1, 2, 3, 4])
    #expect(try ids("before:2026-01-17", session) == [0, 1])
    #expect(try ids("date:2026-01-16..2026-01-17", session) == [1, 2])
    #expect(try ids("on:2026-03", session) == [4])
    #expect(try ids("on:2026", session) == [0, 1, 2, 3, 4])
    #expect(try ids("after:2026-02-17T10:00:00Z", session) == [3, 4])
  }

  @Test func theTablesDateFormsAndRelativeDatesFilterInUTC() throws {
    // Purchases at 2026-01-15 10:00, 01-16 10:00, 01-17 10:00, renewals 02-17 and 03-17 10:00;
    // now is 2026-04-01T00:00Z.
    let session = try session()
    #expect(try ids("on:01-15", session) == [0])
    #expect(try ids("on:\"01-16 10:00\"", session) == [1])
    #expect(try ids("on:\"01-16 10:01\"", session) == [])
    #expect(try ids("on:01-16T10:00:00", session) == [1])
    #expect(try ids("on:\"2026-01-17 10:00\"", session) == [2])
    #expect(try ids("after:\"01-16 10:00\"", session) == [1, 2, 3, 4])
    #expect(try ids("date:01-16..01-17", session) == [1, 2])
    #expect(try ids("on:this-year", session) == [0, 1, 2, 3, 4])
    #expect(try ids("on:last-month", session) == [4])
    #expect(try ids("on:this-month", session) == [])
    #expect(try ids("after:30d", session) == [4])
    #expect(try ids("after:2w", session) == [])
    #expect(try ids("on:yesterday", session) == [])
    #expect(try ids("before:today", session) == [0, 1, 2, 3, 4])
    // The same words counted from the morning after the last renewal.
    let morning = Instant(iso8601: "2026-03-18T09:00:00Z")!
    func idsOnTheMorning(_ text: String) throws -> [UInt64] {
      let compiled = try TransactionFilter(parsing: text).compiled(
        for: session.catalog, now: morning)
      return session.ledgerRows().filter(compiled.matches).map(\.id)
    }
    #expect(try idsOnTheMorning("on:yesterday") == [4])
    #expect(try idsOnTheMorning("on:today") == [])
    #expect(try idsOnTheMorning("after:24h") == [4])
    #expect(try idsOnTheMorning("on:this-month") == [4])
    #expect(try idsOnTheMorning("on:last-month") == [3])
    #expect(try idsOnTheMorning("on:03-17") == [4])
  }

  /// A word such as `today` or `7d` without a field is a date, as the filter's help shows them:
  /// the purchase date in the session's own day (its now), wherever the clock started.
  @Test func bareDateWordsFilterThePurchaseDate() throws {
    let session = try session()
    #expect(try ids("last-month", session) == [4])
    #expect(try ids("this-year", session) == [0, 1, 2, 3, 4])
    #expect(try ids("30d", session) == [4])
    #expect(try ids("today", session) == [])
    #expect(try ids("01-16", session) == [1])
    #expect(try ids("\"2026-01-17 10:00\"", session) == [2])
    #expect(try ids("2026-03", session) == [4])
    #expect(try ids("!this-year", session) == [])
    #expect(try ids("2", session) == [2], "a plain number stays an id")
    var later = session
    try later.buy("coins", PurchaseOptions()) { _ in }
    #expect(try ids("today", later) == [5])
    #expect(try ids("7d", later) == [5])
    try later.advance(to: later.now.plus(seconds: 2 * 86_400)) { _ in }
    #expect(try ids("today", later) == [])
    #expect(try ids("7d", later) == [5])
  }

  @Test func theOrdinalOfAStateIsItsPositionInAllCases() {
    for (position, state) in LedgerState.allCases.enumerated() {
      #expect(state.ordinal == position)
    }
  }

  @Test func statesAndTypesMatchByPrefix() throws {
    let session = try session()
    #expect(try ids("state:ref", session) == [1])
    #expect(try ids("state:ren", session) == [3, 4])
    #expect(try ids("state:re", session) == [1, 3, 4], "renewed, refunded and retry")
    #expect(try ids("state:purch", session) == [0, 2])
    #expect(try ids("type:cons", session) == [0])
    #expect(try ids("type:auto", session) == [2, 3, 4])
    #expect(LedgerState.matching(filterName: "ret") == [.retry])
    #expect(LedgerState.matching(filterName: "gr") == [.grace])
    #expect(LedgerState.matching(filterName: "in") == [.interrupted, .grace, .retry])
    #expect(ProductKind.matching(filterName: "non") == [.nonConsumable, .nonRenewable])
    #expect(throws: TransactionFilter.ParseError.self) {
      try TransactionFilter(parsing: "state:zz")
    }
  }

  @Test(arguments: [
    (
      "color:red",
      "unknown field \"color:\"; the fields are product: state: type: offer: id: original: after: before: on: date: customer:"
    ),
    (
      "state:happy",
      "unknown state \"happy\"; states are purchased, renewed, pending, declined, interrupted, failed, refunded, upgraded, expired, grace, retry, priceIncrease, revoked"
    ),
    (
      "after:tomorrow",
      "\"tomorrow\" is not a date such as 2026-11-23, 11-23, \"11-23 14:05\", today, yesterday, 7d or this-month"
    ),
    ("id:5..2", "\"5..2\" is not an id or a range such as 10..20"),
    ("product:", "\"product:\" needs a value"),
  ])
  func invalidFiltersAreExplained(text: String, message: String) {
    do {
      _ = try TransactionFilter(parsing: text)
      Issue.record("accepted \(text)")
    } catch {
      #expect(error.message == message)
    }
  }

  @Test func errorsPointAtTheTerm() {
    do {
      _ = try TransactionFilter(parsing: "product:x stat:grace")
    } catch {
      #expect(error.offset == 10)
      #expect(error.suggestions == ["state:"])
    }
  }

  @Test func statesFollowTheSubscription() throws {
    var session = makeSession(rate: .monthlyRenewalEveryThirtySeconds) {
      $0.shouldEnterBillingRetryOnRenewal = true
      $0.billingGracePeriodIsEnabled = true
    }
    try session.buy("solo.monthly", PurchaseOptions()) { _ in }
    #expect(session.ledgerRow(0)?.state == .purchased)
    try session.advance(to: t0.plus(seconds: 31)) { _ in }
    #expect(session.ledgerRow(0)?.state == .grace)
    try session.advance(to: t0.plus(seconds: 50)) { _ in }
    #expect(session.ledgerRow(0)?.state == .retry)
    try session.advance(to: t0.plus(seconds: 95)) { _ in }
    #expect(session.ledgerRow(0)?.state == .expired)
  }
}

/// Which filters narrow the one before them (a list filtered as you type then looks only at
/// what it kept): typing on into a term narrows; negations, alternatives, ids and dates do not
/// say so.
@Suite struct FilterNarrowingTests {
  func transactions(_ text: String) throws -> TransactionFilter {
    try TransactionFilter(parsing: text)
  }

  @Test func typingOnIntoATransactionTermNarrowsIt() throws {
    #expect(try transactions("product:mon").narrows(transactions("product:mo")))
    #expect(try transactions("state:ret").narrows(transactions("state:re")))
    #expect(try transactions("product:mo state:re").narrows(transactions("product:mo")))
    #expect(try transactions("product:mo").narrows(.all))
    #expect(try !transactions("product:m").narrows(transactions("product:mo")))
    #expect(try !transactions("!product:mon").narrows(transactions("!product:mo")))
    #expect(try !transactions("product:mo,y").narrows(transactions("product:mo")))
    #expect(try !transactions("id:12").narrows(transactions("id:1")))
    #expect(try !transactions("consumable").narrows(transactions("consumabl")))
  }

  @Test func typingOnIntoACustomerTermNarrowsIt() throws {
    func customers(_ text: String) throws -> CustomerFilter { try CustomerFilter(parsing: text) }
    #expect(try customers("status:inb").narrows(customers("status:in")))
    #expect(try customers("c00").narrows(customers("c0")))
    #expect(try customers("c0 name:a").narrows(customers("c0")))
    #expect(try !customers("!name:ab").narrows(customers("!name:a")))
    #expect(try !customers("name:a,b").narrows(customers("name:a")))
  }
}
