import StoreConfiguration
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
    let compiled = try TransactionFilter(parsing: filter).compiled(for: session.catalog)
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

  @Test(arguments: [
    (
      "color:red",
      "unknown field \"color:\"; the fields are product: state: type: offer: id: original: after: before: on: date:"
    ),
    (
      "state:happy",
      "unknown state \"happy\"; states are purchased, renewed, pending, declined, interrupted, failed, refunded, upgraded, expired, grace, retry, priceIncrease"
    ),
    (
      "after:tomorrow",
      "\"tomorrow\" is not a date such as 2026-11-22, 2026-11 or 2026-11-22T02:00Z"
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
