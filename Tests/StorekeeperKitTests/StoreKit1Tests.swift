import Crypto
import Foundation
import StoreTestSupport
import StorekeeperKit
import StorekeeperKitTest
import XCTest

/// An observer that writes down what the payment queue tells it, one line per transaction or
/// call: `purchasing socialfeed.monthly -`, `purchased socialfeed.monthly 0`,
/// `failed socialfeed.monthly - SKError 0`, `removed …`, `restore finished`, `revoked …`.
final class QueueRecorder: SKPaymentTransactionObserver, @unchecked Sendable {
  private let lock = NSLock()
  private var lines: [String] = []
  private var waiters: [(Int, XCTestExpectation)] = []
  var autoFinishes = false
  var addsStorePayments = false

  var told: [String] { lock.withLock { lines } }

  private func note(_ line: String) {
    let met: [XCTestExpectation] = lock.withLock {
      lines.append(line)
      let met = waiters.filter { lines.count >= $0.0 }.map(\.1)
      waiters.removeAll { lines.count >= $0.0 }
      return met
    }
    met.forEach { $0.fulfill() }
  }

  /// An expectation met once `count` lines are written.
  func expectation(lines count: Int, in test: XCTestCase) -> XCTestExpectation {
    let expectation = test.expectation(description: "\(count) lines")
    let already: Bool = lock.withLock {
      if lines.count >= count { return true }
      waiters.append((count, expectation))
      return false
    }
    if already { expectation.fulfill() }
    return expectation
  }

  func paymentQueue(
    _ queue: SKPaymentQueue, updatedTransactions transactions: [SKPaymentTransaction]
  ) {
    for transaction in transactions {
      var line =
        "\(transaction.transactionState) \(transaction.payment.productIdentifier) "
        + (transaction.transactionIdentifier ?? "-")
      if let error = transaction.error as? SKError { line += " SKError \(error.code.rawValue)" }
      if let original = transaction.original { line += " of \(original.transactionIdentifier!)" }
      note(line)
      if autoFinishes, transaction.transactionState != .purchasing,
        transaction.transactionState != .deferred
      {
        queue.finishTransaction(transaction)
      }
    }
  }

  func paymentQueue(
    _ queue: SKPaymentQueue, removedTransactions transactions: [SKPaymentTransaction]
  ) {
    for transaction in transactions { note("removed \(transaction.payment.productIdentifier)") }
  }

  func paymentQueueRestoreCompletedTransactionsFinished(_ queue: SKPaymentQueue) {
    note("restore finished")
  }

  func paymentQueue(
    _ queue: SKPaymentQueue, restoreCompletedTransactionsFailedWithError error: any Error
  ) {
    note("restore failed \((error as? SKError)?.code.rawValue ?? -1)")
  }

  func paymentQueue(
    _ queue: SKPaymentQueue, didRevokeEntitlementsForProductIdentifiers productIdentifiers: [String]
  ) {
    note("revoked \(productIdentifiers.joined(separator: ","))")
  }

  func paymentQueue(
    _ queue: SKPaymentQueue, shouldAddStorePayment payment: SKPayment, for product: SKProduct
  ) -> Bool {
    note("promoted \(product.productIdentifier)")
    return addsStorePayments
  }

  func paymentQueueDidChangeStorefront(_ queue: SKPaymentQueue) {
    note("storefront \(queue.storefront?.countryCode ?? "-")")
  }
}

/// A products request's delegate that keeps the response.
final class ProductsWaiter: NSObject, SKProductsRequestDelegate, @unchecked Sendable {
  var response: SKProductsResponse?
  var finished = false
  let done: XCTestExpectation
  init(_ done: XCTestExpectation) { self.done = done }
  func productsRequest(_ request: SKProductsRequest, didReceive response: SKProductsResponse) {
    self.response = response
  }
  func requestDidFinish(_ request: SKRequest) {
    finished = true
    done.fulfill()
  }
}

/// StoreKit 1 over the engine, with the sequences a developer logged in Xcode's environment.
final class StoreKit1Tests: XCTestCase {
  var session: SKTestSession!
  var recorder: QueueRecorder!

