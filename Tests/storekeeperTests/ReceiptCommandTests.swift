import Foundation
import StoreTestSupport
import Testing

/// Receipts through the real binary: `storekeeper receipt`, `call receipt` and a signed
/// purchase's receipts, checked by openssl against `storekeeper certificate` and read by
/// Apple's App Store Server Library.
@Suite struct ReceiptCommandTests {
  static let purchases = """
    buy foodtruck.donuts.box
    buy socialfeed.monthly
    advance 31s
    refund last:socialfeed.monthly

    """

  /// A journal in `scratch` made by `run` playing `script` from 2026-11-22T02:00:00Z.
  static func journal(in scratch: SigningScratch, playing script: String) throws -> String {
    let journal = scratch.folder.appendingPathComponent("s.journal").path
    let ran = try scratch.run(
      [
        "run", "Configs/FoodTruck.storekit", "-", "--journal", journal, "--start",
        "2026-11-22T02:00:00Z",
      ], stdin: script)
    #expect(ran.status == 0, "\(ran.stderr)")
    return journal
  }

  /// `openssl cms -verify` of a DER receipt against a PEM CA; its exit status and stderr.
  func opensslVerifies(_ receipt: URL, ca: URL) throws -> (Bool, String) {
    guard
      let result = try? runProcess(
        "/usr/bin/env",
        [
          "openssl", "cms", "-verify", "-inform", "DER", "-in", receipt.path, "-CAfile", ca.path,
          "-out", "/dev/null",
        ])
    else { try Test.cancel("openssl is not installed") }
    return (result.status == 0, result.stderr)
  }

