import Foundation
import StoreTestSupport
import Testing

/// `storekeeper advanced-commerce-request` through the real binary: a request it signs is
/// bought by `run`, one that breaks Apple's rules is refused before signing (exit 1, naming the
/// JSON path) unless `--unchecked`, and a file it cannot read or a configuration without a key
/// says so.
@Suite struct AdvancedCommerceCommandTests {
  static let request =
    #"{"operation":"CREATE_ONE_TIME_CHARGE","version":"1","requestInfo":{"requestReferenceId":"#
    + #""6f1c3e2a-1b2c-4d5e-8f90-0a1b2c3d4e5f"},"currency":"USD","taxCode":"C003-00-1","#
    + #""item":{"SKU":"book","description":"A book","displayName":"Book","price":12990}}"#

  @Test func aSignedRequestIsBoughtByARun() throws {
    let folder = try temporaryFolder()
    defer { try? FileManager.default.removeItem(at: folder) }
    let path = folder.appendingPathComponent("request.json")
    try Data(Self.request.utf8).write(to: path)
    let signed = try storekeeper([
      "advanced-commerce-request", "Configs/FoodTruck.storekit", path.path, "--issued-at",
      "1795312800",
    ])
    try #require(signed.status == 0, "\(signed.stderr)")
    let jws = signed.stdout.trimmingCharacters(in: .whitespacesAndNewlines)
    #expect(jws.split(separator: ".").count == 3)
    let ran = try storekeeper(
      ["run", "Configs/FoodTruck.storekit", "-", "--start", "2026-11-22T02:00:00Z"],
      stdin: "set advanced-commerce com.example.books one-time\n"
        + "buy com.example.books advanced-commerce=\(jws)\n")
    #expect(ran.status == 0, "\(ran.stderr)")
    let events = try jsonLines(ran.stdout)
    let bought = try #require(events.last { $0["event"] as? String == "purchaseResult" })
    #expect(bought["result"] as? String == "success")
    let transaction = try #require(
      events.last { $0["event"] as? String == "transaction" }?["transaction"] as? [String: Any])
    #expect(transaction["price"] as? Double == 12.99)
    #expect(
      (transaction["advancedCommerce"] as? [String: Any])?["items"] as? [String] == [
        "book 12.99"
      ])
  }

  @Test func aRequestThatBreaksApplesRulesIsNotSigned() throws {
    let folder = try temporaryFolder()
    defer { try? FileManager.default.removeItem(at: folder) }
    let path = folder.appendingPathComponent("request.json")
    try Data(Self.request.replacingOccurrences(of: "12990", with: "-1").utf8).write(to: path)
    let refused = try storekeeper(
      ["advanced-commerce-request", "Configs/FoodTruck.storekit", path.path])
    #expect(refused.status == 1)
    #expect(refused.stderr.contains("$.item.price must be 0 or more"), "\(refused.stderr)")
    #expect(refused.stdout.isEmpty)
    let unchecked = try storekeeper(
      ["advanced-commerce-request", "Configs/FoodTruck.storekit", path.path, "--unchecked"])
    #expect(unchecked.status == 0, "\(unchecked.stderr)")
    let missing = try storekeeper(
      ["advanced-commerce-request", "Configs/FoodTruck.storekit", "/nonexistent/request.json"])
    #expect(missing.status == 1 && missing.stderr.contains("cannot read it"))
    let keyless = try storekeeper(
      ["advanced-commerce-request", "Configs/Everything.storekit", path.path, "--unchecked"])
    #expect(keyless.status == 1, "\(keyless.stdout)")
    #expect(keyless.stderr.contains("subscriptionOffersKeyPair"), "\(keyless.stderr)")
  }
}
