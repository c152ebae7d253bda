import Foundation
import StoreTestSupport
import Testing

@testable import StorekeeperKit

/// What StoreKit's API answers from before any session is made: the file
/// `STOREKEEPER_CONFIGURATION` names, or an empty catalog with the reason said.
@Suite struct ConfigurationFallbackTests {
  @Test func aGoodFileIsLoadedSilently() {
    let loaded = StoreRegistry.loadFallback(bundledConfiguration("FoodTruck").path)
    #expect(loaded.complaint == nil)
    #expect(loaded.configuration.subscriptionGroups?.isEmpty == false)
  }

  @Test func aMissingFileIsSaidWithItsPath() {
    let loaded = StoreRegistry.loadFallback("/nowhere/Products.storekit")
    let complaint = try? #require(loaded.complaint)
    #expect(complaint?.contains("/nowhere/Products.storekit") == true)
    #expect(complaint?.contains("STOREKEEPER_CONFIGURATION") == true)
    #expect(complaint?.contains("empty catalog") == true)
  }

  @Test func aBrokenFileIsSaidWithItsErrors() throws {
    let folder = try temporaryFolder()
    defer { try? FileManager.default.removeItem(at: folder) }
    let file = folder.appendingPathComponent("Broken.storekit")
    try Data("{ \"products\" : [ }".utf8).write(to: file)
    let complaint = try #require(StoreRegistry.loadFallback(file.path).complaint)
    #expect(complaint.contains("Broken.storekit:1"))
  }
}
