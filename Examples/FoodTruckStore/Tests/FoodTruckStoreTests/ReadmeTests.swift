// The README's test, word for word (the project's documentation tests check that it is): it
// runs here, against Xcode's environment on a Mac and Storekeeper's on Linux.
import XCTest

#if canImport(StoreKit)
  import StoreKit
  import StoreKitTest
#else
  import StorekeeperKit
  import StorekeeperKitTest
#endif

final class StoreTests: XCTestCase {
  func testARefundRevokesAccess() async throws {
    let session = try SKTestSession(configurationFileNamed: "Products")  // the test's resources
    session.disableDialogs = true
    let product = try await Product.products(for: ["foodtruck.saleshistory"])[0]
    guard case .success(let result) = try await product.purchase() else { return XCTFail() }
    let transaction = try result.payloadValue
    var updates = Transaction.updates.makeAsyncIterator()
    try session.refundTransaction(identifier: UInt(transaction.id))
    let refunded = try await updates.next()!.payloadValue
    XCTAssertNotNil(refunded.revocationDate)
  }
}