  override func setUp() async throws {
    session = try SKTestSession(
      contentsOf: packageRoot.appendingPathComponent("Configs/FoodTruck.storekit"))
    session.disableDialogs = true
    session.clock = .manual
    recorder = QueueRecorder()
    SKPaymentQueue.default().add(recorder)
  }

  override func tearDown() {
    SKPaymentQueue.default().remove(recorder)
  }

  func product(_ id: String) -> SKProduct {
    let done = expectation(description: "products")
    let waiter = ProductsWaiter(done)
    let request = SKProductsRequest(productIdentifiers: [id])
    request.delegate = waiter
    request.start()
    wait(for: [done], timeout: 5)
    return waiter.response!.products[0]
  }

  func waitFor(_ count: Int) {
    wait(for: [recorder.expectation(lines: count, in: self)], timeout: 5)
  }

  func testAPurchaseIsPurchasingWithoutAnIdentifierThenPurchased() throws {
    SKPaymentQueue.default().add(SKPayment(product: product("socialfeed.monthly")))
    waitFor(2)
    XCTAssertEqual(
      recorder.told, ["purchasing socialfeed.monthly -", "purchased socialfeed.monthly 0"])
    let queued = SKPaymentQueue.default().transactions
    XCTAssertEqual(queued.map(\.transactionState), [.purchased])
    XCTAssertNotNil(queued[0].transactionDate)
    SKPaymentQueue.default().finishTransaction(queued[0])
    waitFor(3)
    XCTAssertEqual(recorder.told.last, "removed socialfeed.monthly")
    XCTAssertTrue(SKPaymentQueue.default().transactions.isEmpty)
    XCTAssertEqual(session.allTransactions().map(\.identifier), [0])
  }

  func testAnInterruptedPurchaseFailsWithUnknownAndIsPurchasedOnceResolved() throws {
    session.interruptedPurchasesEnabled = true
    SKPaymentQueue.default().add(SKPayment(product: product("socialfeed.monthly")))
    waitFor(2)
    XCTAssertEqual(
      recorder.told, ["purchasing socialfeed.monthly -", "failed socialfeed.monthly - SKError 0"])
    let failed = SKPaymentQueue.default().transactions[0]
    XCTAssertNil(
      (failed.error as NSError?)?.userInfo[NSUnderlyingErrorKey], "no underlying error in Xcode")
    SKPaymentQueue.default().finishTransaction(failed)
    waitFor(3)
    let interrupted = try XCTUnwrap(session.allTransactions().first { $0.hasPurchaseIssue })
    try session.resolveIssueForTransaction(identifier: UInt(interrupted.identifier))
    waitFor(4)
    XCTAssertEqual(recorder.told.last, "purchased socialfeed.monthly 1")
  }

  func testAskToBuyIsDeferredThenPurchasedWhenApprovedAndSilentWhenDeclined() throws {
    session.askToBuyEnabled = true
    SKPaymentQueue.default().add(SKPayment(product: product("socialfeed.monthly")))
    SKPaymentQueue.default().add(SKPayment(product: product("foodtruck.saleshistory")))
    waitFor(4)
    XCTAssertEqual(
      recorder.told,
      [
        "purchasing socialfeed.monthly -", "deferred socialfeed.monthly -",
        "purchasing foodtruck.saleshistory -", "deferred foodtruck.saleshistory -",
      ])
    XCTAssertTrue(SKPaymentQueue.default().transactions.allSatisfy { $0.error == nil })
    try session.declineAskToBuyTransaction(identifier: 1)
    try session.approveAskToBuyTransaction(identifier: 0)
    waitFor(5)
    XCTAssertEqual(recorder.told.last, "purchased socialfeed.monthly 0")
    let sleep = expectation(description: "nothing more")
    DispatchQueue.main.asyncAfter(deadline: .now() + 0.2) { sleep.fulfill() }
    wait(for: [sleep], timeout: 2)
    XCTAssertEqual(recorder.told.count, 5, "a declined request tells the observer nothing")
  }

