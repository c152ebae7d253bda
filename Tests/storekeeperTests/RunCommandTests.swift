import Foundation
import StoreTestSupport
import Testing

/// Golden end-to-end tests: each script in `Scripts/` runs through the built binary and its JSON
/// lines must equal the `.jsonl` file beside it. `STOREKEEPER_UPDATE_GOLDEN=1` rewrites them.
@Suite struct RunCommandTests {
  static let scripts = URL(fileURLWithPath: #filePath).deletingLastPathComponent()
    .appendingPathComponent("Scripts")

  static var scriptNames: [String] {
    ((try? FileManager.default.contentsOfDirectory(atPath: scripts.path)) ?? [])
      .filter { $0.hasSuffix(".script") }.sorted()
  }

  @Test(arguments: scriptNames)
  func scriptMatchesItsGoldenOutput(name: String) throws {
    let script = Self.scripts.appendingPathComponent(name)
    let text = try String(contentsOf: script, encoding: .utf8)
    let configuration =
      text.split(separator: "\n").first { $0.hasPrefix("# config: ") }
      .map { String($0.dropFirst(10)) } ?? "Configs/FoodTruck.storekit"
    let expectedStatus: Int32 = text.contains("# exit: 1") ? 1 : 0
    let result = try storekeeper([
      "run", configuration, script.path, "--start", "2026-11-22T02:00:00Z",
    ])
    #expect(result.status == expectedStatus, "\(result.stderr)")
    let golden = Self.scripts.appendingPathComponent(
      name.replacingOccurrences(of: ".script", with: ".jsonl"))
    if ProcessInfo.processInfo.environment["STOREKEEPER_UPDATE_GOLDEN"] == "1" {
      try Data(result.stdoutBytes).write(to: golden)
    }
    let expected = try String(contentsOf: golden, encoding: .utf8)
    #expect(result.stdout == expected)
  }

  @Test func theSameInputsGiveByteIdenticalOutput() throws {
    let script = Self.scripts.appendingPathComponent("offers.script").path
    let arguments = [
      "run", "Configs/Everything.storekit", script, "--start", "2026-11-22T02:00:00Z",
    ]
    #expect(try storekeeper(arguments).stdoutBytes == storekeeper(arguments).stdoutBytes)
  }

  @Test func stdinScriptsAndTheRateOverrideWork() throws {
    let result = try storekeeper(
      [
        "run", "Configs/FoodTruck.storekit", "-", "--start", "2026-11-22T02:00:00Z", "--rate",
        "oneRenewalEveryTenSeconds",
      ],
      stdin: "buy socialfeed.premium.monthly\nadvance next\n")
    #expect(result.status == 0)
    #expect(result.stdout.contains(#""purchaseDate":"2026-11-22T02:00:10.000Z""#))
  }

  @Test func failuresGoToStderrForPeopleAndStdoutAsEvents() throws {
    let result = try storekeeper(
      ["run", "Configs/FoodTruck.storekit", "--start", "2026-11-22T02:00:00Z"],
      stdin: "buy socialfeed.montly\nbuy foodtruck.donuts.box\n")
    #expect(result.status == 1)
    #expect(
      result.stderr.contains(
        #"line 1: buy socialfeed.montly: there is no product "socialfeed.montly" in the configuration (did you mean "socialfeed.monthly""#
      ))
    #expect(result.stdout.split(separator: "\n").count == 1)
    let kept = try storekeeper(
      ["run", "Configs/FoodTruck.storekit", "--start", "2026-11-22T02:00:00Z", "--keep-going"],
      stdin: "buy socialfeed.montly\nbuy foodtruck.donuts.box\n")
    #expect(kept.status == 1)
    #expect(kept.stdout.contains(#""event":"purchaseResult""#))
  }

  @Test func aSessionFailureIsNotACommandError() throws {
    let result = try storekeeper(
      ["run", "Configs/FoodTruck.storekit", "--start", "2026-11-22T02:00:00Z"],
      stdin:
        "set interrupted-purchases on\nbuy foodtruck.donuts.box\nset fail-transactions unknown\nbuy foodtruck.saleshistory\n"
    )
    #expect(result.status == 0)
  }

  @Test func usageErrorsExitWithUsageStatus() throws {
    #expect(try storekeeper(["run"]).status == 64)
    #expect(try storekeeper(["run", "Configs/FoodTruck.storekit", "--start", "soon"]).status == 64)
    #expect(try storekeeper(["run", "Configs/FoodTruck.storekit", "--rate", "warp"]).status == 64)
  }

