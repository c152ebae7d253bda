import Foundation
import StoreTestSupport
import Testing

/// `storekeeper customers` and `transactions` over a population's journal, through the real
/// binary: every customer listed with their status, filters that narrow, an unknown name
/// refused, and a second listing read from the snapshot the first one saved.
@Suite struct CustomersCommandTests {
  /// A 60-customer, 4-month population's journal in `folder`.
  func population(in folder: URL) throws -> String {
    let journal = folder.appendingPathComponent("population.journal").path
    let run = try storekeeper([
      "simulate", "Configs/FoodTruck.storekit", "--customers", "60", "--months", "4", "--seed",
      "11", "--journal", journal,
    ])
    try #require(run.status == 0, "\(run.stderr)")
    return journal
  }

  @Test func everyCustomerIsListedWithAStatusInStoreKitsWords() throws {
    let folder = try temporaryFolder()
    defer { try? FileManager.default.removeItem(at: folder) }
    let journal = try population(in: folder)
    let base = ["customers", "Configs/FoodTruck.storekit", "--journal", journal]
    let lines = try jsonLines(try storekeeper(base + ["--format", "json"]).stdout)
    #expect(lines.count == 60, "the own customer, who bought nothing, is left out")
    let words: Set = ["subscribed", "expired", "inBillingRetryPeriod", "inGracePeriod", "revoked"]
    #expect(lines.allSatisfy { words.contains($0["status"] as? String ?? "") })
    #expect(Set(lines.compactMap { $0["customer"] as? String }).count == 60)
    #expect(lines.allSatisfy { ($0["revenue"] as? [String: Any]) != nil && $0["since"] != nil })
    // Each customer's count of transactions is what `transactions --customer` lists.
    for line in lines.prefix(5) {
      let name = try #require(line["customer"] as? String)
      let listed = try jsonLines(
        try storekeeper([
          "transactions", "Configs/FoodTruck.storekit", "--journal", journal, "--customer", name,
          "--format", "json",
        ]).stdout)
      #expect(listed.count == line["transactions"] as? Int, "\(name)")
      #expect(listed.allSatisfy { $0["customer"] as? String == name })
      #expect(
        listed.contains {
          String(describing: $0["id"]!) == line["originalTransactionID"] as? String
        })
    }
    // A filter narrows by status; the statuses of the kept ones say so.
    let expired = try jsonLines(
      try storekeeper(base + ["--filter", "status:exp", "--format", "json"]).stdout)
    #expect(!expired.isEmpty && expired.count < 60)
    #expect(expired.allSatisfy { $0["status"] as? String == "expired" })
    let others = try jsonLines(
      try storekeeper(base + ["--filter", "!status:expired", "--format", "json"]).stdout)
    #expect(expired.count + others.count == 60)
    let table = try storekeeper(base + ["--format", "table"]).stdout
    #expect(table.hasPrefix("Customer  Storefront"), "\(table.prefix(200))")
    #expect(table.hasSuffix("60 customers\n"))
  }

  @Test func anUnknownCustomerOrFilterIsRefusedNamingIt() throws {
    let folder = try temporaryFolder()
    defer { try? FileManager.default.removeItem(at: folder) }
    let journal = try population(in: folder)
    let base = ["customers", "Configs/FoodTruck.storekit", "--journal", journal]
    let nobody = try storekeeper(base + ["--customer", "c999999"])
    #expect(nobody.status == 1)
    #expect(
      nobody.stderr.contains(#"--customer c999999 in \#(journal): there is no customer "c999999""#))
    let one = try jsonLines(try storekeeper(base + ["--customer", "c000007"]).stdout)
    #expect(one.map { $0["customer"] as? String } == ["c000007"])
    // A --journal that names nothing is a mistake, said with its path (issue 51, item 14).
    for command in ["customers", "transactions", "receipt"] {
      let none = try storekeeper([
        command, "Configs/FoodTruck.storekit", "--journal", journal + ".missing",
      ])
      #expect(none.status == 1 && none.stdout.isEmpty, "\(command)")
      #expect(
        none.stderr.contains("--journal \(journal).missing: no such file"), "\(none.stderr)")
    }
    let bad = try storekeeper(base + ["--filter", "status:happy"])
    #expect(bad.status == 64)
    #expect(bad.stderr.contains("unknown status \"happy\""), "\(bad.stderr)")
  }

  @Test func everyCustomersTransactionsAreListedAndTheSecondListingReadsTheSnapshot() throws {
    let folder = try temporaryFolder()
    defer { try? FileManager.default.removeItem(at: folder) }
    let journal = try population(in: folder)
    let list = [
      "transactions", "Configs/FoodTruck.storekit", "--journal", journal, "--format", "json",
    ]
    let first = try storekeeper(list)
    #expect(FileManager.default.fileExists(atPath: journal + ".snapshot"))
    let second = try storekeeper(list)
    #expect(first.stdout == second.stdout)
    let lines = try jsonLines(first.stdout)
    #expect(Set(lines.compactMap { $0["customer"] as? String }).count == 60)
    #expect(lines.allSatisfy { $0["customer"] != nil }, "the own customer has none")
    let customers = try jsonLines(
      try storekeeper(["customers", "Configs/FoodTruck.storekit", "--journal", journal]).stdout)
    #expect(lines.count == customers.reduce(0) { $0 + ($1["transactions"] as? Int ?? 0) })
    let bob = try jsonLines(try storekeeper(list + ["--customer", "c000042"]).stdout)
    #expect(
      bob.map { String(describing: $0["id"]!) }
        == lines.filter { $0["customer"] as? String == "c000042" }.map {
          String(describing: $0["id"]!)
        })
  }
}