  func testRestoreDeliversEachRestorableTransactionThenFinishes() throws {
    recorder.autoFinishes = true
    try session.buyProduct(productIdentifier: "foodtruck.saleshistory")
    try session.buyProduct(productIdentifier: "foodtruck.donuts.box")
    waitFor(4)
    XCTAssertEqual(
      recorder.told,
      [
        "purchased foodtruck.saleshistory 0", "purchased foodtruck.donuts.box 1",
        "removed foodtruck.saleshistory", "removed foodtruck.donuts.box",
      ], "purchases outside the app arrive purchased")
    SKPaymentQueue.default().restoreCompletedTransactions(withApplicationUsername: "player-1")
    waitFor(7)
    XCTAssertEqual(
      Array(recorder.told.suffix(3)),
      [
        "restored foodtruck.saleshistory 0 of 0", "restore finished",
        "removed foodtruck.saleshistory",
      ],
      "a consumable is not restored")
  }

  func testARestoreFailsWhenTransactionsFail() throws {
    session.failTransactionsEnabled = true
    session.failureError = .cloudServiceNetworkConnectionFailed
    SKPaymentQueue.default().restoreCompletedTransactions()
    waitFor(1)
    XCTAssertEqual(recorder.told, ["restore failed 7"])
  }

  func testProductsRequestsAnswerWithStoreKit1sShapes() throws {
    let done = expectation(description: "products")
    let waiter = ProductsWaiter(done)
    let request = SKProductsRequest(productIdentifiers: ["socialfeed.monthly", "no.such.product"])
    request.delegate = waiter
    request.start()
    wait(for: [done], timeout: 5)
    let response = try XCTUnwrap(waiter.response)
    XCTAssertEqual(response.invalidProductIdentifiers, ["no.such.product"])
    let product = try XCTUnwrap(response.products.first)
    XCTAssertEqual(product.productIdentifier, "socialfeed.monthly")
    XCTAssertEqual(product.localizedTitle, "Social Feed+ Monthly")
    XCTAssertEqual(product.price, NSDecimalNumber(string: "9.99"))
    XCTAssertEqual(product.priceLocale.identifier, "en_US")
    XCTAssertEqual(product.subscriptionPeriod?.unit, .month)
    XCTAssertEqual(product.subscriptionPeriod?.numberOfUnits, 1)
    XCTAssertEqual(product.subscriptionGroupIdentifier, "5F0CA1F0")
    XCTAssertFalse(product.isFamilyShareable)
    let intro = try XCTUnwrap(product.introductoryPrice)
    XCTAssertEqual(intro.paymentMode, .payAsYouGo)
    XCTAssertEqual(intro.numberOfPeriods, 3)
    XCTAssertEqual(intro.price, NSDecimalNumber(string: "0.99"))
    XCTAssertEqual(intro.type, .introductory)
    XCTAssertNil(intro.identifier)
    XCTAssertEqual(product.discounts.map(\.identifier), ["socialfeed.monthly.loyalty"])
    XCTAssertEqual(product.discounts.first?.paymentMode, .payUpFront)
    XCTAssertEqual(product.discounts.first?.type, .subscription)
  }

  func testAPaymentDiscountIsCheckedAsStoreKitChecksItsSignature() throws {
    recorder.autoFinishes = true
    // Promotional offers are for customers who subscribed before.
    SKPaymentQueue.default().add(SKPayment(product: product("socialfeed.yearly")))
    waitFor(3)
    try session.expireSubscription(productIdentifier: "socialfeed.yearly")
    let product = product("socialfeed.monthly")
    let timestamp = Int(session.now.timeIntervalSince1970 * 1000)
    let good = try discount(timestamp: timestamp, nonce: UUID())
    let bad = SKPaymentDiscount(
      identifier: good.identifier, keyIdentifier: good.keyIdentifier, nonce: UUID(),
      signature: good.signature, timestamp: good.timestamp)
    let refused = SKMutablePayment(product: product)
    refused.paymentDiscount = bad
    SKPaymentQueue.default().add(refused)
    waitFor(6)
    XCTAssertEqual(recorder.told[4], "failed socialfeed.monthly - SKError 12")
    let payment = SKMutablePayment(product: product)
    payment.paymentDiscount = good
    payment.applicationUsername = "9B1DEB4D-3B7D-4BAD-9BDD-2B0D7B3DCB6D"
    recorder.autoFinishes = false
    SKPaymentQueue.default().add(payment)
    waitFor(8)
    XCTAssertEqual(recorder.told[7], "purchased socialfeed.monthly 1")
    let bought = try XCTUnwrap(SKPaymentQueue.default().transactions.last)
    XCTAssertEqual(bought.payment.paymentDiscount, good)
    XCTAssertEqual(bought.payment.applicationUsername, payment.applicationUsername)
    let transaction = try XCTUnwrap(
      session.allTransactions().first { String($0.identifier) == bought.transactionIdentifier })
    XCTAssertEqual(transaction.productIdentifier, "socialfeed.monthly")
  }

