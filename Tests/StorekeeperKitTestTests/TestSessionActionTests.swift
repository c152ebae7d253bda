import Foundation
import StoreTestSupport
import StorekeeperKit
import StorekeeperKitTest
import Testing

/// SKTestSession's Transaction Manager actions, as a test calls them: each applies the command
/// of the same name, and what the session refuses comes back as StoreKitTest's error, with the
/// code StoreKitTest gives it and a message that says why.
@Suite struct TestSessionActionTests {
  func session() throws -> SKTestSession {
    let session = try SKTestSession(
      contentsOf: packageRoot.appendingPathComponent("Configs/FoodTruck.storekit"))
    session.clock = .manual
    session.disableDialogs = true
    return session
  }

  /// The error an action throws, when it throws StoreKitTest's.
  func refusal(_ action: () throws -> Void) -> SKTestError? {
    do {
      try action()
      return nil
    } catch {
      return error as? SKTestError
    }
  }

  /// The error a purchase outside the app throws, when it throws StoreKitTest's.
  func refusal(buying productID: String, in session: SKTestSession) async -> SKTestError? {
    do {
      try await session.buyProduct(identifier: productID)
      return nil
    } catch {
      return error as? SKTestError
    }
  }

  @Test func eachRefusalCarriesStoreKitTestsCodeForWhatWasMissingOrWrong() async throws {
    let session = try session()
    let missing = refusal { try session.refundTransaction(identifier: 42) }
    #expect(missing?.code == .noTransactionFound)
    #expect(missing?.message.contains("there is no transaction 42") == true)
    let product = await refusal(buying: "no.such.product", in: session)
    #expect(product?.code == .invalidProductIdentifier)
    let notSubscription = refusal {
      try session.expireSubscription(productIdentifier: "foodtruck.donuts.box")
    }
    #expect(notSubscription?.code == .invalidProductType, "\(String(describing: notSubscription))")
    let notActive = refusal {
      try session.expireSubscription(productIdentifier: "socialfeed.premium.monthly")
    }
    #expect(notActive?.code == .noSubscriptionFound, "\(String(describing: notActive))")
    try await session.buyProduct(identifier: "foodtruck.donuts.box")
    let twice = refusal {
      try session.refundTransaction(identifier: 0)
      try session.refundTransaction(identifier: 0)
    }
    #expect(twice?.code == .invalidAction)
    #expect(twice?.message.contains("already refunded") == true)
  }

  @Test func aLineOfTheCommandLanguageIsRefusedWithTheSameCodes() throws {
    let session = try session()
    #expect(refusal { try session.perform("refund 9") }?.code == .noTransactionFound)
    #expect(refusal { try session.perform("not a command") }?.code == .invalidAction)
    try session.perform("buy foodtruck.donuts.box")
    #expect(session.allTransactions().count == 1)
  }

  @Test func actionsChangeWhatTheAppSees() async throws {
    let session = try session()
    try await session.buyProduct(identifier: "socialfeed.premium.monthly")
    let id = try #require(session.allTransactions().first?.identifier)
    try session.disableAutoRenewForTransaction(identifier: id)
    #expect(session.allTransactions().first?.autoRenewingEnabled == false)
    try session.enableAutoRenewForTransaction(identifier: id)
    session.advanceToNextEvent()
    #expect(session.allTransactions().count == 2, "renewed")
    try session.expireSubscription(productIdentifier: "socialfeed.premium.monthly")
    let entitled = await session.bind {
      var products: [String] = []
      for await case .verified(let transaction) in Transaction.currentEntitlements {
        products.append(transaction.productID)
      }
      return products
    }
    #expect(entitled.isEmpty, "an expired subscription is no entitlement")
    session.clearTransactions()
    #expect(session.allTransactions().isEmpty)
  }
}
