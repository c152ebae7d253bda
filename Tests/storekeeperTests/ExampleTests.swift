import Foundation
import StoreTestSupport
import XCTest

/// The example package's own tests (an app's StoreKit code and its StoreKitTest tests, run on
/// Linux against StorekeeperKit). An XCTest case: XCTest runs before the parallel Swift Testing
/// suites, so building the example never competes with the timing-sensitive ones.
final class ExampleTests: XCTestCase {
  func testTheFoodTruckStoreExamplesTestsPass() throws {
    let example = packageRoot.appendingPathComponent("Examples/FoodTruckStore")
    let scratch = packageRoot.appendingPathComponent(".build/examples").path
    let journals = try temporaryFolder("example-journals")
    defer { try? FileManager.default.removeItem(at: journals) }
    let result = try runProcess(
      "/usr/bin/env", ["swift", "test", "--scratch-path", scratch], in: example,
      environment: ["STOREKEEPER_TEST_JOURNALS": journals.path])
    let output = result.stdout + result.stderr
    XCTAssertEqual(result.status, 0, String(output.suffix(4000)))
    XCTAssertTrue(
      output.contains("Executed 11 tests, with 0 failures"),
      "the XCTest suite: \(output.suffix(2000))")
    XCTAssertTrue(
      output.contains("Test run with 5 tests in 3 suites passed"),
      "the Swift Testing suite: \(output.suffix(2000))")

    // Every session journaled its history; each opens in `transactions` (as in the inspector).
    let names = try FileManager.default.contentsOfDirectory(atPath: journals.path)
      .filter { $0.hasPrefix("Products-") && $0.hasSuffix(".journal") }
    XCTAssertGreaterThanOrEqual(names.count, 14, "\(names)")
    var listed = ""
    for name in names {
      let listing = try storekeeper([
        "transactions",
        example.appendingPathComponent("Tests/FoodTruckStoreTests/Products.storekit")
          .path, "--journal", journals.appendingPathComponent(name).path, "--format", "csv",
      ])
      XCTAssertEqual(listing.status, 0, "\(name): \(listing.stderr)")
      listed += listing.stdout
    }
    XCTAssertTrue(listed.contains("foodtruck.saleshistory"), listed)
  }

  /// The StoreKit 1 example: a store written against the original API, its local receipt
  /// validation, and two test targets with a `Products.storekit` each.
  func testTheClassicStoreExamplesTestsPass() throws {
    let example = packageRoot.appendingPathComponent("Examples/ClassicStore")
    let scratch = packageRoot.appendingPathComponent(".build/examples").path
    let result = try runProcess(
      "/usr/bin/env", ["swift", "test", "--scratch-path", scratch], in: example)
    let output = result.stdout + result.stderr
    XCTAssertEqual(result.status, 0, String(output.suffix(4000)))
    XCTAssertTrue(
      output.contains("Executed 8 tests, with 0 failures"),
      "both XCTest targets: \(output.suffix(2000))")
    XCTAssertFalse(output.contains("error:"), String(output.suffix(2000)))
  }
}
