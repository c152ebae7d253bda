import ClassicStore
import XCTest

#if canImport(StoreKitTest)
  import StoreKit
  import StoreKitTest
#else
  import StorekeeperKitTest
#endif

/// Writes down the states the payment queue reports, as a developer logs them from
/// `paymentQueue(_:updatedTransactions:)`: `purchasing`, `purchased 0`, `failed SKError 0` …
final class StateLog: NSObject, SKPaymentTransactionObserver, @unchecked Sendable {
  private(set) var lines: [String] = []
  var expectation: XCTestExpectation?
  var expected = 0

  func paymentQueue(
    _ queue: SKPaymentQueue, updatedTransactions transactions: [SKPaymentTransaction]
  ) {
    for transaction in transactions {
      var line = "\(transaction.transactionState)"
      if let id = transaction.transactionIdentifier { line += " \(id)" }
      if let error = transaction.error as? SKError { line += " SKError \(error.code.rawValue)" }
      lines.append(line)
    }
    if lines.count >= expected { expectation?.fulfill() }
  }
}

/// The store's tests, written only against StoreKit 1 and StoreKitTest, with the sequences a
/// developer logged in Xcode's test environment.
final class ClassicStoreTests: XCTestCase {
  var session: SKTestSession!
  var store: ClassicStore!
  var log: StateLog!

  override func setUpWithError() throws {
    session = try SKTestSession(configurationFileNamed: "Products")
    session.disableDialogs = true
    session.clearTransactions()
    store = ClassicStore(consumables: ["foodtruck.donuts.box"])
    log = StateLog()
    SKPaymentQueue.default().add(log)
  }

  override func tearDown() {
    SKPaymentQueue.default().remove(log)
    store.stop()
  }

  func load(_ ids: Set<String>) throws -> [String: SKProduct] {
    let loaded = expectation(description: "products")
    store.requestProducts(ids) { _ in loaded.fulfill() }
    wait(for: [loaded], timeout: 5)
    return store.products
  }

  /// Waits until the log has `count` lines.
  func waitForLog(_ count: Int) {
    let logged = expectation(description: "\(count) states")
    log.expected = count
    log.expectation = logged
    if log.lines.count >= count { logged.fulfill() }
    wait(for: [logged], timeout: 5)
  }

  func testProductsComeWithPricesPeriodsAndOffers() throws {
    let products = try load(["socialfeed.monthly", "foodtruck.saleshistory", "nope"])
    XCTAssertEqual(store.invalidIdentifiers, ["nope"])
    let monthly = try XCTUnwrap(products["socialfeed.monthly"])
    XCTAssertEqual(monthly.price, NSDecimalNumber(string: "9.99"))
    XCTAssertEqual(monthly.subscriptionPeriod?.unit, .month)
    XCTAssertEqual(monthly.introductoryPrice?.paymentMode, .payAsYouGo)
    XCTAssertEqual(monthly.discounts.first?.identifier, "socialfeed.monthly.loyalty")
    XCTAssertNil(products["foodtruck.saleshistory"]?.subscriptionPeriod)
  }

  func testAPurchaseIsPurchasingThenPurchasedAndDelivered() throws {
    let products = try load(["foodtruck.saleshistory"])
    store.buy(try XCTUnwrap(products["foodtruck.saleshistory"]))
    waitForLog(2)
    XCTAssertEqual(log.lines, ["purchasing", "purchased 0"])
    XCTAssertTrue(store.owned.contains("foodtruck.saleshistory"))
    XCTAssertTrue(SKPaymentQueue.default().transactions.isEmpty, "the store finished it")
  }

  func testAnInterruptedPurchaseFailsThenSucceedsOnceResolved() throws {
    session.interruptedPurchasesEnabled = true
    let products = try load(["foodtruck.saleshistory"])
    store.buy(try XCTUnwrap(products["foodtruck.saleshistory"]))
    waitForLog(2)
    XCTAssertEqual(log.lines, ["purchasing", "failed SKError 0"])
    XCTAssertEqual((store.lastFailure?.error as? SKError)?.code, .unknown)
    let interrupted = try XCTUnwrap(session.allTransactions().first)
    try session.resolveIssueForTransaction(identifier: UInt(interrupted.identifier))
    waitForLog(3)
    XCTAssertEqual(log.lines.last, "purchased 1")
    XCTAssertTrue(store.owned.contains("foodtruck.saleshistory"))
  }

