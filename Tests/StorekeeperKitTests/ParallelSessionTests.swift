import StoreTestSupport
import StorekeeperKit
import StorekeeperKitTest
import Testing

/// Tests written for Xcode (no `bind`), run in parallel by swift-testing: each reaches the
/// session it made, and no other test's.
@Suite struct ParallelSessionTests {
  /// Buys `productID` through StoreKit's static API in a session of its own and checks that
  /// the app sees that purchase alone.
  func buyAlone(_ productID: String) async throws {
    let session = try SKTestSession(
      contentsOf: packageRoot.appendingPathComponent("Configs/FoodTruck.storekit"))
    session.disableDialogs = true
    session.clearTransactions()
    let product = try #require(try await Product.products(for: [productID]).first)
    let result = try await product.purchase()
    guard case .success(.verified(let transaction)) = result else {
      Issue.record("\(productID): \(result)")
      return
    }
    await transaction.finish()
    var seen: [String] = []
    for await entitlement in Transaction.currentEntitlements {
      seen.append(try entitlement.payloadValue.productID)
    }
    #expect(seen == [productID])
    // The clock runs (as in Xcode): a slow run may see a renewal, of the same product.
    #expect(Set(session.allTransactions().map { $0.productIdentifier }) == [productID])
  }

  @Test func first() async throws { try await buyAlone("socialfeed.monthly") }
  @Test func second() async throws { try await buyAlone("socialfeed.yearly") }
  @Test func third() async throws { try await buyAlone("foodtruck.saleshistory") }
  @Test func fourth() async throws { try await buyAlone("socialfeed.premium.monthly") }
  @Test func fifth() async throws { try await buyAlone("socialfeed.premium.yearly") }
  @Test func sixth() async throws { try await buyAlone("socialfeed.monthly") }
  @Test func seventh() async throws { try await buyAlone("socialfeed.yearly") }
  @Test func eighth() async throws { try await buyAlone("foodtruck.saleshistory") }
  @Test func ninth() async throws { try await buyAlone("socialfeed.premium.monthly") }
  @Test(arguments: ["socialfeed.monthly", "socialfeed.yearly", "foodtruck.saleshistory"])
  func parameterized(productID: String) async throws { try await buyAlone(productID) }
}

/// A session made and not kept.
@Suite struct SessionLifetimeTests {
  @Test(.timeLimit(.minutes(1))) func aSessionNotKeptStillAnswersAsXcodesEnvironmentWould()
    async throws
  {
    _ = try SKTestSession(
      contentsOf: packageRoot.appendingPathComponent("Configs/FoodTruck.storekit"))
    let products = try await Product.products(for: ["socialfeed.monthly"])
    #expect(products.map(\.id) == ["socialfeed.monthly"])
  }
}

/// A session a suite shares (made once, by whichever test runs first).
@Suite struct SharedSessionTests {
  static let session: SKTestSession = {
    let made = try! SKTestSession(
      contentsOf: packageRoot.appendingPathComponent("Configs/FoodTruck.storekit"))
    made.disableDialogs = true
    return made
  }()

  @Test func one() async throws { try await reachesTheSharedSession() }
  @Test func two() async throws { try await reachesTheSharedSession() }

  func reachesTheSharedSession() async throws {
    _ = Self.session
    let products = try await Product.products(for: ["socialfeed.yearly"])
    #expect(products.map(\.id) == ["socialfeed.yearly"])
  }
}
