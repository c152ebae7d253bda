import Foundation
import StoreConfiguration
import Testing

@testable import StoreSimulation

/// Apple's rules for what the Retention Messaging API takes, decided once in the engine.
@Suite struct RetentionRulesTests {
  @Test func aLocaleIsALanguageWithAnOptionalScriptAndRegion() {
    for locale in ["en-US", "fr", "zh-Hans-CN", "es-419", "pt-BR", "yue-Hant"] {
      #expect(Session.isLocale(locale), "\(locale)")
    }
    for locale in ["en_US", "english", "EN-us", "en-", "", "en-US-x", "zh-hans-CN", "e"] {
      #expect(!Session.isLocale(locale), "\(locale)")
    }
  }

  @Test func imagesHaveApplesSizes() {
    func problem(_ size: RetentionImageSize, _ width: Int, _ height: Int) -> String? {
      Session.sizeProblem(RetentionImage(size: size, width: width, height: height))
    }
    #expect(problem(.fullSize, 3840, 160) == nil)
    #expect(problem(.fullSize, 3840, 2160) == nil)
    #expect(problem(.fullSize, 3840, 159) != nil)
    #expect(problem(.fullSize, 3839, 400) != nil)
    #expect(problem(.fullSize, 3840, 2161) != nil)
    #expect(problem(.bulletPoint, 96, 96) == nil)
    #expect(problem(.bulletPoint, 96, 97) != nil)
  }

  @Test func realtimeURLsAreHTTPSOrLoopbackHTTP() {
    #expect(Session.realtimeURLProblem("https://example.com/retention") == nil)
    #expect(Session.realtimeURLProblem("http://127.0.0.1:8080/r") == nil)
    #expect(Session.realtimeURLProblem("http://localhost/r") == nil)
    #expect(Session.realtimeURLProblem("http://[::1]:9/r") == nil)
    #expect(Session.realtimeURLProblem("http://example.com/r") != nil)
    #expect(Session.realtimeURLProblem("ftp://example.com") != nil)
    #expect(Session.realtimeURLProblem("not a url") != nil)
    #expect(
      Session.realtimeURLProblem("https://e.com/" + String(repeating: "a", count: 250)) != nil)
  }

  @Test func anAnswerMustChooseExactlyOneKindOfMessage() throws {
    let root = URL(fileURLWithPath: #filePath).deletingLastPathComponent()
      .deletingLastPathComponent().deletingLastPathComponent()
    let bytes = try Data(contentsOf: root.appendingPathComponent("Configs/FoodTruck.storekit"))
    let configuration = try #require(StoreKitConfiguration.load(Array(bytes)).configuration)
    var session = Session(
      configuration: configuration, start: Instant(iso8601: "2026-11-22T02:00:00Z")!)
    try session.perform(.buy(productID: "socialfeed.monthly", options: .init())) { _ in }
    let id = "33333333-3333-4333-8333-333333333333"
    try session.perform(
      .retention(.uploadMessage(id: id, RetentionMessageText(header: "H", body: "B")))
    ) { _ in }
    let request = try session.retentionRequest()
    func problem(_ body: String) -> String? {
      session.judge(
        RealtimeExchange(requestID: "r", outcome: .answered(status: 200, body: body)),
        for: request
      ).problem
    }
    #expect(problem(#"{"message":{"messageIdentifier":"\#(id)"}}"#) == nil)
    #expect(problem("{}") != nil)
    #expect(
      problem(
        #"{"message":{"messageIdentifier":"\#(id)"},"alternateProduct":{"messageIdentifier":"\#(id)","productId":"socialfeed.yearly"}}"#
      ) != nil)
    #expect(
      problem(
        #"{"alternateProduct":{"messageIdentifier":"\#(id)","productId":"foodtruck.donuts.box"}}"#)
        != nil)
    #expect(
      problem(
        #"{"alternateProduct":{"messageIdentifier":"\#(id)","productId":"socialfeed.monthly"}}"#)
        != nil)
    #expect(
      problem(
        #"{"alternateProduct":{"messageIdentifier":"\#(id)","productId":"socialfeed.yearly"}}"#)
        == nil)
    #expect(problem(#"{"promotionalOffer":{"messageIdentifier":"\#(id)"}}"#) != nil)
    #expect(problem("[1]") != nil)
  }

  /// Retention Messaging 1.5: a switch-plan answer may name the billing plan it suggests; a
  /// plan the product does not bill by, or that the storefront does not offer, fails the answer.
  @Test func aSwitchPlanAnswerMayNameABillingPlan() throws {
    let root = URL(fileURLWithPath: #filePath).deletingLastPathComponent()
      .deletingLastPathComponent().deletingLastPathComponent()
    let bytes = try Data(contentsOf: root.appendingPathComponent("Configs/Everything.storekit"))
    let configuration = try #require(StoreKitConfiguration.load(Array(bytes)).configuration)
    var session = Session(
      configuration: configuration, start: Instant(iso8601: "2026-11-22T02:00:00Z")!)
    let britain = try #require(Storefront(countryCode: "GBR"))
    session.updateSettings { $0.storefront = britain }
    try session.perform(.buy(productID: "everything.pro.monthly", options: .init())) { _ in }
    let id = "33333333-3333-4333-8333-333333333333"
    try session.perform(
      .retention(.uploadMessage(id: id, RetentionMessageText(header: "H", body: "B")))
    ) { _ in }
    let request = try session.retentionRequest()
    func judged(_ product: String, _ plan: String) -> (RetentionPage?, String?) {
      let body =
        #"{"alternateProduct":{"messageIdentifier":"\#(id)","productId":"\#(product)","billingPlanType":"\#(plan)"}}"#
      return session.judge(
        RealtimeExchange(requestID: "r", outcome: .answered(status: 200, body: body)),
        for: request)
    }
    let monthly = judged("everything.pro.max.yearly", "MONTHLY")
    #expect(monthly.1 == nil, "\(monthly.1 ?? "")")
    #expect(monthly.0?.options?.billingPlan == "MONTHLY")
    #expect(monthly.0?.display.alternatePlan == "MONTHLY")
    #expect(judged("everything.pro.max.yearly", "BILLED_UPFRONT").1 == nil)
    #expect(judged("everything.pro.max.yearly", "WEEKLY").1 != nil)
    #expect(judged("everything.pro.yearly", "MONTHLY").1 != nil, "no monthly plan")
    #expect(judged("everything.pro.yearly", "BILLED_UPFRONT").0?.options?.billingPlan == nil)
    session.updateSettings { $0.storefront = .unitedStates }
    #expect(judged("everything.pro.max.yearly", "MONTHLY").1 != nil, "not in the USA")
  }
}
