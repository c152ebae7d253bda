import Foundation
import StoreCommands
import StoreConfiguration
import Testing

@testable import StoreSimulation

/// A real-time answer read at the edge (``RealtimeAnswer/read(_:)``) and judged by the engine:
/// its shape, then what it names.
@Suite struct RealtimeAnswerTests {
  @Test func theEdgeReadsTheAnswersShapeIntoTypedValues() {
    let id = "33333333-3333-4333-8333-333333333333"
    #expect(
      RealtimeAnswer.read(#"{"message":{"messageIdentifier":"\#(id.uppercased())"}}"#)
        == .success(.message(messageID: id)))
    #expect(
      RealtimeAnswer.read(
        #"{"alternateProduct":{"messageIdentifier":"\#(id)","productId":"p","billingPlanType":"MONTHLY"}}"#
      ) == .success(.alternateProduct(messageID: id, productID: "p", billingPlanType: "MONTHLY")))
    #expect(
      RealtimeAnswer.read(#"{"message":{"messageIdentifier":"nope"}}"#)
        == .failure(RetentionAnswerProblem("messageIdentifier is missing or not a UUID")))
    #expect(
      RealtimeAnswer.read("[1]")
        == .failure(RetentionAnswerProblem("the answer is not a JSON object")))
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
