import FoodTruckStore
import XCTest

// Written against Apple's StoreKit 2 and StoreKitTest API only: on Apple platforms it runs
// against Xcode's test environment, on Linux against Storekeeper, with only the import changed.
#if canImport(StoreKit)
  import StoreKit
  import StoreKitTest
#else
  import StorekeeperKit
  import StorekeeperKitTest
#endif

let productIDs = [
  "foodtruck.donuts.box", "foodtruck.saleshistory", "socialfeed.monthly",
  "socialfeed.premium.monthly",
]

/// Waits (at most 10 s) for the store's listener to catch up with what the session did.
@MainActor
func eventually(
  _ condition: @MainActor () -> Bool, file: StaticString = #filePath, line: UInt = #line
) async {
  for _ in 0..<1000 where !condition() { try? await Task.sleep(nanoseconds: 10_000_000) }
  XCTAssertTrue(condition(), "not reached in 10 s", file: file, line: line)
}

@MainActor
final class StoreKitTests: XCTestCase {
  var session: SKTestSession!
  var store: Store!

  override func setUp() async throws {
    session = try SKTestSession(configurationFileNamed: "Products")
    session.resetToDefaultState()
    session.disableDialogs = true
    session.clearTransactions()
    store = Store(productIDs: productIDs)
    try await store.requestProducts()
  }

  func testProductsLoadFromTheConfiguration() async throws {
    XCTAssertEqual(store.consumables.map(\.id), ["foodtruck.donuts.box"])
    XCTAssertEqual(store.nonConsumables.map(\.displayPrice), ["$4.99"])
    XCTAssertEqual(store.subscriptions.count, 2)
    let monthly = try XCTUnwrap(store.subscriptions.first { $0.id == "socialfeed.monthly" })
    XCTAssertEqual(monthly.subscription?.introductoryOffer?.paymentMode, .payAsYouGo)
    let eligible = await monthly.subscription?.isEligibleForIntroOffer
    XCTAssertEqual(eligible, true)
  }

  func testBuyingANonConsumableEntitlesTheCustomer() async throws {
    let history = try XCTUnwrap(store.nonConsumables.first)
    XCTAssertFalse(store.isPurchased(history))
    let transaction = try await store.purchase(history)
    XCTAssertEqual(transaction?.productID, history.id)
    XCTAssertTrue(store.isPurchased(history))
    XCTAssertEqual(session.allTransactions().count, 1)
  }

  func testARefundArrivesOnTransactionUpdatesAndRevokesAccess() async throws {
    let history = try XCTUnwrap(store.nonConsumables.first)
    let transactionResult = try await store.purchase(history)
    let transaction = try XCTUnwrap(transactionResult)
    try session.refundTransaction(identifier: Int(transaction.id))
    await eventually { self.store.revocations[transaction.id] != nil }
    XCTAssertEqual(store.revocations[transaction.id], .other)
    XCTAssertFalse(store.isPurchased(history))
  }

  func testPriceIncreaseConsent() async throws {
    let premium = try XCTUnwrap(store.subscriptions.first { $0.id == "socialfeed.premium.monthly" })
    let transactionResult = try await store.purchase(premium)
    let transaction = try XCTUnwrap(transactionResult)
    try session.requestPriceIncreaseConsentForTransaction(identifier: Int(transaction.id))
    XCTAssertTrue(session.allTransactions().first!.isPendingPriceIncreaseConsent)
    try session.consentToPriceIncreaseForTransaction(identifier: Int(transaction.id))
    let statusResult = try await transaction.subscriptionStatus
    let status = try XCTUnwrap(statusResult)
    let renewal = try store.checkVerified(status.renewalInfo)
    XCTAssertEqual(renewal.priceIncreaseStatus, .agreed)
  }

