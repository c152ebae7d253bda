import Foundation
import StorekeeperKit
import XCTest

// Mocks as real projects' StoreKit 1 suites write them: Apple's classes are open, with
// overridable properties and `init()`.
final class MockSKProduct: SKProduct {
  override var productIdentifier: String { "foodtruck.saleshistory" }
  override var price: NSDecimalNumber { NSDecimalNumber(string: "1.99") }
  override var subscriptionPeriod: SKProductSubscriptionPeriod? { MockPeriod() }
  override var discounts: [SKProductDiscount] { [MockDiscount()] }
}

final class MockPeriod: SKProductSubscriptionPeriod {
  override var numberOfUnits: Int { 3 }
  override var unit: SKProduct.PeriodUnit { .month }
}

final class MockDiscount: SKProductDiscount {
  override var identifier: String? { "loyalty" }
  override var paymentMode: SKProductDiscount.PaymentMode { .freeTrial }
}

final class MockTransaction: SKPaymentTransaction {
  override var transactionState: SKPaymentTransactionState { .purchased }
  override var transactionIdentifier: String? { "42" }
  override var payment: SKPayment { SKPayment(product: MockSKProduct()) }
}

final class MockResponse: SKProductsResponse {
  override var products: [SKProduct] { [MockSKProduct()] }
  override var invalidProductIdentifiers: [String] { ["nope"] }
}

final class MockStorefront: SKStorefront {
  override var countryCode: String { "FRA" }
  override var identifier: String { "143442" }
}

final class MockQueue: SKPaymentQueue {
  var added: [String] = []
  override func add(_ payment: SKPayment) { added.append(payment.productIdentifier) }
  override var storefront: SKStorefront? { MockStorefront() }
}

extension StoreKit1Tests {
  func testMocksOfApplesClassesCompileAndAnswerWhatTheyOverride() {
    let product = MockSKProduct()
    XCTAssertEqual(product.productIdentifier, "foodtruck.saleshistory")
    XCTAssertEqual(product.price, NSDecimalNumber(string: "1.99"))
    XCTAssertEqual(product.subscriptionPeriod?.numberOfUnits, 3)
    XCTAssertEqual(product.discounts.first?.identifier, "loyalty")
    XCTAssertEqual(product.discounts.first?.paymentMode, .freeTrial)
    XCTAssertEqual(product.localizedTitle, "", "what a mock leaves alone is empty")
    XCTAssertEqual(MockTransaction().payment.productIdentifier, "foodtruck.saleshistory")
    XCTAssertEqual(MockResponse().products.map(\.productIdentifier), ["foodtruck.saleshistory"])
    XCTAssertEqual(MockStorefront().countryCode, "FRA")
    let queue = MockQueue()
    queue.add(SKPayment(product: product))
    XCTAssertEqual(queue.added, ["foodtruck.saleshistory"])
    XCTAssertEqual(queue.storefront?.identifier, "143442")
  }

  func testAPaymentForAMockedProductReachesTheQueue() {
    SKPaymentQueue.default().add(SKPayment(product: MockSKProduct()))
    waitFor(2)
    XCTAssertEqual(
      recorder.told,
      ["purchasing foodtruck.saleshistory -", "purchased foodtruck.saleshistory 0"])
    XCTAssertEqual(session.allTransactions().map(\.productIdentifier), ["foodtruck.saleshistory"])
  }

  func testFinishingAMockTheQueueDidNotMakeChangesNothing() {
    SKPaymentQueue.default().finishTransaction(MockTransaction())
    let sleep = expectation(description: "nothing told")
    DispatchQueue.main.asyncAfter(deadline: .now() + 0.1) { sleep.fulfill() }
    wait(for: [sleep], timeout: 2)
    XCTAssertEqual(recorder.told, [])
  }

  func testAnObserverAddedBeforeAnUpdateIsDeliveredHearsItOnce() throws {
    // The test runs on the main queue: the update's delivery waits until the test waits.
    try session.buyProduct(productIdentifier: "foodtruck.saleshistory")
    let late = QueueRecorder()
    SKPaymentQueue.default().add(late)
    defer { SKPaymentQueue.default().remove(late) }
    waitFor(1)
    let sleep = expectation(description: "every delivery made")
    DispatchQueue.main.asyncAfter(deadline: .now() + 0.2) { sleep.fulfill() }
    wait(for: [sleep], timeout: 2)
    XCTAssertEqual(recorder.told, ["purchased foodtruck.saleshistory 0"])
    XCTAssertEqual(late.told, ["purchased foodtruck.saleshistory 0"])
  }
}
