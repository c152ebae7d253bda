import Foundation
import StoreTestSupport
import Testing

/// The Advanced Commerce API end to end: a backend signs in-app requests with Apple's
/// `AdvancedCommerceAPIInAppSignatureCreator`, the app buys them, the backend drives the six
/// server endpoints with Apple's request models against `storekeeper serve`, and verifies every
/// answer and every notification with Apple's verifier.
@Suite(.serialized) struct AdvancedCommerceRoundTripTests {
  @Test func applesLibraryDrivesTheWholeRoundTrip() throws {
    let python = try appleLibrary()
    let folder = try temporaryFolder()
    defer { try? FileManager.default.removeItem(at: folder) }
    let (server, backend, keyPath, token) = try servedBackend(python, keys: folder)
    defer { backend.stop() }
    let (root, offerKey) = try backendSecrets(server, in: folder)
    let keyID = try #require(
      try String(
        contentsOf: packageRoot.appendingPathComponent("Configs/FoodTruck.storekit"),
        encoding: .utf8
      ).firstMatch(of: /"subscriptionOffersKeyPair" : \{\s*"id" : "([0-9A-F]+)"/)?.output.1)
    let script = packageRoot.appendingPathComponent(
      "Tests/storekeeperTests/Python/commerce_client.py")
    let run = try runProcess(
      python,
      [
        script.path, "http://127.0.0.1:\(server.port)", keyPath, root.path, token,
        offerKey.path, String(keyID),
      ])
    try #require(run.status == 0, "commerce_client.py failed: \(run.stderr)\n\(server.stderr)")
    let seen = try #require(
      try JSONSerialization.jsonObject(with: Data(run.stdout.utf8)) as? [String: Any])
    #expect((seen["controlErrors"] as? [Any])?.isEmpty == true, "\(seen["controlErrors"] ?? "")")
    try checkAnswers(seen)
    try checkNotifications(backend.bodies, server: server, folder: folder)
    #expect(server.stop() == 0)
  }

  private func checkAnswers(_ seen: [String: Any]) throws {
    let errors = try #require(seen["errors"] as? [String: Any])
    #expect(errors["staleToken"] as? [Int] == [400, 4_000_082])
    #expect(errors["notAdvancedCommerce"] as? [Int] == [403, 4_030_010])
    #expect(errors["migratedTwice"] as? [Int] == [400, 4_000_176])
    #expect(errors["unknownTransaction"] as? [Int] == [404, 4_040_010])
    func part(_ name: String, _ side: String) -> [String: Any]? {
      (seen[name] as? [String: Any])?[side] as? [String: Any]
    }
    let modified = try #require(part("price", "transaction"))
    #expect(modified["price"] as? Int == 500, "the prorated price of the item added")
    let increase = try #require(part("price", "renewal")?["items"] as? [[Any]])
    #expect(increase.first?[2] as? String == "SCHEDULED")
    #expect(part("metadata", "transaction")?["displayName"] as? String == "News Max")
    #expect(part("cancel", "renewal")?["autoRenew"] as? Int == 0)
    let renewed = try #require(seen["renewed"] as? [String: Any])
    #expect(renewed["price"] as? Int == 5490 + 1990 + 990, "the new price, the offer spent")
    #expect(part("refund", "transaction")?["revoked"] as? Bool == true)
    let migrated = try #require(part("migrated", "transaction")?["items"] as? [[Any]])
    #expect(migrated.first?.first as? String == "feed")
    #expect(part("revoke", "transaction")?["revoked"] as? Bool == true)
    #expect(part("revoke", "renewal")?["autoRenew"] as? Int == 0)
  }

  /// Every notification verifies with Apple's library, each of the kinds the round trip causes.
  private func checkNotifications(
    _ bodies: [String], server: ServeProcess, folder: URL
  ) throws {
    let pem = folder.appendingPathComponent("root.pem")
    let certificate = try storekeeper(
      ["certificate", "--root"], environment: ["XDG_STATE_HOME": server.folder.path])
    try Data(certificate.stdout.utf8).write(to: pem)
    let verified = try verifyWithAppleLibrary(bodies, environment: "Sandbox", root: pem)
    #expect(verified.allSatisfy { $0["error"] == nil }, "\(verified)")
    let types = verified.compactMap { $0["notificationType"] as? String }
    for type in [
      "SUBSCRIBED", "DID_CHANGE_RENEWAL_PREF", "PRICE_CHANGE", "METADATA_UPDATE",
      "DID_CHANGE_RENEWAL_STATUS", "DID_RENEW", "ONE_TIME_CHARGE", "REFUND", "MIGRATION",
    ] {
      #expect(types.contains(type), "\(type) in \(types)")
    }
    let priceChange = try #require(
      verified.first { $0["notificationType"] as? String == "PRICE_CHANGE" })
    let renewal = try #require(priceChange["renewal"] as? [String: Any])
    let info = try #require(renewal["advancedCommerceInfo"] as? [String: Any])
    #expect(info["consistencyToken"] is String)
    let items = try #require(info["items"] as? [[String: Any]])
    #expect(items.contains { $0["priceIncreaseInfo"] != nil }, "\(items)")
  }
}
