import Foundation
import StoreTestSupport
import Testing

/// What `simulate` leaves: one JSON-lines file of notifications per run or shard (a numbered
/// file each on request, the same bodies), and nothing that reads as a whole run when it is
/// stopped before its end.
@Suite struct SimulateOutputTests {
  let runs = SimulateCommandTests()

  @Test func notificationsAreOneJSONLinesFilePerRunOrShard() async throws {
    let folder = try temporaryFolder()
    defer { try? FileManager.default.removeItem(at: folder) }
    let whole = folder.appendingPathComponent("whole").path
    let run = try await storekeeperAwaiting(
      SimulateCommandTests.base + ["--notifications", whole, "--format", "json"])
    try #require(run.status == 0, "\(run.stderr)")
    #expect(try FileManager.default.contentsOfDirectory(atPath: whole) == ["notifications.jsonl"])
    let summary = try #require(
      try JSONSerialization.jsonObject(with: Data(run.stdout.utf8)) as? [String: Any])
    let counts = try #require(summary["notifications"] as? [String: Int])
    let lines = try runs.bodies(in: whole)
    #expect(lines.count == counts.values.reduce(0, +), "a line per notification")

    let shard = folder.appendingPathComponent("shard").path
    let second = try await storekeeperAwaiting(
      SimulateCommandTests.base + ["--notifications", shard, "--shard", "2/3"])
    try #require(second.status == 0, "\(second.stderr)")
    #expect(
      try FileManager.default.contentsOfDirectory(atPath: shard)
        == ["notifications-shard-2-of-3.jsonl"])

    // Numbered files on request carry the same notifications (the same payloads, signatures
    // aside).
    let numbered = folder.appendingPathComponent("numbered").path
    let files = try await storekeeperAwaiting(
      SimulateCommandTests.base + ["--notifications", numbered, "--notification-files"])
    try #require(files.status == 0, "\(files.stderr)")
    let names = try FileManager.default.contentsOfDirectory(atPath: numbered)
    #expect(names.count == lines.count && names.allSatisfy { $0.hasSuffix(".json") })
    #expect(
      Set(try runs.bodies(in: numbered).map(runs.decoded))
        == Set(try lines.map(runs.decoded)))

    // A folder that already holds this run's file (or a stopped one's) is refused.
    let again = try await storekeeperAwaiting(
      SimulateCommandTests.base + ["--notifications", whole])
    #expect(again.status == 64)
    #expect(again.stderr.contains("already holds notifications.jsonl"), "\(again.stderr)")
  }

  /// A long run, stopped once its journal and notifications are being written.
  func stoppedRun(
    _ signal: Int32, in folder: URL, extra: [String] = []
  ) async throws -> (status: Int32, stderr: String) {
    let journal = folder.appendingPathComponent("p.journal").path
    let notifications = folder.appendingPathComponent("n").path
    let errors = folder.appendingPathComponent("stderr")
    _ = FileManager.default.createFile(atPath: errors.path, contents: nil)
    let process = Process()
    process.executableURL = productsDirectory.appendingPathComponent("storekeeper")
    process.arguments =
      [
        "simulate", "Configs/FoodTruck.storekit", "--customers", "20000", "--months", "120",
        "--journal", journal, "--notifications", notifications,
      ] + extra
    process.currentDirectoryURL = packageRoot
    process.standardOutput = FileHandle.nullDevice
    process.standardError = try FileHandle(forWritingTo: errors)
    try process.run()
    // Stopped once the first month's end is told: the journal and the notifications have
    // thousands of records by then.
    let deadline = Date().addingTimeInterval(120)
    while Date() < deadline && process.isRunning {
      let said = String(decoding: try Data(contentsOf: errors), as: UTF8.self)
      if said.contains("simulate: month 1 of") { break }
      try await Task.sleep(for: .milliseconds(50))
    }
    kill(process.processIdentifier, signal)
    while process.isRunning { try await Task.sleep(for: .milliseconds(20)) }
    return (
      process.terminationStatus, String(decoding: try Data(contentsOf: errors), as: UTF8.self)
    )
  }

  @Test(.timeLimit(.minutes(3)), arguments: [["--notification-files"], []])
  func aStoppedRunRemovesWhatItWrote(extra: [String]) async throws {
    let folder = try temporaryFolder()
    defer { try? FileManager.default.removeItem(at: folder) }
    let stopped = try await stoppedRun(SIGINT, in: folder, extra: extra)
    #expect(stopped.status == 130, "\(stopped.stderr)")
    #expect(stopped.stderr.contains("simulate: stopped before its end (signal 2)"))
    let left = try FileManager.default.contentsOfDirectory(atPath: folder.path).sorted()
    #expect(left == ["n", "stderr"], "no journal, partial or whole")
    let notifications = folder.appendingPathComponent("n").path
    #expect(try FileManager.default.contentsOfDirectory(atPath: notifications) == [])
  }

  /// A kill the process cannot hear leaves `.partial` names: readers say the journal is
  /// unfinished, and a run by the same names is refused until they are removed.
  @Test(.timeLimit(.minutes(3))) func aKilledRunLeavesPartialNamesThatSaySo() async throws {
    let folder = try temporaryFolder()
    defer { try? FileManager.default.removeItem(at: folder) }
    let killed = try await stoppedRun(SIGKILL, in: folder)
    #expect(killed.status == 9, "\(killed.stderr)")
    let partial = folder.appendingPathComponent("p.journal.partial").path
    #expect(FileManager.default.fileExists(atPath: partial))
    #expect(
      try FileManager.default.contentsOfDirectory(
        atPath: folder.appendingPathComponent("n").path) == ["notifications.jsonl.partial"])
    let listed = try await storekeeperAwaiting([
      "customers", "Configs/FoodTruck.storekit", "--journal", partial,
    ])
    #expect(listed.status == 0)
    #expect(
      listed.stderr.contains("\(partial) is unfinished: a simulate run stopped before its end"),
      "\(listed.stderr)")
    let again = try await storekeeperAwaiting(
      SimulateCommandTests.base + ["--journal", folder.appendingPathComponent("p.journal").path])
    #expect(again.status == 64)
    #expect(again.stderr.contains("\(partial) exists"), "\(again.stderr)")
  }
}