  @Test func theReceiptVerifiesWithOpensslAgainstTheCertificateSelfSignedAndChained() throws {
    let scratch = try SigningScratch()
    defer { try? FileManager.default.removeItem(at: scratch.folder) }
    let journal = try Self.journal(in: scratch, playing: Self.purchases)
    for chain in [false, true] {
      let flags = chain ? ["--chain"] : []
      let der = scratch.folder.appendingPathComponent("receipt\(chain).der")
      let made = try scratch.run(
        ["receipt", "Configs/FoodTruck.storekit", "--journal", journal, "--der"] + flags)
      #expect(made.status == 0, "\(made.stderr)")
      try Data(made.stdoutBytes).write(to: der)
      let ca = scratch.folder.appendingPathComponent("ca\(chain).pem")
      let certificate = try scratch.run(["certificate"] + (chain ? ["--chain", "--root"] : []))
      try certificate.stdout.write(to: ca, atomically: true, encoding: .utf8)
      let (verified, why) = try opensslVerifies(der, ca: ca)
      #expect(verified, "chain \(chain): \(why)")
      let other = try SigningScratch()
      defer { try? FileManager.default.removeItem(at: other.folder) }
      let stranger = scratch.folder.appendingPathComponent("stranger.pem")
      try other.run(["certificate"]).stdout.write(to: stranger, atomically: true, encoding: .utf8)
      #expect(try opensslVerifies(der, ca: stranger).0 == false, "another machine's certificate")
    }
    // Decoded from DER on stdin, with the hash checked for the device it was made for.
    let base64 = try scratch.run(
      [
        "receipt", "Configs/FoodTruck.storekit", "--journal", journal, "--device-id",
        "6F1C3E2A-1B2C-4D5E-8F90-0A1B2C3D4E5F",
      ])
    let decoded = try scratch.run(
      ["decode", "-", "--device-id", "6f1c3e2a-1b2c-4d5e-8f90-0a1b2c3d4e5f"], stdin: base64.stdout)
    #expect(decoded.status == 0, "\(decoded.stderr)")
    let object = try #require(
      JSONSerialization.jsonObject(with: Data(decoded.stdout.utf8)) as? [String: Any])
    #expect(object["signature"] as? String == "valid")
    #expect(object["sha1_hash"] as? String == "matches")
    let types = try #require(object["fieldTypes"] as? [String: Int])
    #expect(types["quantity"] == 1701 && types["in_app"] == 17 && types["bundle_id"] == 2)
    let receipt = try #require(object["receipt"] as? [String: Any])
    let inApp = try #require(receipt["in_app"] as? [[String: Any]])
    #expect(Set(inApp.compactMap { $0["transaction_id"] as? String }) == ["0", "1", "2"])
    #expect(inApp.contains { $0["cancellation_date"] != nil }, "the refunded renewal")
    let wrong = try scratch.run(
      ["decode", "-", "--device-id", "00000000-0000-4000-8000-000000000000"], stdin: base64.stdout)
    #expect(wrong.status == 1 && wrong.stderr.contains("does not match"))
    // Before the session began there is nothing to replay.
    let early = try scratch.run(
      [
        "receipt", "Configs/FoodTruck.storekit", "--journal", journal, "--at",
        "2026-11-22T01:00:00Z",
      ])
    #expect(early.status == 1 && early.stderr.contains("outside the session's history"))
  }

  /// "The receipt the app had then": any moment of the session's history, the journal replayed
  /// to it; the journal itself does not change.
  @Test func aReceiptAsOfAnEarlierMomentListsWhatTheSessionHeldThen() throws {
    let scratch = try SigningScratch()
    defer { try? FileManager.default.removeItem(at: scratch.folder) }
    let journal = try Self.journal(
      in: scratch,
      playing: "buy foodtruck.saleshistory\nadvance 1m\nbuy socialfeed.monthly\nadvance 65s\n")
    let before = try Data(contentsOf: URL(fileURLWithPath: journal))
    func inApp(at instant: String?) throws -> [String] {
      let made = try scratch.run(
        ["receipt", "Configs/FoodTruck.storekit", "--journal", journal]
          + (instant.map { ["--at", $0] } ?? []))
      #expect(made.status == 0, "\(made.stderr)")
      let decoded = try scratch.run(["decode", "-"], stdin: made.stdout)
      let object =
        try JSONSerialization.jsonObject(with: Data(decoded.stdout.utf8)) as? [String: Any]
      let receipt = object?["receipt"] as? [String: Any]
      return (receipt?["in_app"] as? [[String: Any]] ?? []).compactMap {
        $0["transaction_id"] as? String
      }.sorted()
    }
    #expect(try inApp(at: nil) == ["0", "1", "2", "3"])
    #expect(try inApp(at: "2026-11-22T02:00:30Z") == ["0"])
    #expect(try inApp(at: "2026-11-22T02:01:00Z") == ["0", "1"], "the buy at that instant is in")
    #expect(try inApp(at: "2026-11-22T02:01:45Z") == ["0", "1", "2"], "within the advance")
    #expect(try Data(contentsOf: URL(fileURLWithPath: journal)) == before)
  }

  @Test func applesReceiptUtilityReadsTheReceiptsOfAPurchaseAndOfCallReceipt() throws {
    let python = try appleLibrary()
    let scratch = try SigningScratch()
    defer { try? FileManager.default.removeItem(at: scratch.folder) }
    let ran = try scratch.run(
      ["run", "Configs/FoodTruck.storekit", "-", "--sign"],
      stdin: "buy foodtruck.saleshistory\nbuy foodtruck.donuts.box\nfinish 1\ncall receipt\n")
    #expect(ran.status == 0, "\(ran.stderr)")
    let receipts = try jsonLines(ran.stdout).filter { $0["event"] as? String == "receipt" }
    #expect(receipts.map { $0["transactionID"] as? Int } == [0, 1, nil])
    #expect(receipts.last?["inApp"] as? [String] == ["0"], "the finished consumable left it")
    let script = """
      import json, sys
      from appstoreserverlibrary.receipt_utility import ReceiptUtility
      u = ReceiptUtility()
      for line in sys.stdin:
          o = json.loads(line)
          own = o.get("transactionReceipt")
          print(u.extract_transaction_id_from_app_receipt(o["receipt"]),
                own and u.extract_transaction_id_from_transaction_receipt(own))
      """
    let read = try runProcess(
      python, ["-c", script],
      stdin: receipts.map {
        String(decoding: try! JSONSerialization.data(withJSONObject: $0), as: UTF8.self)
      }.joined(separator: "\n") + "\n")
    #expect(read.status == 0, "\(read.stderr)")
    // The app receipt gives "a transaction id from the array"; the purchase's own, its id.
    let lines = read.stdout.split(separator: "\n").map { $0.split(separator: " ").map(String.init) }
    #expect(lines.map { $0.last } == ["0", "1", "None"])
    for (line, receipt) in zip(lines, receipts) {
      #expect((receipt["inApp"] as? [String] ?? []).contains(line[0]), "\(line)")
    }
  }
}
