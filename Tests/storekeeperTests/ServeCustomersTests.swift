import Foundation
import StoreTestSupport
import Testing

/// A backend's test with many customers against the real `storekeeper serve`: two customers
/// subscribe to the same product, one is refunded, and Apple's library reads each one's data
/// by their own ids.
@Suite(.serialized) struct ServeCustomersTests {
  @Test func twoCustomersOneRefundedAreReadApartThroughApplesLibrary() throws {
    let python = try appleLibrary()
    let keyFolder = try temporaryFolder()
    defer { try? FileManager.default.removeItem(at: keyFolder) }
    let (server, backend, keyPath, token) = try serveForAppleLibrary(python, keys: keyFolder)
    defer { backend.stop() }
    func post(
      _ lines: [String], query: String = ""
    ) throws -> (status: Int, headers: [String: String], body: String) {
      try httpRequest(
        port: server.port, "POST", "/storekeeper/v1/commands\(query)",
        body: lines.joined(separator: "\n"), bearer: token)
    }
    let alice = try post(["customer alice", "buy socialfeed.monthly"])
    // ?customer= acts as a customer a line made; Bob is made by his line.
    let bob = try post(["customer bob", "buy socialfeed.monthly", "refund last"])
    let again = try post(["advance 31s"], query: "?customer=alice")
    #expect(alice.status == 200 && bob.status == 200 && again.status == 200)
    #expect(again.body.split(separator: "\n").allSatisfy { $0.contains(#""customer":"alice""#) })
    let unknown = try post(["advance 1s"], query: "?customer=carol")
    #expect(unknown.status == 404 && unknown.body.contains("customers: alice, bob"))
    func firstID(_ answer: (status: Int, headers: [String: String], body: String)) throws -> String
    {
      try #require(answer.body.firstMatch(of: /"transaction":\{"id":([0-9]+)/)?.output.1)
        .description
    }
    let aliceID = try firstID(alice)
    let bobID = try firstID(bob)
    let script = packageRoot.appendingPathComponent(
      "Tests/storekeeperTests/Python/customers_client.py")
    let run = try runProcess(
      python, [script.path, "http://127.0.0.1:\(server.port)", keyPath, aliceID, bobID])
    try #require(run.status == 0, "customers_client.py failed: \(run.stderr)")
    let seen = try #require(
      try JSONSerialization.jsonObject(with: Data(run.stdout.utf8)) as? [String: [String: Any]])
    let a = try #require(seen["alice"])
    let b = try #require(seen["bob"])
    let aStatuses = try #require(a["statuses"] as? [[String: Any]])
    let bStatuses = try #require(b["statuses"] as? [[String: Any]])
    #expect(aStatuses.map { $0["status"] as? Int } == [1], "Alice keeps access")
    #expect(bStatuses.map { $0["status"] as? Int } == [5], "Bob's was revoked")
    #expect(aStatuses.first?["appTransactionId"] as? String == "704000000000001001")
    #expect(bStatuses.first?["appTransactionId"] as? String == "704000000000002001")
    let aHistory = try #require(a["history"] as? [String])
    #expect(aHistory.count == 2 && aHistory.first == aliceID, "her purchase and its renewal")
    #expect(b["history"] as? [String] == [bobID])
    #expect(a["historyV1"] as? [String] == aHistory, "v1 reads Alice's history too")
    #expect(b["historyV1"] as? [String] == [bobID])
    #expect(a["appTransactionIds"] as? [String] == ["704000000000001001"])
    #expect(a["refunds"] as? [String] == [])
    #expect(b["refunds"] as? [String] == [bobID])
    let aNotes = try #require(a["notifications"] as? [[String: Any]])
    let bNotes = try #require(b["notifications"] as? [[String: Any]])
    #expect(aNotes.map { $0["type"] as? String } == ["SUBSCRIBED:INITIAL_BUY", "DID_RENEW"])
    #expect(bNotes.map { $0["type"] as? String } == ["SUBSCRIBED:INITIAL_BUY", "REFUND"])
    #expect(bNotes.allSatisfy { $0["transaction"] as? String == bobID })
    #expect(server.stop() == 0)
  }
}