  @Test func startSetsANewJournalsStartAndIsRefusedForAnExistingOne() throws {
    let folder = try temporaryFolder()
    defer { try? FileManager.default.removeItem(at: folder) }
    let journal = folder.appendingPathComponent("s.journal").path
    let arguments = [
      "run", "Configs/FoodTruck.storekit", "--journal", journal, "--start", "2026-01-01",
    ]
    let first = try storekeeper(arguments, stdin: "buy foodtruck.donuts.box\n")
    #expect(first.status == 0, "\(first.stderr)")
    #expect(first.stdout.contains(#""purchaseDate":"2026-01-01T00:00:00.000Z""#))
    let again = try storekeeper(arguments, stdin: "")
    #expect(again.status == 64)
    #expect(
      again.stderr.contains("--start applies to a new session; \(journal) exists (add --fresh)"))
    #expect(try storekeeper(arguments + ["--fresh"], stdin: "").status == 0)
  }

  @Test func aBrokenConfigurationIsReportedNotSimulated() throws {
    let result = try storekeeper(
      ["run", "Tests/storekeeperTests/Fixtures/Truncated.storekit"], stdin: "")
    #expect(result.status == 1)
    #expect(result.stderr.contains("cannot be simulated"))
  }

  @Test func anAdvanceOverTheEventLimitIsRefused() throws {
    let result = try storekeeper(
      [
        "run", "Configs/FoodTruck.storekit", "--start", "2026-11-22T02:00:00Z", "--max-events",
        "100",
      ],
      stdin: "buy socialfeed.premium.monthly\nadvance 1h\n")
    #expect(result.status == 1)
    #expect(result.stderr.contains("more than 100 events"))
  }
}

/// `--member`: what a family member's device sees, in `run` and `transactions`.
@Suite struct FamilyCommandTests {
  static let script = """
    set time-rate realTime
    buy everything.lifetime
    family join Anna
    buy everything.family.monthly
    advance next
    family leave Anna
    """

  @Test func runWithAMemberPrintsWhatTheirDeviceSees() throws {
    let arguments = ["run", "Configs/Everything.storekit", "-", "--start", "2026-11-22T02:00:00Z"]
    let anna = try storekeeper(arguments + ["--member", "Anna"], stdin: Self.script)
    #expect(anna.status == 0, "\(anna.stderr)")
    let events = try jsonLines(anna.stdout)
    let transactions = events.compactMap { $0["transaction"] as? [String: Any] }
    #expect(transactions.count == 5, "given 3, then 2 revoked: \(transactions)")
    #expect(transactions.allSatisfy { $0["ownershipType"] as? String == "familyShared" })
    #expect(transactions.allSatisfy { $0["member"] as? String == "Anna" })
    #expect(transactions.suffix(2).allSatisfy { $0["revocationType"] as? String == "familyRevoke" })
    #expect(
      events.contains { $0["event"] as? String == "family" && $0["action"] as? String == "leave" })
    #expect(!events.contains { $0["event"] as? String == "purchaseResult" }, "the purchaser's")
    let purchaser = try jsonLines(try storekeeper(arguments, stdin: Self.script).stdout)
    #expect(
      purchaser.compactMap { $0["transaction"] as? [String: Any] }.allSatisfy {
        $0["ownershipType"] as? String == "purchased" && $0["member"] == nil
      })
  }

  @Test func transactionsWithAMemberListsTheirsAndNamesTheFamilyOtherwise() throws {
    let folder = FileManager.default.temporaryDirectory.appendingPathComponent(
      "family-\(UUID().uuidString)")
    try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
    defer { try? FileManager.default.removeItem(at: folder) }
    let journal = folder.appendingPathComponent("session.journal").path
    let applied = try storekeeper(
      ["run", "Configs/Everything.storekit", "-", "--journal", journal], stdin: Self.script)
    #expect(applied.status == 0, "\(applied.stderr)")
    let list = ["transactions", "Configs/Everything.storekit", "--journal", journal]
    let anna = try jsonLines(
      try storekeeper(list + ["--member", "Anna", "--format", "json"]).stdout)
    #expect(
      anna.map { $0["productID"] as? String } == [
        "everything.lifetime", "everything.family.monthly", "everything.family.monthly",
      ])
    #expect(anna.map { $0["ledgerState"] as? String } == ["revoked", "purchased", "revoked"])
    #expect(anna.allSatisfy { $0["ownershipType"] as? String == "familyShared" })
    let purchaser = try jsonLines(try storekeeper(list + ["--format", "json"]).stdout)
    #expect(purchaser.count == 3 && purchaser.allSatisfy { $0["member"] == nil })
    // Her app receipt: her transactions, not the purchaser's.
    let receipt = try storekeeper(
      ["receipt", "Configs/Everything.storekit", "--journal", journal, "--member", "Anna"])
    #expect(receipt.status == 0, "\(receipt.stderr)")
    let decoded = try storekeeper(
      ["decode", receipt.stdout.trimmingCharacters(in: .whitespacesAndNewlines)])
    #expect(decoded.stdout.contains(#""transaction_id" : "1000000000000""#), "\(decoded.stdout)")
    #expect(!decoded.stdout.contains(#""transaction_id" : "0""#))
    let nobody = try storekeeper(list + ["--member", "Zed"])
    #expect(nobody.status == 1)
    #expect(nobody.stderr.contains("nobody of that name was ever in the family"))
    #expect(nobody.stderr.contains("members: Anna"))
  }
}
