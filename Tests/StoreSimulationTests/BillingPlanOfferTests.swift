import StoreConfiguration
import Testing

@testable import StoreSimulation

/// Offers of the MONTHLY billing plan (format 5.0 offers whose `billingPlanType` is
/// `MONTHLY`): the introductory offer applies to an eligible customer's first payments, a
/// promotional offer to a lapsed one's; the offer covers whole months of the commitment (free,
/// or a price a month), and an offer the plan does not have is refused naming those it has.
@Suite struct BillingPlanOfferTests {
  static let configuration: StoreKitConfiguration = {
    let offers = """
      "billingPlans" : [
        {"billingPlanType" : "BILLED_UPFRONT", "commitmentDisplayPrice" : "120",
         "displayPrice" : "120", "internalID" : "P1", "isEnabled" : true},
        {"billingPlanType" : "MONTHLY", "commitmentDisplayPrice" : "144", "displayPrice" : "12",
         "internalID" : "P2", "isEnabled" : true}
      ],
      "introductoryOffers" : [
        {"billingPlanType" : "BILLED_UPFRONT", "displayPrice" : "60", "internalID" : "I1",
         "numberOfPeriods" : 1, "paymentMode" : "payUpFront", "subscriptionPeriod" : "P6M"},
        {"billingPlanType" : "MONTHLY", "internalID" : "I2", "numberOfPeriods" : 1,
         "paymentMode" : "free", "subscriptionPeriod" : "P2M"}
      ],
      "introductoryOffer" : null,
      "adHocOffers" : [
        {"billingPlanType" : "MONTHLY", "displayPrice" : "6", "internalID" : "A1",
         "numberOfPeriods" : 3, "offerID" : "half.monthly", "paymentMode" : "payAsYouGo",
         "referenceName" : "Half", "subscriptionPeriod" : "P1M"},
        {"billingPlanType" : "MONTHLY", "displayPrice" : "1", "internalID" : "A2",
         "numberOfPeriods" : 2, "offerID" : "weekly.promo", "paymentMode" : "payAsYouGo",
         "referenceName" : "Weeks", "subscriptionPeriod" : "P1W"}
      ],
      """
    let json = """
      {
        "identifier" : "B1000002", "nonRenewingSubscriptions" : [], "products" : [],
        "settings" : { "_storefront" : "GBR", "_timeRate" : 0 },
        "subscriptionGroups" : [
          {"id" : "Y", "localizations" : [], "name" : "Yearly",
           "subscriptions" : [\(subscription("plan.yearly", "Y", 1, "P1Y", "120", extra: offers))]}
        ],
        "version" : { "major" : 5, "minor" : 0 }
      }
      """
    let result = StoreKitConfiguration.load(Array(json.utf8))
    precondition(!result.hasErrors, "\(result.diagnostics)")
    return result.configuration!
  }()

  func monthly(_ offer: OfferSelection? = nil) -> PurchaseOptions {
    var options = PurchaseOptions(offer: offer)
    options.billingPlan = "MONTHLY"
    return options
  }

  @Test func theIntroductoryOfferOfTheMonthlyPlanMakesItsFirstMonthsFree() throws {
    var session = Session(configuration: Self.configuration, start: t0)
    let bought = try events {
      try session.perform(.buy(productID: "plan.yearly", options: monthly()), $0)
    }
    let first = try #require(bought.transactions.first?.0)
    #expect(first.price == 0 && first.offer?.type == .introductory)
    #expect(first.offer?.paymentMode == .freeTrial)
    #expect(first.commitment?.billingPeriodNumber == 1)
    let renewed = try events { try session.advance(to: instant("2026-04-20T00:00:00Z"), $0) }
    let payments = renewed.transactions.map(\.0)
    #expect(
      payments.map(\.price) == [0, 12_000, 12_000], "the second free month, then the plan's price")
    #expect(payments.map(\.offer?.type) == [.introductory, nil, nil])
    #expect(payments.map { $0.commitment?.billingPeriodNumber } == [2, 3, 4])
  }

  @Test func aPromotionalOfferOfTheMonthlyPlanChargesItsPriceEachMonth() throws {
    var session = Session(configuration: Self.configuration, start: t0)
    _ = try events { try session.perform(.buy(productID: "plan.yearly", options: monthly()), $0) }
    _ = try events { try session.perform(.setAutoRenew(0, enabled: false), $0) }
    _ = try events { try session.advance(to: instant("2027-02-01T00:00:00Z"), $0) }
    #expect(session.subscriptionStatuses().first?.state == .expired)
    let back = try events {
      try session.perform(
        .buy(productID: "plan.yearly", options: monthly(.promotional("half.monthly"))), $0)
    }
    let first = try #require(back.transactions.last?.0)
    #expect(first.price == 6_000 && first.offer?.id == "half.monthly")
  }

  @Test func anOfferThePlanDoesNotHaveIsRefusedNamingItsOffers() throws {
    var session = Session(configuration: Self.configuration, start: t0)
    let refusal = try #require(
      session.refusal(.buy(productID: "plan.yearly", options: monthly(.promotional("nope")))))
    #expect(refusal.message.contains("intro, promo:half.monthly"), "\(refusal.message)")
    #expect(!refusal.message.contains("weekly.promo"), "weeks are not whole months")
    #expect(
      session.refusal(
        .buy(productID: "plan.yearly", options: monthly(.promotional("weekly.promo")))) != nil)
  }
}
