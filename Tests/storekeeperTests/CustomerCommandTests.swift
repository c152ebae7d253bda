import Foundation
import StoreTestSupport
import Testing

/// Customers in the command line: `customer` lines in `run`, and `--customer` on `run`,
/// `transactions` and `receipt`.
@Suite struct CustomerCommandTests {
  static let script = """
    set time-rate realTime
    buy everything.lifetime
    customer alice
    buy everything.lifetime
    buy everything.pro.monthly
    customer bob number=7
    buy everything.pro.monthly
    refund last
    customer
    advance 1mo
    """
  static let arguments = [
    "run", "Configs/Everything.storekit", "-", "--start", "2026-11-22T02:00:00Z",
  ]

  @Test func runMarksEachNamedCustomersEventsAndRenewsThemAll() throws {
    let run = try storekeeper(Self.arguments, stdin: Self.script)
    #expect(run.status == 0, "\(run.stderr)")
    let events = try jsonLines(run.stdout)
    let transactions = events.compactMap { event -> (String?, [String: Any])? in
      (event["transaction"] as? [String: Any]).map { (event["customer"] as? String, $0) }
    }
    #expect(transactions.first?.0 == nil, "the own customer's say nothing")
    let alices = transactions.filter { $0.0 == "alice" }.map { $0.1["id"] as? Int }
    #expect(alices.count == 3, "lifetime, monthly and its renewal: \(alices)")
    #expect(alices.first == 140_741_783_322_624)
    let bobs = transactions.filter { $0.0 == "bob" }.compactMap { $0.1["id"] as? Int }
    #expect(bobs.allSatisfy { $0 == 140_737_488_355_328 + 7 << 32 }, "bob is number 7")
    // --customer shows only theirs.
    let bob = try storekeeper(Self.arguments + ["--customer", "bob"], stdin: Self.script)
    #expect(try jsonLines(bob.stdout).allSatisfy { $0["customer"] as? String == "bob" })
  }

  @Test func transactionsAndReceiptShowACustomersStoreAndNameTheCustomersOtherwise() throws {
    let folder = try temporaryFolder()
    defer { try? FileManager.default.removeItem(at: folder) }
    let journal = folder.appendingPathComponent("session.journal").path
    let applied = try storekeeper(
      ["run", "Configs/Everything.storekit", "-", "--journal", journal], stdin: Self.script)
    #expect(applied.status == 0, "\(applied.stderr)")
    let list = ["transactions", "Configs/Everything.storekit", "--journal", journal]
    // Without --customer, every customer's: the own one's unnamed, then each named one's.
    let every = try jsonLines(try storekeeper(list + ["--format", "json"]).stdout)
    #expect(every.first?["id"] as? Int == 0 && every.first?["customer"] == nil)
    #expect(
      every.dropFirst().map { $0["customer"] as? String } == ["alice", "alice", "alice", "bob"])
    let csv = try storekeeper(list + ["--format", "csv"]).stdout
    #expect(csv.hasPrefix("customer,id,"), "\(csv)")
    #expect(csv.contains("\nalice,140741783322624,"))
    let alice = try jsonLines(
      try storekeeper(list + ["--customer", "alice", "--format", "json"]).stdout)
    #expect(alice.count == 3 && alice.allSatisfy { ($0["id"] as? Int ?? 0) > 1 << 47 })
    let filtered = try jsonLines(
      try storekeeper(list + ["--filter", "customer:bob", "--format", "json"]).stdout)
    #expect(filtered.map { $0["ledgerState"] as? String } == ["refunded"])
    let receipt = try storekeeper(
      ["receipt", "Configs/Everything.storekit", "--journal", journal, "--customer", "alice"])
    #expect(receipt.status == 0, "\(receipt.stderr)")
    let decoded = try storekeeper(
      ["decode", receipt.stdout.trimmingCharacters(in: .whitespacesAndNewlines)])
    #expect(decoded.stdout.contains(#""transaction_id" : "140741783322624""#))
    #expect(!decoded.stdout.contains(#""transaction_id" : "0""#))
    let nobody = try storekeeper(list + ["--customer", "carol"])
    #expect(nobody.status == 1)
    #expect(
      nobody.stderr.contains(
        #"--customer carol in \#(journal): there is no customer "carol" (customers: alice, bob)"#),
      "\(nobody.stderr)")
  }

  @Test func badCustomerLinesAreRefusedWithReasons() throws {
    let run = try storekeeper(
      Self.arguments, stdin: "customer alice number=3\ncustomer bob number=3\n")
    #expect(run.status == 1)
    #expect(run.stderr.contains("customer number 3 is alice's; give the new customer another"))
    let badName = try storekeeper(Self.arguments, stdin: "customer \"a b\"\n")
    #expect(badName.stderr.contains("cannot name a customer"))
  }
}