  func testAskToBuyDefersThenPurchasesWhenApproved() throws {
    session.askToBuyEnabled = true
    let products = try load(["foodtruck.saleshistory", "socialfeed.monthly"])
    store.buy(try XCTUnwrap(products["foodtruck.saleshistory"]))
    store.buy(try XCTUnwrap(products["socialfeed.monthly"]))
    waitForLog(4)
    XCTAssertEqual(log.lines, ["purchasing", "deferred", "purchasing", "deferred"])
    XCTAssertEqual(store.awaitingApproval, ["foodtruck.saleshistory", "socialfeed.monthly"])
    let requests = session.allTransactions().filter(\.pendingAskToBuyConfirmation)
    try session.declineAskToBuyTransaction(identifier: UInt(requests[1].identifier))
    try session.approveAskToBuyTransaction(identifier: UInt(requests[0].identifier))
    waitForLog(5)
    XCTAssertEqual(log.lines.last, "purchased \(requests[0].identifier)")
    XCTAssertTrue(store.owned.contains("foodtruck.saleshistory"))
    XCTAssertFalse(store.owned.contains("socialfeed.monthly"), "declined: nothing at all")
  }

  func testRestoringDeliversEveryNonConsumableAndSubscription() async throws {
    let bought = expectation(description: "bought outside the app")
    log.expected = 2
    log.expectation = bought
    try await session.buyProduct(identifier: "foodtruck.saleshistory")
    try await session.buyProduct(identifier: "foodtruck.donuts.box")
    await fulfillment(of: [bought], timeout: 5)
    let restored = expectation(description: "restored")
    store.onRestore = { error in
      XCTAssertNil(error)
      restored.fulfill()
    }
    store.restorePurchases()
    await fulfillment(of: [restored], timeout: 5)
    XCTAssertEqual(log.lines.last, "restored 0", "a consumable is not restored")
  }

  func testTheReceiptValidatesLocallyAndListsThePurchases() throws {
    let products = try load(["foodtruck.saleshistory", "foodtruck.donuts.box"])
    XCTAssertThrowsError(try validate()) {
      XCTAssertEqual($0 as? ReceiptValidationError, .missing, "a fresh install has no receipt")
    }
    store.buy(try XCTUnwrap(products["foodtruck.saleshistory"]))
    store.buy(try XCTUnwrap(products["foodtruck.donuts.box"]), quantity: 3)
    waitForLog(4)
    let receipt = try validate()
    XCTAssertEqual(receipt.bundleID, "com.example.storekeeper")
    XCTAssertEqual(store.consumed["foodtruck.donuts.box"], 3)
    XCTAssertEqual(
      receipt.purchases.map(\.productID), ["foodtruck.saleshistory"],
      "a consumable leaves the receipt once finished")
    XCTAssertEqual(receipt.purchases.first?.transactionID, "0")
    XCTAssertThrowsError(
      try ReceiptValidator.validate(
        trusting: session.certificate, bundleID: "com.example.other",
        deviceIdentifier: deviceIdentifier)
    ) { XCTAssertEqual($0 as? ReceiptValidationError, .wrongBundle("com.example.storekeeper")) }
    XCTAssertThrowsError(
      try ReceiptValidator.validate(
        trusting: Data([0x30, 0x00]), bundleID: "com.example.storekeeper",
        deviceIdentifier: deviceIdentifier)
    ) { XCTAssertEqual($0 as? ReceiptValidationError, .untrustedCertificate) }
    XCTAssertThrowsError(
      try ReceiptValidator.validate(
        trusting: session.certificate, bundleID: "com.example.storekeeper",
        deviceIdentifier: UUID())
    ) { XCTAssertEqual($0 as? ReceiptValidationError, .wrongDevice) }
  }

  func testARefreshedReceiptIsThereBeforeAnyPurchase() throws {
    final class Refreshed: NSObject, SKRequestDelegate, @unchecked Sendable {
      let done: XCTestExpectation
      init(_ done: XCTestExpectation) { self.done = done }
      func requestDidFinish(_ request: SKRequest) { done.fulfill() }
    }
    let delegate = Refreshed(expectation(description: "refreshed"))
    let request = SKReceiptRefreshRequest()
    request.delegate = delegate
    request.start()
    wait(for: [delegate.done], timeout: 5)
    XCTAssertEqual(try validate().purchases, [])
  }

  var deviceIdentifier: UUID {
    get throws {
      // The device the test environment signs receipts for (StoreKit's device verification id).
      try XCTUnwrap(AppStore.deviceVerificationID)
    }
  }

  func validate() throws -> AppReceipt {
    try ReceiptValidator.validate(
      trusting: session.certificate, bundleID: "com.example.storekeeper",
      deviceIdentifier: try deviceIdentifier)
  }
}
