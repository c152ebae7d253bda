import Foundation
import StoreTestSupport
import StorekeeperKit
import StorekeeperKitTest
import Testing

/// A `.storekit` file with three promotional offers under one offer ID, as a public SDK's CI
/// runs on Xcode 15.4, 16.1 and 26: Xcode loads it, and its tests expect all three back.
@Suite struct DuplicateOfferIDTests {
  static let offers = """
    "adHocOffers" : [
      {"displayPrice" : "19.99", "internalID" : "9A0A0001", "numberOfPeriods" : 1,
       "offerID" : "socialfeed.monthly.loyalty", "paymentMode" : "payUpFront",
       "referenceName" : "Loyalty Discount", "subscriptionPeriod" : "P3M"},
      {"displayPrice" : "4.99", "internalID" : "9A0A0002", "numberOfPeriods" : 2,
       "offerID" : "socialfeed.monthly.loyalty", "paymentMode" : "payAsYouGo",
       "referenceName" : "Loyalty Two", "subscriptionPeriod" : "P1M"},
      {"displayPrice" : "0", "internalID" : "9A0A0003", "numberOfPeriods" : 1,
       "offerID" : "socialfeed.monthly.loyalty", "paymentMode" : "free",
       "referenceName" : "Loyalty Three", "subscriptionPeriod" : "P1W"}
    ],
    """

  /// FoodTruck's configuration with the monthly subscription's one promotional offer made three.
  func file(in folder: URL) throws -> URL {
    var text = try String(contentsOf: bundledConfiguration("FoodTruck"), encoding: .utf8)
    let start = try #require(text.range(of: "\"adHocOffers\" : [\n            {"))
    let end = try #require(text.range(of: "],", range: start.upperBound..<text.endIndex))
    text.replaceSubrange(start.lowerBound..<end.upperBound, with: Self.offers)
    let url = folder.appendingPathComponent("Duplicates.storekit")
    try Data(text.utf8).write(to: url)
    return url
  }

  @Test func aSessionLoadsThemAndTheProductListsAllThree() async throws {
    let folder = try temporaryFolder()
    defer { try? FileManager.default.removeItem(at: folder) }
    let session = try SKTestSession(contentsOf: try file(in: folder))
    let product = try #require(
      try await session.bind { try await Product.products(for: ["socialfeed.monthly"]).first })
    let offers = try #require(product.subscription?.promotionalOffers)
    #expect(offers.map(\.id) == Array(repeating: "socialfeed.monthly.loyalty", count: 3))
    #expect(offers.map(\.paymentMode) == [.payUpFront, .payAsYouGo, .freeTrial])
  }
}
