import Foundation
import StoreCommands
import StoreSimulation
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

/// Which store StoreKit's static API reaches, on a registry of the test's own with the scopes
/// it names (the shared registry's answer depends on what parallel tests make).
@Suite struct StoreRegistryRuleTests {
  /// A store that registers nowhere, over FoodTruck.
  func store() throws -> Store {
    let path = bundledConfiguration("FoodTruck").path
    let (configuration, bytes) = try SessionOpening.loadConfiguration(path)
    return try Store(
      configuration: configuration, bytes: bytes, configurationPath: path, journalPath: nil,
      registers: false, wall: { Instant(milliseconds: 0) })
  }

  @Test func aSuiteThatMadeNoSessionReachesTheOneAnotherSuiteMadeLast() throws {
    let registry = StoreRegistry()
    let scopes = Locked(["A/t()", "A"])
    registry.useScopes { scopes.value }
    let shared = try store()
    registry.register(shared)  // made by suite A's test, kept in a static let
    scopes.value = ["B/t()", "B"]
    #expect(registry.current() === shared, "suite B made none: the one made last")
    let own = try store()
    scopes.value = ["C/t()", "C"]
    registry.register(own)  // suite C makes its own
    #expect(registry.current() === own)
    scopes.value = ["A/u()", "A"]
    #expect(registry.current() === shared, "suite A's own stays its own")
  }

  /// `swift test` runs every test target in one process: a suite that made no session reaches
  /// the one its own target made last, not one another target made since (Xcode runs a process
  /// per test bundle).
  @Test func theSessionMadeLastIsKeptPerTestTarget() throws {
    let registry = StoreRegistry()
    let scopes = Locked(["A/t()", "A", "test target One"])
    registry.useScopes { scopes.value }
    let ours = try store()
    registry.register(ours)  // target One's static let
    scopes.value = ["X/t()", "X", "test target Two"]
    let theirs = try store()
    registry.register(theirs)  // target Two, at the same time
    scopes.value = ["B/t()", "B", "test target One"]
    #expect(registry.current() === ours)
    scopes.value = ["Y/t()", "Y", "test target Three"]
    #expect(registry.current() === theirs, "a target that made none: the one made last")
  }
}
