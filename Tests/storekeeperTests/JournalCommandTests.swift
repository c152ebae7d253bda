import Foundation
import StoreTestSupport
import Testing

@Suite struct JournalCommandTests {
  /// `today`, `7d` and `this-month` are the session's own: the wall clock's day for a session
  /// started at the wall clock, the script's day for one started at `--start`.
  @Test func relativeDateWordsFilterOnTheSessionsOwnDay() throws {
    let folder = try temporaryFolder()
    defer { try? FileManager.default.removeItem(at: folder) }
    func listed(_ journal: String, _ filter: String) throws -> Int {
      let result = try storekeeper([
        "transactions", "Configs/FoodTruck.storekit", "--journal", journal, "--format", "csv",
        "--filter", filter,
      ])
      #expect(result.status == 0, "\(result.stderr)")
      return result.stdout.split(separator: "\n").count - 1
    }
    let secondOfDay = Int(Date().timeIntervalSince1970) % 86_400
    if secondOfDay > 86_400 - 20 { sleep(UInt32(86_400 - secondOfDay + 1)) }
    let live = folder.appendingPathComponent("live.journal").path
    _ = try storekeeper(
      ["run", "Configs/FoodTruck.storekit", "--journal", live],
      stdin: "buy foodtruck.donuts.box\nbuy foodtruck.saleshistory\n")
    for word in ["today", "7d", "this-month", "on:today", "after:12h"] {
      #expect(try listed(live, word) == 2, "\(word)")
    }
    #expect(try listed(live, "yesterday") == 0)
    let scripted = folder.appendingPathComponent("scripted.journal").path
    _ = try storekeeper(
      [
        "run", "Configs/FoodTruck.storekit", "--journal", scripted, "--start",
        "2025-03-10T08:00:00Z",
      ],
      stdin: "buy foodtruck.donuts.box\nadvance 1d\nbuy foodtruck.saleshistory\n")
    #expect(try listed(scripted, "today") == 1)
    #expect(try listed(scripted, "yesterday") == 1)
    #expect(try listed(scripted, "7d") == 2)
    #expect(try listed(scripted, "this-month") == 2)
  }