  /// A promotional offer signed as the app's server signs it, with the configuration's key.
  func discount(timestamp: Int, nonce: UUID) throws -> SKPaymentDiscount {
    let key = try P256.Signing.PrivateKey(
      derRepresentation: Data(
        base64Encoded:
          "MIGHAgEAMBMGByqGSM49AgEGCCqGSM49AwEHBG0wawIBAQQgC8uihC1Yg9kNhw9LXParJRHINQsvFnh6A23dKBa8txKhRANCAAQdbPLWiFeOqY2UhII48CaRO5qL1HuVMaBJxWE7XMTDjBG5PTXI/jvJrzfq8ZFTthHNhEEHEB9CVoPxF0M57ibX"
      )!)
    let message = [
      "com.example.storekeeper", "170D84A6", "socialfeed.monthly", "socialfeed.monthly.loyalty",
      "9b1deb4d-3b7d-4bad-9bdd-2b0d7b3dcb6d", nonce.uuidString.lowercased(), String(timestamp),
    ].joined(separator: "\u{2063}")
    let signature = try key.signature(for: Data(message.utf8)).derRepresentation
    return SKPaymentDiscount(
      identifier: "socialfeed.monthly.loyalty", keyIdentifier: "170D84A6", nonce: nonce,
      signature: signature.base64EncodedString(), timestamp: NSNumber(value: timestamp))
  }

  func testStoreKit2AndStoreKit1SeeOneStore() async throws {
    let updates = Task { () -> UInt64? in
      for await update in Transaction.updates { return try? update.payloadValue.id }
      return nil
    }
    try await Task.sleep(for: .milliseconds(50))
    let bought = try await Product.products(for: ["foodtruck.saleshistory"])[0].purchase()
    guard case .success(.verified(let transaction)) = bought else { return XCTFail("\(bought)") }
    await fulfillment(of: [recorder.expectation(lines: 2, in: self)], timeout: 5)
    XCTAssertEqual(
      recorder.told,
      [
        "purchasing foodtruck.saleshistory -", "purchased foodtruck.saleshistory \(transaction.id)",
      ],
      "a StoreKit 2 purchase goes through the device's payment queue")
    SKPaymentQueue.default().add(SKPayment(product: await skProduct("socialfeed.monthly")))
    await fulfillment(of: [recorder.expectation(lines: 4, in: self)], timeout: 5)
    let timeout = Task {
      try await Task.sleep(for: .seconds(5))
      updates.cancel()
    }
    let heard = await updates.value
    timeout.cancel()
    XCTAssertEqual(heard, 1, "a StoreKit 1 payment reaches Transaction.updates")
    var entitled: [String] = []
    for await entitlement in Transaction.currentEntitlements {
      entitled.append(try entitlement.payloadValue.productID)
    }
    XCTAssertEqual(entitled.sorted(), ["foodtruck.saleshistory", "socialfeed.monthly"])
  }

  /// A products request's delegate kept while it runs (a request does not retain it).
  var pendingDelegate: AnyObject?

  func skProduct(_ id: String) async -> SKProduct {
    final class Delegate: NSObject, SKProductsRequestDelegate, @unchecked Sendable {
      let done: (SKProduct) -> Void
      init(_ done: @escaping (SKProduct) -> Void) { self.done = done }
      func productsRequest(_ request: SKProductsRequest, didReceive response: SKProductsResponse) {
        done(response.products[0])
      }
    }
    return await withCheckedContinuation { continuation in
      let request = SKProductsRequest(productIdentifiers: [id])
      let delegate = Delegate { continuation.resume(returning: $0) }
      pendingDelegate = delegate
      request.delegate = delegate
      request.start()
    }
  }

