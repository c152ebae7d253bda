import StoreConfiguration
import Testing

@testable import StoreSimulation

/// Monthly billing with a 12-month commitment: 12 independent monthly payments, billing going
/// on through the commitment when auto-renew is off, then a new commitment or the end.
@Suite struct BillingPlanTests {
  static let plans = """
    "billingPlans" : [
      {"billingPlanType" : "BILLED_UPFRONT", "commitmentDisplayPrice" : "120", "displayPrice" : "120",
       "internalID" : "P1", "isEnabled" : true},
      {"billingPlanType" : "MONTHLY", "commitmentDisplayPrice" : "144", "displayPrice" : "12",
       "internalID" : "P2", "isEnabled" : true}
    ], "adHocOffers" : [], "introductoryOffer" : null,
    """

  static let configuration: StoreKitConfiguration = {
    let json = """
      {
        "identifier" : "B1000001", "nonRenewingSubscriptions" : [], "products" : [],
        "settings" : { "_storefront" : "GBR", "_timeRate" : 0 },
        "subscriptionGroups" : [
          {"id" : "Y", "localizations" : [], "name" : "Yearly",
           "subscriptions" : [\(subscription("plan.yearly", "Y", 1, "P1Y", "120", extra: plans)),
                              \(subscription("plain.yearly", "Y", 2, "P1Y", "100"))]}
        ],
        "version" : { "major" : 5, "minor" : 0 }
      }
      """
    let result = StoreKitConfiguration.load(Array(json.utf8))
    precondition(!result.hasErrors, "\(result.diagnostics)")
    return result.configuration!
  }()

  func makePlanSession(rate: TimeRate = .monthlyRenewalEveryThirtySeconds) -> Session {
    var session = Session(configuration: Self.configuration, start: t0)
    session.updateSettings { $0.timeRate = rate }
    return session
  }

  func monthly() -> PurchaseOptions {
    var options = PurchaseOptions()
    options.billingPlan = "MONTHLY"
    return options
  }

  @Test func aMonthlyPlanPaysTwelveMonthsThenRenewsTheCommitment() throws {
    var session = makePlanSession(rate: .realTime)
    let bought = try events {
      try session.perform(.buy(productID: "plan.yearly", options: monthly()), $0)
    }
    let first = try #require(bought.transactions.first?.0)
    #expect(first.billingPlanType == .monthly && first.price == 12_000)
    #expect(first.expirationDate == instant("2026-02-15T10:00:00Z"), "a month, not the year")
    let commitment = try #require(first.commitment)
    #expect(commitment.billingPeriodNumber == 1 && commitment.totalBillingPeriods == 12)
    #expect(commitment.price == 144_000)
    #expect(commitment.expirationDate == instant("2027-01-15T10:00:00Z"))
    let status = try #require(bought.statuses.last)
    #expect(status.renewalInfo.billingPlanType == .monthly)
    #expect(status.renewalInfo.renewalPrice == 12_000)
    #expect(status.renewalInfo.commitment?.renewalDate == instant("2027-01-15T10:00:00Z"))
    #expect(status.renewalInfo.commitment?.renewalPrice == 144_000)
    #expect(status.renewalInfo.commitment?.willAutoRenew == true)
    // Twelve payments, each its own transaction of a month; the 13th starts a new commitment.
    let year = try events { try session.perform(.advance(to: instant("2027-01-20T00:00:00Z")), $0) }
    let renewals = year.transactions.map(\.0).filter { $0.reason == .renewal }
    #expect(renewals.map { $0.commitment?.billingPeriodNumber } == Array(2...12) + [1])
    #expect(renewals.allSatisfy { $0.price == 12_000 && $0.originalID == first.id })
    #expect(renewals.last?.commitment?.expirationDate == instant("2028-01-15T10:00:00Z"))
    #expect(renewals[10].expirationDate == instant("2027-01-15T10:00:00Z"))
  }

  @Test func turningAutoRenewOffKeepsBillingUntilTheCommitmentEnds() throws {
    var session = makePlanSession()
    try session.perform(.buy(productID: "plan.yearly", options: monthly()), { _ in })
    try session.perform(.advanceToNextEvent, { _ in })
    let off = try events { try session.perform(.setAutoRenew(1, enabled: false), $0) }
    let info = try #require(off.statuses.last?.renewalInfo)
    #expect(!info.willAutoRenew && info.commitment?.willAutoRenew == false)
    #expect(info.renewalPrice == 12_000, "the commitment's payments are still due")
    var payments: [Int] = []
    var expired: SubscriptionStatus?
    for _ in 0..<11 {
      let step = try events { try session.perform(.advanceToNextEvent, $0) }
      payments += step.transactions.compactMap { $0.0.commitment?.billingPeriodNumber }
      if let status = step.statuses.last, status.state == .expired { expired = status }
    }
    #expect(payments == Array(3...12))
    #expect(expired?.renewalInfo.expirationReason == .autoRenewDisabled)
    #expect(
      session.transaction(11)?.expirationDate == session.transaction(0)?.commitment?.expirationDate)
  }

  @Test func thePlanIsCheckedAsAppleOffersIt() throws {
    var session = makePlanSession()
    var wrong = PurchaseOptions()
    wrong.billingPlan = "MONTHLY"
    #expect(
      session.refusal(.buy(productID: "plain.yearly", options: wrong))?.message.contains(
        "has no billing plans") == true)
    wrong.offer = .introductory
    #expect(
      session.refusal(.buy(productID: "plan.yearly", options: wrong))?.message.contains(
        "MONTHLY billing plan has no offer intro") == true, "its plan has no offers")
    session.updateSettings { $0.storefront = Storefront(countryCode: "USA")! }
    #expect(
      session.refusal(.buy(productID: "plan.yearly", options: monthly()))?.message.contains(
        "USA and Singapore") == true)
    // Bought up front, a product with plans says so; one without says nothing.
    session.updateSettings { $0.storefront = Storefront(countryCode: "GBR")! }
    let upFront = try events {
      try session.perform(.buy(productID: "plan.yearly", options: .init()), $0)
    }
    #expect(upFront.transactions.first?.0.billingPlanType == .billedUpfront)
    #expect(
      upFront.transactions.first?.0.commitment == nil
        && upFront.transactions.first?.0.price == 120_000)
    #expect(upFront.statuses.last?.renewalInfo.billingPlanType == .billedUpfront)
  }
}
