import ClassicStore
import XCTest

#if canImport(StoreKitTest)
  import StoreKit
  import StoreKitTest
#else
  import StorekeeperKitTest
#endif

/// A second test target whose `Products.storekit` is another catalog: its session is its own.
final class GiftShopTests: XCTestCase {
  func testThisTargetsProductsFileIsTheOneLoaded() throws {
    let session = try SKTestSession(configurationFileNamed: "Products")
    session.disableDialogs = true
    let store = ClassicStore()
    defer { store.stop() }
    let loaded = expectation(description: "products")
    store.requestProducts(["everything.lifetime", "foodtruck.saleshistory"]) { _ in
      loaded.fulfill()
    }
    wait(for: [loaded], timeout: 5)
    XCTAssertEqual(Array(store.products.keys), ["everything.lifetime"])
    XCTAssertEqual(store.invalidIdentifiers, ["foodtruck.saleshistory"])
  }
}
