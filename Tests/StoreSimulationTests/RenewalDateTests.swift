import StoreConfiguration
import Testing

@testable import StoreSimulation

/// Renewal dates at the real rate after an offer whose period differs from the product's: the
/// paid months or years fall on the day the offer ended (Apple bills from there), month ends
/// keep the day the run of months started on, and accelerated rates are unchanged.
@Suite struct RenewalDateTests {
  static func offers(intro: String?, promo: String, code: String, winBack: String) -> String {
    let introJSON =
      intro.map {
        """
        {"internalID" : "I-\($0)", "numberOfPeriods" : 1, "paymentMode" : "free",
         "subscriptionPeriod" : "\($0)"}
        """
      } ?? "null"
    return """
      "introductoryOffer" : \(introJSON),
      "adHocOffers" : [{"displayPrice" : "0", "internalID" : "A-\(promo)", "numberOfPeriods" : 1,
        "offerID" : "promo", "paymentMode" : "free", "referenceName" : "Promo",
        "subscriptionPeriod" : "\(promo)"}],
      "codeOffers" : [{"eligibility" : ["new", "existing", "expired"], "internalID" : "C-\(code)",
        "isStackable" : false, "numberOfPeriods" : 1, "paymentMode" : "free",
        "referenceName" : "CODE", "subscriptionPeriod" : "\(code)"}],
      "winbackOffers" : [{"internalID" : "W-\(winBack)", "isEligible" : true, "numberOfPeriods" : 1,
        "offerID" : "winback", "paymentMode" : "free", "referenceName" : "Win back",
        "subscriptionPeriod" : "\(winBack)"}],
      """
  }

  static let configuration: StoreKitConfiguration = {
    let yearly = offers(intro: "P1W", promo: "P1W", code: "P2W", winBack: "P1W")
    let monthly = offers(intro: "P3D", promo: "P1W", code: "P2W", winBack: "P3D")
    let quarterIntro = offers(intro: "P3M", promo: "P1M", code: "P1M", winBack: "P1M")
    let json = """
      {
        "identifier" : "A0C40001", "nonRenewingSubscriptions" : [], "products" : [],
        "settings" : { "_storefront" : "USA", "_timeRate" : 0 },
        "subscriptionGroups" : [
          {"id" : "Y", "localizations" : [], "name" : "Yearly",
           "subscriptions" : [\(subscription("feed.yearly", "Y", 1, "P1Y", "29.99", extra: yearly))]},
          {"id" : "M", "localizations" : [], "name" : "Monthly",
           "subscriptions" : [\(subscription("feed.monthly", "M", 1, "P1M", "2.99", extra: monthly))]},
          {"id" : "Q", "localizations" : [], "name" : "Quarter intro",
           "subscriptions" : [\(subscription("long.yearly", "Q", 1, "P1Y", "49.99", extra: quarterIntro))]}
        ],
        "version" : { "major" : 4, "minor" : 0 }
      }
      """
    let result = StoreKitConfiguration.load(Array(json.utf8))
    precondition(!result.hasErrors, "\(result.diagnostics)")
    return result.configuration!
  }()

  func session(at start: String, rate: TimeRate = .realTime) -> Session {
    var session = Session(configuration: Self.configuration, start: instant(start))
    session.updateSettings { $0.timeRate = rate }
    return session
  }

  /// The periods the group's transactions cover, as "start → end" in days, oldest first.
  func periods(_ session: Session, _ productID: String) -> [String] {
    session.allTransactions().filter { $0.productID == productID }
      .sorted { $0.id < $1.id }
      .map { "\(day($0.purchaseDate)) → \(day($0.expirationDate!))" }
  }

  func day(_ instant: Instant) -> String { String(instant.iso8601.prefix(10)) }

  /// Buys `productID` with `offer`, then runs the clock to `until`.
  func buy(
    _ session: inout Session, _ productID: String, _ offer: OfferSelection? = nil,
    until: String
  ) throws {
    try session.buy(productID, PurchaseOptions(offer: offer)) { _ in }
    try session.advance(to: instant(until)) { _ in }
  }