  @Test func runAppendsToAJournalAndTransactionsReadsIt() throws {
    let folder = try temporaryFolder()
    defer { try? FileManager.default.removeItem(at: folder) }
    let journal = folder.appendingPathComponent("s.journal").path
    let first = try storekeeper(
      ["run", "Configs/FoodTruck.storekit", "--journal", journal],
      stdin: "buy socialfeed.premium.monthly\nadvance 31s\n")
    #expect(first.status == 0)
    let second = try storekeeper(
      ["run", "Configs/FoodTruck.storekit", "--journal", journal],
      stdin: "buy foodtruck.saleshistory\nrefund last\n")
    #expect(second.status == 0)
    #expect(second.stdout.contains(#""id":2"#))
    let table = try storekeeper([
      "transactions", "Configs/FoodTruck.storekit", "--journal", journal, "--format", "table",
    ])
    #expect(table.stdout.contains("foodtruck.saleshistory"))
    #expect(table.stdout.hasSuffix("3 transactions\n"))
    let json = try storekeeper(
      [
        "transactions", "Configs/FoodTruck.storekit", "--journal", journal, "--filter",
        "state:refunded",
      ])
    #expect(json.stdout.split(separator: "\n").count == 1)
    #expect(json.stdout.contains(#""ledgerState":"refunded""#))
    let csv = try storekeeper(
      [
        "transactions", "Configs/FoodTruck.storekit", "--journal", journal, "--format", "csv",
        "--filter", "product:socialfeed",
      ])
    #expect(
      csv.stdout.hasPrefix(
        "id,originalID,productID,productType,purchaseDate,expirationDate,state,finished\n0,0,socialfeed.premium.monthly,"
      ))
    #expect(
      try storekeeper([
        "transactions", "Configs/FoodTruck.storekit", "--journal", journal, "--filter", "stat:x",
      ]).status == 64)
  }

  @Test func freshStartsANewJournalAndKeepsTheOld() throws {
    let folder = try temporaryFolder()
    defer { try? FileManager.default.removeItem(at: folder) }
    let journal = folder.appendingPathComponent("f.journal").path
    _ = try storekeeper(
      ["run", "Configs/FoodTruck.storekit", "--journal", journal],
      stdin: "buy foodtruck.donuts.box\n")
    let result = try storekeeper(
      ["run", "Configs/FoodTruck.storekit", "--journal", journal, "--fresh"],
      stdin: "buy foodtruck.donuts.box\n")
    #expect(result.stderr.contains("the previous journal is kept as \(folder.path)/f.1.journal"))
    #expect(result.stdout.contains(#""id":0"#))
    #expect(
      FileManager.default.fileExists(atPath: folder.appendingPathComponent("f.1.journal").path))
    #expect(
      try storekeeper(["run", "Configs/FoodTruck.storekit", "--fresh"], stdin: "").status == 64)
  }

  @Test func theDefaultJournalLivesUnderXDGStateHome() throws {
    let folder = try temporaryFolder()
    defer { try? FileManager.default.removeItem(at: folder) }
    let result = try storekeeper(
      ["transactions", "Configs/FoodTruck.storekit"], environment: ["XDG_STATE_HOME": folder.path])
    #expect(result.status == 0)
    #expect(result.stderr.contains("no journal at \(folder.path)/storekeeper/FoodTruck-"))
  }

  @Test func aChangedConfigurationIsReportedAndTheJournalsCopyReplays() throws {
    let folder = try temporaryFolder()
    defer { try? FileManager.default.removeItem(at: folder) }
    let configuration = folder.appendingPathComponent("c.storekit")
    try FileManager.default.copyItem(
      at: packageRoot.appendingPathComponent("Configs/FoodTruck.storekit"), to: configuration)
    let journal = folder.appendingPathComponent("c.journal").path
    _ = try storekeeper(
      ["run", configuration.path, "--journal", journal], stdin: "buy foodtruck.donuts.box\n")
    var text = try String(contentsOf: configuration, encoding: .utf8)
    text = text.replacingOccurrences(of: "\"2.99\"", with: "\"3.49\"")
    try text.write(to: configuration, atomically: true, encoding: .utf8)
    let result = try storekeeper(
      ["run", configuration.path, "--journal", journal], stdin: "buy foodtruck.donuts.box\n")
    #expect(result.stderr.contains("changed since the journal last saw it"))
    #expect(result.stdout.contains(#""price":3.49"#))
    let listed = try storekeeper([
      "transactions", configuration.path, "--journal", journal, "--format", "json",
    ])
    #expect(listed.stdout.contains(#""price":2.99"#))
  }

  @Test func exportsStreamInBatchesAndMatchTheSessionLineForLine() throws {
    let folder = try temporaryFolder()
    defer { try? FileManager.default.removeItem(at: folder) }
    let journal = folder.appendingPathComponent("big.journal").path
    // 4,000 transactions: two megabyte batches of JSON lines.
    let run = try storekeeper(
      [
        "run", "Configs/FoodTruck.storekit", "--journal", journal, "--start",
        "2026-01-01T00:00:00Z", "--rate", "oneRenewalEveryTwoSeconds",
      ],
      stdin: "buy socialfeed.monthly\nadvance PT7999S\nrefund 7\n")
    #expect(run.status == 0)
    let json = try storekeeper([
      "transactions", "Configs/FoodTruck.storekit", "--journal", journal, "--format", "json",
    ])
    let lines = json.stdout.split(separator: "\n")
    #expect(json.stdout.utf8.count > 1 << 20)
    #expect(lines.count == 4_000)
    for (index, line) in lines.enumerated() {
      #expect(line.hasPrefix("{\"id\":\(index),"))
      #expect(line.hasSuffix("\"}"))
    }
    #expect(lines[7].contains(#""ledgerState":"refunded""#))
    let csv = try storekeeper([
      "transactions", "Configs/FoodTruck.storekit", "--journal", journal, "--format", "csv",
      "--filter", "state:renewed",
    ])
    let rows = csv.stdout.split(separator: "\n")
    #expect(
      rows.first == "id,originalID,productID,productType,purchaseDate,expirationDate,state,finished"
    )
    // All but the first purchase and the refunded renewal.
    #expect(rows.count == 1 + 3_998)
  }

  @Test func listingFromTheSnapshotPrintsWhatTheReplayPrintsAndFollowsTheJournal() throws {
    let folder = try temporaryFolder()
    defer { try? FileManager.default.removeItem(at: folder) }
    let journal = folder.appendingPathComponent("l.journal").path
    let snapshot = journal + ".snapshot"
    let script = """
      buy socialfeed.monthly
      advance 2m
      buy foodtruck.donuts.box quantity=4
      set ask-to-buy on
      buy foodtruck.saleshistory
      set ask-to-buy off
      refund 2
      """
    _ = try storekeeper(["run", "Configs/FoodTruck.storekit", "--journal", journal], stdin: script)
    let listings = [
      ["--format", "json"], ["--format", "csv"], ["--format", "table"],
      ["--format", "json", "--filter", "state:renewed,refunded"],
      ["--format", "csv", "--filter", "!product:socialfeed"],
    ]
    func list(_ arguments: [String]) throws -> String {
      let result = try storekeeper(
        ["transactions", "Configs/FoodTruck.storekit", "--journal", journal] + arguments)
      #expect(result.status == 0 && result.stderr.isEmpty)
      return result.stdout
    }
    #expect(!FileManager.default.fileExists(atPath: snapshot))
    let replayed = try listings.map { arguments in
      try FileManager.default.removeItemIfPresent(atPath: snapshot)
      return try list(arguments)
    }
    #expect(replayed[0].split(separator: "\n").count > 5)
    #expect(FileManager.default.fileExists(atPath: snapshot))
    #expect(try listings.map(list) == replayed)
    // The journal moves on: the next listing sees it, whatever the snapshot said.
    _ = try storekeeper(
      ["run", "Configs/FoodTruck.storekit", "--journal", journal],
      stdin: "buy foodtruck.donuts.box\n")
    let after = try list(["--format", "csv"])
    #expect(after.split(separator: "\n").count == replayed[1].split(separator: "\n").count + 1)
    try FileManager.default.removeItemIfPresent(atPath: snapshot)
    #expect(try list(["--format", "csv"]) == after)
  }

  @Test func theTableAlignsWideProductIDsInTerminalCells() throws {
    let folder = try temporaryFolder()
    defer { try? FileManager.default.removeItem(at: folder) }
    let configuration = folder.appendingPathComponent("wide.storekit")
    var text = try String(
      contentsOf: packageRoot.appendingPathComponent("Configs/FoodTruck.storekit"), encoding: .utf8)
    text = text.replacingOccurrences(of: "foodtruck.donuts.box", with: "ドーナツ.箱")
    try text.write(to: configuration, atomically: true, encoding: .utf8)
    let journal = folder.appendingPathComponent("wide.journal").path
    _ = try storekeeper(
      ["run", configuration.path, "--journal", journal],
      stdin: "buy ドーナツ.箱\nbuy foodtruck.saleshistory\n")
    let table = try storekeeper([
      "transactions", configuration.path, "--journal", journal, "--format", "table",
    ])
    let lines = table.stdout.split(separator: "\n").map(String.init)
    #expect(lines.count == 4)
    // The cell where the Type column starts is the same on every line, CJK taking two cells.
    func typeColumn(_ line: String) -> Int? {
      guard
        let range = line.range(
          of: #"  (Type|consumable|nonConsumable)"#, options: .regularExpression)
      else { return nil }
      return line[..<range.lowerBound].unicodeScalars.reduce(0) {
        $0 + ((0x3000...0x9FFF).contains($1.value) ? 2 : 1)
      }
    }
    let columns = lines.prefix(3).map(typeColumn)
    #expect(columns.allSatisfy { $0 != nil && $0 == columns[0] }, "\(columns) \(table.stdout)")
  }

  @Test func aSecondWriterIsToldTheJournalIsInUse() throws {
    let folder = try temporaryFolder()
    defer { try? FileManager.default.removeItem(at: folder) }
    let journal = folder.appendingPathComponent("l.journal").path
    _ = try storekeeper(["run", "Configs/FoodTruck.storekit", "--journal", journal], stdin: "")
    let descriptor = open(journal, O_RDWR)
    defer { close(descriptor) }
    #expect(flock(descriptor, LOCK_EX | LOCK_NB) == 0)
    let result = try storekeeper(
      ["run", "Configs/FoodTruck.storekit", "--journal", journal], stdin: "")
    #expect(result.status == 1)
    #expect(result.stderr.contains("is in use by another storekeeper"))
  }
}

extension FileManager {
  fileprivate func removeItemIfPresent(atPath path: String) throws {
    if fileExists(atPath: path) { try removeItem(atPath: path) }
  }
}
