import Foundation
import StoreTestSupport
import Testing

/// `run --journal` is killed with SIGKILL before each of its file-system steps in turn (creating
/// the journal, each write and fsync, moving a journal aside for --fresh): the reopened journal
/// replays, holds every transaction whose events were printed, and takes new commands. The
/// kill comes from the binary itself at the step named by STOREKEEPER_TEST_KILL_AT_FILE_STEP,
/// so every run of this suite tries the same moments.
@Suite struct CrashSafetyTests {
  let lines =
    (0..<24).map { $0 % 6 == 5 ? "advance 3s" : "buy foodtruck.donuts.box quantity=\($0 % 3 + 1)" }
    + ["buy socialfeed.monthly", "advance 95s"]

  /// The ids of the transactions a run printed as purchased or renewed.
  func printedIDs(_ output: String) -> Set<Int> {
    Set(
      output.split(separator: "\n").compactMap { line -> Int? in
        guard line.contains(#""event":"transaction""#), line.contains(#""state":"purchased""#),
          let range = line.range(of: #""id":"#)
        else { return nil }
        return Int(line[range.upperBound...].prefix { $0.isNumber })
      })
  }

  func journaledIDs(_ journal: String) throws -> Set<Int> {
    let listed = try storekeeper(
      ["transactions", "Configs/FoodTruck.storekit", "--journal", journal, "--format", "csv"])
    #expect(listed.status == 0, "\(listed.stderr)")
    return Set(
      listed.stdout.split(separator: "\n").dropFirst().compactMap { Int($0.prefix { $0.isNumber }) }
    )
  }

  /// Runs `arguments` killed at step 1, 2, 3 … until a run completes; `check` sees each killed
  /// run's output. Returns the number of steps.
  func killAtEveryStep(
    _ arguments: (String) -> [String], prepare: (String) throws -> Void = { _ in },
    check: (String, RunResult, Int) throws -> Void
  ) throws -> Int {
    let folder = try temporaryFolder()
    defer { try? FileManager.default.removeItem(at: folder) }
    for step in 1..<400 {
      let journal = folder.appendingPathComponent("s\(step).journal").path
      try prepare(journal)
      let result = try storekeeper(
        arguments(journal), stdin: lines.joined(separator: "\n") + "\n",
        environment: ["STOREKEEPER_TEST_KILL_AT_FILE_STEP": "\(step)"])
      if result.status == 0 { return step - 1 }
      #expect(result.status == SIGKILL, "step \(step): \(result.status) \(result.stderr)")
      try check(journal, result, step)
    }
    Issue.record("the run never completed")
    return 0
  }

  @Test func killedAtEveryStepOfARunNothingPrintedIsLost() throws {
    let steps = try killAtEveryStep({
      ["run", "Configs/FoodTruck.storekit", "-", "--journal", $0]
    }) { journal, result, step in
      let printed = printedIDs(result.stdout)
      guard FileManager.default.fileExists(atPath: journal) else {
        #expect(printed.isEmpty, "step \(step): events printed but no journal")
        return
      }
      let missing = printed.subtracting(try journaledIDs(journal))
      #expect(missing.isEmpty, "step \(step): printed but not journaled: \(missing.sorted())")
      let goOn = try storekeeper(
        ["run", "Configs/FoodTruck.storekit", "--journal", journal],
        stdin: "buy foodtruck.saleshistory\n")
      #expect(goOn.status == 0, "step \(step): \(goOn.stderr)")
    }
    #expect(steps > 2 * lines.count, "only \(steps) steps")
  }

  @Test func killedWhileFreshMovesAJournalAsideItIsKept() throws {
    var kept: Set<Int> = []
    let steps = try killAtEveryStep(
      { ["run", "Configs/FoodTruck.storekit", "-", "--journal", $0, "--fresh"] },
      prepare: { journal in
        let first = try storekeeper(
          ["run", "Configs/FoodTruck.storekit", "--journal", journal],
          stdin: "buy foodtruck.donuts.box\nbuy foodtruck.saleshistory\n")
        kept = printedIDs(first.stdout)
      }
    ) { journal, _, step in
      let aside = String(journal.dropLast(8)) + ".1.journal"
      let holders = [journal, aside].filter { FileManager.default.fileExists(atPath: $0) }
      let found = try holders.map { try journaledIDs($0) }
      #expect(
        found.contains { kept.isSubset(of: $0) },
        "step \(step): the old journal's transactions are nowhere: \(found)")
    }
    #expect(steps > 5)
  }
}
