import Foundation
import StoreTestSupport
import StorekeeperKit
import StorekeeperKitTest
import XCTest

// Test doubles as public StoreKit 1 suites write them against Apple's classes (a spy queue made
// with `init()` whose `finishTransaction` calls `super`, a products request made with `init()`,
// products and transactions filled by key-value coding), with only the imports switched.

/// A queue that records what the app asks of it and lets Apple's queue do the work.
private final class PaymentQueueSpy: SKPaymentQueue {
  enum Message: Equatable { case add(String), finish(String), restore }
  private(set) var messages: [Message] = []

  override func add(_ payment: SKPayment) {
    messages.append(.add(payment.productIdentifier))
    super.add(payment)
  }

  override func finishTransaction(_ transaction: SKPaymentTransaction) {
    messages.append(.finish(transaction.payment.productIdentifier))
    super.finishTransaction(transaction)
  }

  override func restoreCompletedTransactions() {
    messages.append(.restore)
    super.restoreCompletedTransactions()
  }
}

/// A products request double made with `init()`, as a loader under test takes one.
private final class ProductsRequestSpy: SKProductsRequest {
  private(set) var startCount = 0
  override func start() { startCount += 1 }
}

/// What an app's observer does: finishes what is purchased, failed or restored.
private final class FinishingObserver: NSObject, SKPaymentTransactionObserver {
  var heard: [String] = []
  var onChange: (() -> Void)?

  func paymentQueue(
    _ queue: SKPaymentQueue, updatedTransactions transactions: [SKPaymentTransaction]
  ) {
    for transaction in transactions {
      heard.append("\(transaction.transactionState) \(transaction.payment.productIdentifier)")
      if transaction.transactionState != .purchasing, transaction.transactionState != .deferred {
        queue.finishTransaction(transaction)
      }
    }
    onChange?()
  }

  func paymentQueue(
    _ queue: SKPaymentQueue, removedTransactions transactions: [SKPaymentTransaction]
  ) {
    heard += transactions.map { "removed \($0.payment.productIdentifier)" }
    onChange?()
  }

  func paymentQueueRestoreCompletedTransactionsFinished(_ queue: SKPaymentQueue) {
    heard.append("restore finished")
    onChange?()
  }
}

private func makeProduct(_ identifier: String) -> SKProduct {
  let product = SKProduct()
  product.setValue(identifier, forKey: "productIdentifier")
  return product
}

final class StoreKit1DoublesTests: XCTestCase {
  /// Waits until the observer has heard `count` lines.
  private func wait(for observer: FinishingObserver, lines count: Int) {
    let heard = expectation(description: "\(count) lines")
    heard.assertForOverFulfill = false
    observer.onChange = { if observer.heard.count >= count { heard.fulfill() } }
    if observer.heard.count >= count { heard.fulfill() }
    wait(for: [heard], timeout: 10)
  }

  private func makeSession() throws -> SKTestSession {
    let session = try SKTestSession(configurationFileNamed: "FoodTruck")
    session.disableDialogs = true
    session.clock = .manual
    return session
  }

  /// My1A2BGame's launch: the spy and its observer exist before the test's session; a payment
  /// through the spy is bought in that session and heard through the spy.
  func testASpyQueueMadeBeforeTheSessionHearsItsPurchasesAndFinishesThroughSuper() throws {
    // The environment the app launches in (clean: what earlier tests left is not this test's).
    let launch = try makeSession()
    defer { withExtendedLifetime(launch) {} }
    let queue = PaymentQueueSpy()
    let observer = FinishingObserver()
    queue.add(observer)
    let session = try makeSession()
    queue.add(SKPayment(product: makeProduct("foodtruck.saleshistory")))
    wait(for: observer, lines: 3)
    XCTAssertEqual(
      observer.heard,
      [
        "purchasing foodtruck.saleshistory", "purchased foodtruck.saleshistory",
        "removed foodtruck.saleshistory",
      ])
    XCTAssertEqual(
      queue.messages, [.add("foodtruck.saleshistory"), .finish("foodtruck.saleshistory")])
    XCTAssertTrue(queue.transactions.isEmpty)
    XCTAssertTrue(SKPaymentQueue.default().transactions.isEmpty, "one queue for both objects")
    XCTAssertEqual(session.allTransactions().map(\.productIdentifier), ["foodtruck.saleshistory"])
    XCTAssertTrue(launch.allTransactions().isEmpty, "bought in the test's session")
  }

  /// Every queue object fronts the one queue: a purchase through `default()` reaches a spy's
  /// observers, and a transaction finished through the spy leaves `default()`'s list.
  func testDefaultAndANewQueueShareTransactionsAndNews() throws {
    let session = try makeSession()
    let spy = PaymentQueueSpy()
    let spyObserver = FinishingObserver()
    spy.add(spyObserver)
    defer { spy.remove(spyObserver) }
    SKPaymentQueue.default().add(SKPayment(product: makeProduct("foodtruck.donuts.box")))
    wait(for: spyObserver, lines: 3)
    XCTAssertEqual(spyObserver.heard.first, "purchasing foodtruck.donuts.box")
    XCTAssertEqual(spy.messages, [.finish("foodtruck.donuts.box")])
    XCTAssertTrue(SKPaymentQueue.default().transactions.isEmpty)
    try session.buyProduct(productIdentifier: "foodtruck.saleshistory")
    wait(for: spyObserver, lines: 5)
    XCTAssertEqual(
      Array(spyObserver.heard.suffix(2)),
      ["purchased foodtruck.saleshistory", "removed foodtruck.saleshistory"],
      "a purchase outside the app reaches every queue object")
    spy.restoreCompletedTransactions()
    wait(for: spyObserver, lines: 8)
    XCTAssertEqual(
      Array(spyObserver.heard.suffix(3)),
      ["restored foodtruck.saleshistory", "restore finished", "removed foodtruck.saleshistory"])
  }