  func testRenewalsRefundsAndStorefrontsReachTheObserver() throws {
    recorder.autoFinishes = true
    SKPaymentQueue.default().add(SKPayment(product: product("socialfeed.monthly")))
    waitFor(3)
    session.advanceToNextEvent()
    waitFor(5)
    XCTAssertEqual(
      Array(recorder.told.suffix(2)),
      ["purchased socialfeed.monthly 1", "removed socialfeed.monthly"],
      "a renewal arrives as a new purchased transaction")
    try session.refundTransaction(identifier: 1)
    waitFor(6)
    XCTAssertEqual(recorder.told.last, "revoked socialfeed.monthly")
    session.storefront = "FRA"
    waitFor(7)
    XCTAssertEqual(recorder.told.last, "storefront FRA")
  }

  func testAPromotedPurchaseIsAddedWhenTheObserverSaysSo() throws {
    try session.sendPurchaseIntent(productIdentifier: "foodtruck.saleshistory")
    waitFor(1)
    XCTAssertEqual(recorder.told, ["promoted foodtruck.saleshistory"], "declined: nothing bought")
    recorder.addsStorePayments = true
    try session.sendPurchaseIntent(productIdentifier: "socialfeed.monthly")
    waitFor(4)
    XCTAssertEqual(
      Array(recorder.told.suffix(3)),
      [
        "promoted socialfeed.monthly", "purchasing socialfeed.monthly -",
        "purchased socialfeed.monthly 0",
      ])
  }

  func testAnObserverAddedLaterHearsTheUnfinishedTransactions() throws {
    try session.buyProduct(productIdentifier: "foodtruck.donuts.box")
    waitFor(1)
    let late = QueueRecorder()
    SKPaymentQueue.default().add(late)
    wait(for: [late.expectation(lines: 1, in: self)], timeout: 5)
    XCTAssertEqual(late.told, ["purchased foodtruck.donuts.box 0"])
    SKPaymentQueue.default().remove(late)
  }

  func testTheAppReceiptIsThereOnceThereIsSomethingInIt() throws {
    let url = try XCTUnwrap(receiptURL())
    XCTAssertFalse(FileManager.default.fileExists(atPath: url.path), "a fresh install has none")
    let done = expectation(description: "refreshed")
    final class Refreshed: NSObject, SKRequestDelegate, @unchecked Sendable {
      let done: XCTestExpectation
      init(_ done: XCTestExpectation) { self.done = done }
      func requestDidFinish(_ request: SKRequest) { done.fulfill() }
    }
    let refreshed = Refreshed(done)
    let request = SKReceiptRefreshRequest()
    request.delegate = refreshed
    request.start()
    wait(for: [done], timeout: 5)
    XCTAssertTrue(FileManager.default.fileExists(atPath: url.path))
    SKPaymentQueue.default().add(SKPayment(product: product("foodtruck.saleshistory")))
    waitFor(2)
    let receipt = try Data(contentsOf: XCTUnwrap(receiptURL()))
    XCTAssertEqual(receipt.first, 0x30, "a DER PKCS#7 container")
    XCTAssertNotNil(receipt.range(of: Data("foodtruck.saleshistory".utf8)), "it lists the purchase")
    XCTAssertNotNil(receipt.range(of: session.certificate), "signed with the session's certificate")
  }

  func testErrorsAreStoreKit1s() {
    let error = SKError(.paymentCancelled)
    XCTAssertEqual(error.code, .paymentCancelled)
    XCTAssertEqual((error as NSError).domain, SKErrorDomain)
    XCTAssertEqual((error as NSError).code, 2)
    do {
      throw error
    } catch SKError.paymentCancelled {
    } catch {
      XCTFail("not matched by code: \(error)")
    }
    XCTAssertTrue(SKPaymentQueue.canMakePayments())
    let payment = SKMutablePayment()
    payment.productIdentifier = "foodtruck.donuts.box"
    payment.quantity = 2
    let copy = payment.copy() as? SKPayment
    XCTAssertEqual(copy?.productIdentifier, "foodtruck.donuts.box")
    XCTAssertEqual(copy?.quantity, 2)
    XCTAssertFalse(copy is SKMutablePayment, "a copy does not change")
    XCTAssertEqual((copy?.mutableCopy() as? SKMutablePayment)?.quantity, 2)
  }
}