  @Test func aYearAfterAWeeksTrialEndsOnTheTrialsLastDay() throws {
    var session = session(at: "2026-01-17T10:00:00Z")
    try buy(&session, "feed.yearly", until: "2027-02-01T00:00:00Z")
    #expect(
      periods(session, "feed.yearly") == [
        "2026-01-17 → 2026-01-24", "2026-01-24 → 2027-01-24", "2027-01-24 → 2028-01-24",
      ])
  }

  @Test func monthsAfterAThreeDayTrialFallOnTheDayItEnded() throws {
    var session = session(at: "2026-03-10T10:00:00Z")
    try buy(&session, "feed.monthly", until: "2026-05-14T00:00:00Z")
    #expect(
      periods(session, "feed.monthly") == [
        "2026-03-10 → 2026-03-13", "2026-03-13 → 2026-04-13", "2026-04-13 → 2026-05-13",
        "2026-05-13 → 2026-06-13",
      ])
  }

  @Test func monthsOfAnOfferKeepTheAnchorTheyStarted() throws {
    var session = session(at: "2026-01-31T10:00:00Z")
    try buy(&session, "long.yearly", until: "2027-05-01T00:00:00Z")
    #expect(
      periods(session, "long.yearly") == [
        "2026-01-31 → 2026-04-30", "2026-04-30 → 2027-04-30", "2027-04-30 → 2028-04-30",
      ])
  }

  @Test func aTrialEndingOnTheThirtyFirstAnchorsTheMonthsThere() throws {
    var session = session(at: "2026-01-28T10:00:00Z")
    try buy(&session, "feed.monthly", until: "2026-05-01T00:00:00Z")
    #expect(
      periods(session, "feed.monthly") == [
        "2026-01-28 → 2026-01-31", "2026-01-31 → 2026-02-28", "2026-02-28 → 2026-03-31",
        "2026-03-31 → 2026-04-30", "2026-04-30 → 2026-05-31",
      ])
  }

  /// Promotional, offer code and win-back offers of days or weeks: the paid months start
  /// where the offer ended, whatever day the lapsed subscription was on.
  @Test(arguments: [
    (OfferSelection.promotional("promo"), "2026-06-12", "2026-06-19"),
    (.code("CODE"), "2026-06-12", "2026-06-26"),
    (.winBack("winback"), "2026-06-12", "2026-06-15"),
  ])
  func anOfferOfDaysOrWeeksMovesTheMonthsToItsEnd(
    offer: OfferSelection, start: String, offerEnd: String
  ) throws {
    var session = session(at: "2026-01-05T10:00:00Z")
    try session.buy("feed.monthly", PurchaseOptions()) { _ in }  // the trial, then months
    try session.expireSubscription("feed.monthly") { _ in }
    try session.advance(to: instant("\(start)T10:00:00Z")) { _ in }
    try buy(&session, "feed.monthly", offer, until: "2026-08-01T00:00:00Z")
    let after = periods(session, "feed.monthly").drop { !$0.hasPrefix(start) }
    let month2 = offerEnd.replacingOccurrences(of: "-06-", with: "-07-")
    #expect(Array(after.prefix(2)) == ["\(start) → \(offerEnd)", "\(offerEnd) → \(month2)"])
  }

  /// The inspector's upcoming renewals say the same dates the clock then makes.
  @Test func upcomingRenewalsFollowTheSameRule() throws {
    var session = session(at: "2026-03-10T10:00:00Z")
    try session.buy("feed.monthly", PurchaseOptions()) { _ in }
    let upcoming = session.upcomingRenewals(groupID: "M", limit: 3).map { day($0.date) }
    #expect(upcoming == ["2026-03-13", "2026-04-13", "2026-05-13"])
  }

  /// Accelerated rates count the offer's and the product's periods from the rate's table.
  @Test func acceleratedRatesAreUnchanged() throws {
    var session = session(at: "2026-01-17T10:00:00Z", rate: .monthlyRenewalEveryThirtySeconds)
    try session.buy("feed.yearly", PurchaseOptions()) { _ in }
    try session.advance(to: instant("2026-01-17T10:20:00Z")) { _ in }
    let start = instant("2026-01-17T10:00:00Z").milliseconds
    let ends = session.allTransactions().filter { $0.productID == "feed.yearly" }
      .sorted { $0.id < $1.id }.map { $0.expirationDate!.milliseconds - start }
    #expect(ends.prefix(3) == [10_000, 370_000, 730_000])
  }

  /// A monthly plan bought on the 31st pays on the last day of shorter months and returns to
  /// the 31st.
  @Test func aMonthlyPlanKeepsTheThirtyFirst() throws {
    var session = Session(
      configuration: BillingPlanTests.configuration, start: instant("2026-01-31T10:00:00Z"))
    var options = PurchaseOptions()
    options.billingPlan = "MONTHLY"
    try session.perform(.buy(productID: "plan.yearly", options: options)) { _ in }
    try session.advance(to: instant("2026-05-01T00:00:00Z")) { _ in }
    #expect(
      periods(session, "plan.yearly") == [
        "2026-01-31 → 2026-02-28", "2026-02-28 → 2026-03-31", "2026-03-31 → 2026-04-30",
        "2026-04-30 → 2026-05-31",
      ])
  }
}
