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
    let result = try runProcess(
      "/usr/bin/env", ["swift", "test", "--scratch-path", scratch], in: example)
    let output = result.stdout + result.stderr
    XCTAssertEqual(result.status, 0, String(output.suffix(4000)))
    XCTAssertTrue(
      output.contains("Executed 10 tests, with 0 failures"),
      "the XCTest suite: \(output.suffix(2000))")
    XCTAssertTrue(
      output.contains("Test run with 3 tests in 1 suite passed"),
      "the Swift Testing suite: \(output.suffix(2000))")
  }
}
