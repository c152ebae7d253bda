import Foundation
import StoreTestSupport
import StorekeeperKit
import StorekeeperKitTest
import Testing

/// An app's test reaches Retention Messaging through the command language, as `run` does: the
/// default message, a real-time answer given as a recorded exchange, and accepting its plan.
@Suite struct RetentionFromTestsTests {
  @Test func aTestShowsThePageAndTakesTheSwitchOfPlan() async throws {
    let session = try SKTestSession(
      contentsOf: packageRoot.appendingPathComponent("Configs/FoodTruck.storekit"))
    session.clock = .manual
    session.disableDialogs = true
    session.locale = Locale(identifier: "en_US")
    try await session.buyProduct(identifier: "socialfeed.monthly")
    let message = "33333333-3333-4333-8333-333333333333"
    try session.perform(
      #"retention upload-message \#(message) "{\"header\":\"Stay\",\"body\":\"Please\"}""#)
    let answer =
      #"{"alternateProduct":{"messageIdentifier":"\#(message)","productId":"socialfeed.premium.monthly"}}"#
    try session.perform(
      "retention show request=44444444-4444-4444-8444-444444444444 status=200 answer="
        + "\"\(answer.replacingOccurrences(of: "\"", with: "\\\""))\"")
    try session.perform("retention accept")
    let statuses = try await Product.SubscriptionInfo.status(for: "5F0CA1F0")
    let renewal = try #require(statuses.first).renewalInfo
    guard case .verified(let info) = renewal else { throw CancellationError() }
    #expect(info.currentProductID == "socialfeed.premium.monthly")
    #expect(throws: SKTestError.self) { try session.perform("retention accept") }
  }
}