  /// The unfinished transactions of the app are a new queue object's too.
  func testANewQueueListsTheAppsUnfinishedTransactions() throws {
    let session = try makeSession()
    try session.buyProduct(productIdentifier: "foodtruck.saleshistory")
    let queue = SKPaymentQueue()
    let listed = queue.transactions.map(\.payment.productIdentifier)
    XCTAssertEqual(listed, ["foodtruck.saleshistory"])
    XCTAssertEqual(
      SKPaymentQueue.default().transactions.map(\.transactionIdentifier),
      queue.transactions.map(\.transactionIdentifier))
  }

  func testAProductsRequestMadeWithInitIsARequestForNothing() {
    let request = ProductsRequestSpy()
    request.start()
    XCTAssertEqual(request.startCount, 1)
    let done = expectation(description: "answered")
    let waiter = ProductsWaiter(done)
    let plain = SKProductsRequest()
    plain.delegate = waiter
    plain.start()
    wait(for: [done], timeout: 5)
    XCTAssertEqual(waiter.response?.products.count, 0)
    XCTAssertEqual(waiter.response?.invalidProductIdentifiers, [])
  }

  func testProductsFilledByKeyValueCodingAnswerWhatWasSet() throws {
    let product = SKProduct()
    product.setValue("remove_bottom_ad", forKey: "productIdentifier")
    product.setValue("Remove the ad", forKey: "localizedTitle")
    product.setValue(NSDecimalNumber(string: "0.99"), forKey: "price")
    product.setValue(Decimal(string: "1.99") as Any, forKey: "price")
    product.setValue(Locale(identifier: "fr_FR"), forKey: "priceLocale")
    product.setValue(true, forKey: "isFamilyShareable")
    let period = SKProductSubscriptionPeriod()
    period.setValue(3, forKey: "numberOfUnits")
    period.setValue(SKProduct.PeriodUnit.month.rawValue, forKey: "unit")
    product.setValue(period, forKey: "subscriptionPeriod")
    let discount = SKProductDiscount()
    discount.setValue("loyalty", forKey: "identifier")
    discount.setValue(2, forKey: "paymentMode")
    discount.setValue(1, forKey: "type")
    discount.setValue(period, forKey: "subscriptionPeriod")
    product.setValue([discount], forKey: "discounts")
    product.setValue(Optional<String>.none as Any, forKey: "subscriptionGroupIdentifier")
    XCTAssertEqual(product.productIdentifier, "remove_bottom_ad")
    XCTAssertEqual(product.localizedTitle, "Remove the ad")
    XCTAssertEqual(product.price, NSDecimalNumber(string: "1.99"))
    XCTAssertEqual(product.priceLocale.identifier, "fr_FR")
    XCTAssertTrue(product.isFamilyShareable)
    XCTAssertEqual(product.subscriptionPeriod?.numberOfUnits, 3)
    XCTAssertEqual(product.subscriptionPeriod?.unit, .month)
    XCTAssertEqual(product.discounts.first?.paymentMode, .freeTrial)
    XCTAssertEqual(product.discounts.first?.type, .subscription)
    XCTAssertNil(product.subscriptionGroupIdentifier)
    XCTAssertEqual(product.value(forKey: "productIdentifier") as? String, "remove_bottom_ad")
    XCTAssertEqual(product.value(forKey: "price") as? NSDecimalNumber, product.price)
    XCTAssertEqual(period.value(forKey: "unit") as? UInt, 2, "an enumeration by its raw value")
    let storefront = SKStorefront()
    storefront.setValue("FRA", forKey: "countryCode")
    storefront.setValue("143442", forKey: "identifier")
    let same = SKStorefront()
    same.setValue("143442", forKey: "identifier")
    XCTAssertEqual(storefront, same, "storefronts are equal by identifier")
    let response = SKProductsResponse()
    response.setValue([product], forKey: "products")
    XCTAssertEqual(response.products.map(\.productIdentifier), ["remove_bottom_ad"])
  }

  func testTransactionsAndPaymentsFilledByKeyValueCoding() throws {
    let transaction = SKPaymentTransaction()
    transaction.setValue(SKPaymentTransactionState.failed.rawValue, forKey: "transactionState")
    transaction.setValue(SKError(.paymentCancelled), forKey: "error")
    transaction.setValue("42", forKey: "transactionIdentifier")
    let original = SKPaymentTransaction()
    original.setValue("7", forKey: "transactionIdentifier")
    transaction.setValue(original, forKey: "originalTransaction")
    transaction.setValue(Date(timeIntervalSince1970: 0), forKey: "transactionDate")
    XCTAssertEqual(transaction.transactionState, .failed)
    XCTAssertEqual((transaction.error as? SKError)?.code, .paymentCancelled)
    XCTAssertEqual(transaction.transactionIdentifier, "42")
    XCTAssertEqual(transaction.original?.transactionIdentifier, "7")
    XCTAssertEqual(transaction.value(forKey: "transactionState") as? Int, 2)
    XCTAssertEqual(transaction.transactionDate, Date(timeIntervalSince1970: 0))
    let payment = SKMutablePayment()
    payment.setValue("coins", forKey: "productIdentifier")
    payment.setValue(3, forKey: "quantity")
    XCTAssertEqual(payment.productIdentifier, "coins")
    XCTAssertEqual(payment.quantity, 3)
    // A transaction the queue did not make finishes nothing.
    SKPaymentQueue.default().finishTransaction(transaction)
  }
}