  func testDecliningAPriceIncreaseExpiresTheSubscription() async throws {
    let premium = try XCTUnwrap(store.subscriptions.first { $0.id == "socialfeed.premium.monthly" })
    let transactionResult = try await store.purchase(premium)
    let transaction = try XCTUnwrap(transactionResult)
    try session.requestPriceIncreaseConsentForTransaction(identifier: Int(transaction.id))
    try session.declinePriceIncreaseForTransaction(identifier: Int(transaction.id))
    try session.expireSubscription(productIdentifier: premium.id)
    let statusResult = try await transaction.subscriptionStatus
    let status = try XCTUnwrap(statusResult)
    XCTAssertEqual(status.state, .expired)
    let renewal = try store.checkVerified(status.renewalInfo)
    XCTAssertEqual(renewal.expirationReason, .didNotConsentToPriceIncrease)
  }

  func testBillingRetryWithGraceKeepsAccessUntilResolved() async throws {
    session.billingGracePeriodIsEnabled = true
    session.shouldEnterBillingRetryOnRenewal = true
    // The renewal falls due two seconds after the purchase, as the test waits.
    session.timeRate = .oneRenewalEveryTwoSeconds
    let premium = try XCTUnwrap(store.subscriptions.first { $0.id == "socialfeed.premium.monthly" })
    let bought = try await store.purchase(premium)
    let transaction = try XCTUnwrap(bought)
    for _ in 0..<1000 where store.subscriptionGroupStatus != .inGracePeriod {
      try await Task.sleep(nanoseconds: 10_000_000)
      await store.updateCustomerProductStatus()
    }
    XCTAssertEqual(store.subscriptionGroupStatus, .inGracePeriod)
    XCTAssertTrue(store.isPurchased(premium), "access is kept during the grace period")
    let test = try XCTUnwrap(session.allTransactions().last)
    XCTAssertTrue(test.hasPurchaseIssue)
    let status = try await transaction.subscriptionStatus
    let renewal = try store.checkVerified(try XCTUnwrap(status).renewalInfo)
    XCTAssertTrue(renewal.isInBillingRetry)
    XCTAssertNotNil(renewal.gracePeriodExpirationDate)
    session.shouldEnterBillingRetryOnRenewal = false
    try session.resolveIssueForTransaction(identifier: test.identifier)
    await store.updateCustomerProductStatus()
    XCTAssertEqual(store.subscriptionGroupStatus, .subscribed)
  }

  func testAskToBuyIsPendingUntilAParentApproves() async throws {
    session.askToBuyEnabled = true
    let history = try XCTUnwrap(store.nonConsumables.first)
    let result = try await store.purchase(history)
    XCTAssertNil(result, "pending")
    let waiting = try XCTUnwrap(session.allTransactions().first)
    XCTAssertTrue(waiting.pendingAskToBuyConfirmation)
    try session.approveAskToBuyTransaction(identifier: waiting.identifier)
    await eventually { self.store.isPurchased(history) }
  }

  func testAnInterruptedPurchaseCompletesWhenResolved() async throws {
    session.interruptedPurchasesEnabled = true
    let box = try XCTUnwrap(store.consumables.first)
    let result = try await store.purchase(box)
    XCTAssertNil(result, "pending")
    let interrupted = try XCTUnwrap(session.allTransactions().first)
    try session.resolveIssueForTransaction(identifier: interrupted.identifier)
    await eventually { self.store.donutBoxes == 1 }
  }

  func testANetworkErrorLoadingProducts() async throws {
    try await session.setSimulatedError(
      .generic(.networkError(URLError(.notConnectedToInternet))), forAPI: .loadProducts)
    do {
      try await store.requestProducts()
      XCTFail("loaded")
    } catch StoreKitError.networkError {
    } catch {
      XCTFail("\(error)")
    }
    try await session.setSimulatedError(nil, forAPI: .loadProducts)
  }

  func testAnUnverifiedTransactionIsRefused() async throws {
    try await session.setSimulatedError(.verification(.invalidSignature), forAPI: .verification)
    let box = try XCTUnwrap(store.consumables.first)
    do {
      try await store.purchase(box)
      XCTFail("accepted")
    } catch StoreError.failedVerification {
    }
    let refused = store.refusedTransactions
    XCTAssertEqual(refused, 1)
    XCTAssertEqual(store.donutBoxes, 0)
  }
}
