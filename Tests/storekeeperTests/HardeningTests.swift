import Foundation
import StoreTestSupport
import Testing

/// One test per defect of "never lose, refuse or silently fail", through the real binary.
@Suite struct HardeningTests {
  let binary = productsDirectory.appendingPathComponent("storekeeper").path

  /// Runs a shell line with `$SK` naming the binary, in the package root.
  func shell(_ line: String, environment: [String: String] = [:]) throws -> RunResult {
    try runProcess(
      "/bin/sh", ["-c", line], environment: ["SK": binary].merging(environment) { $1 })
  }

  func journalLines(_ path: String) throws -> [Substring] {
    try String(contentsOfFile: path, encoding: .utf8).split(separator: "\n")
  }

  // MARK: 1. Journal creation

  @Test func anEmptyJournalLeftByACutOffCreationOpensAndSaysSo() throws {
    let folder = try temporaryFolder()
    defer { try? FileManager.default.removeItem(at: folder) }
    let journal = folder.appendingPathComponent("empty.journal").path
    FileManager.default.createFile(atPath: journal, contents: Data())
    let listed = try storekeeper([
      "transactions", "Configs/FoodTruck.storekit", "--journal", journal,
    ])
    #expect(listed.status == 0, "\(listed.stderr)")
    #expect(listed.stderr.contains("holds no complete header (0 bytes"))
    let run = try storekeeper(
      ["run", "Configs/FoodTruck.storekit", "--journal", journal],
      stdin: "buy foodtruck.donuts.box\n")
    #expect(run.status == 0, "\(run.stderr)")
    #expect(run.stderr.contains("nothing from it was ever shown, so it starts anew"))
    #expect(try journalLines(journal).count == 2)
  }

  @Test func aHeaderCutShortIsKeptAsideAndTheJournalStartsAnew() throws {
    let folder = try temporaryFolder()
    defer { try? FileManager.default.removeItem(at: folder) }
    let journal = folder.appendingPathComponent("torn.journal").path
    try #"{"storekeeperJournal":2,"start":"2026-11-22T0"#.write(
      toFile: journal, atomically: false, encoding: .utf8)
    let run = try storekeeper(
      ["run", "Configs/FoodTruck.storekit", "--journal", journal],
      stdin: "buy foodtruck.donuts.box\n")
    #expect(run.status == 0, "\(run.stderr)")
    #expect(FileManager.default.fileExists(atPath: journal + ".torn"))
    #expect(try journalLines(journal).count == 2)
  }

  // MARK: 2 and 9. Output that cannot be written

  @Test func withoutATemporaryFolderEveryEventIsPrinted() throws {
    let script = "buy socialfeed.monthly\nadvance 1d\n"
    let plain = try storekeeper(
      ["run", "Configs/FoodTruck.storekit", "--start", "2026-11-22T02:00:00Z"], stdin: script)
    let withoutTemp = try storekeeper(
      ["run", "Configs/FoodTruck.storekit", "--start", "2026-11-22T02:00:00Z"], stdin: script,
      environment: ["TMPDIR": "/nonexistent"])
    #expect(withoutTemp.status == 0)
    // More than a few batches of output (a megabyte each).
    #expect(plain.stdout.utf8.count > 2 << 20)
    #expect(withoutTemp.stdout == plain.stdout)
  }

  @Test(arguments: [
    "run Configs/FoodTruck.storekit --start 2026-11-22T02:00:00Z",
    "validate Configs/FoodTruck.storekit",
    "format Configs/FoodTruck.storekit", "transactions Configs/FoodTruck.storekit --journal J",
    "certificate", "certificate --der", "app-transaction", "--help", "run --help",
    "decode D", "notify test --notifications N",
  ])
  func aFullOrClosedStandardOutputIsAnErrorNotACrash(arguments: String) throws {
    let folder = try temporaryFolder()
    defer { try? FileManager.default.removeItem(at: folder) }
    let journal = folder.appendingPathComponent("j.journal").path
    _ = try storekeeper(
      ["run", "Configs/FoodTruck.storekit", "--journal", journal],
      stdin: "buy foodtruck.donuts.box\n",
      environment: ["XDG_STATE_HOME": folder.path])
    let jws = try storekeeper(["app-transaction"], environment: ["XDG_STATE_HOME": folder.path])
      .stdout.trimmingCharacters(in: .whitespacesAndNewlines)
    let line = arguments.replacingOccurrences(of: " J", with: " '\(journal)'")
      .replacingOccurrences(of: " D", with: " '\(jws)'")
      .replacingOccurrences(of: " N", with: " '\(folder.path)/n'")
    let environment = ["XDG_STATE_HOME": folder.path]
    for (target, reason) in [
      ("> /dev/full", "No space left on device"), (">&-", "it is closed"),
    ] {
      let result = try shell(
        "printf 'buy foodtruck.donuts.box\\n' | $SK \(line) \(target)", environment: environment)
      #expect(result.status == 1, "\(line) \(target): \(result.status) \(result.stderr)")
      #expect(
        result.stderr.contains("cannot write to standard output: \(reason)"),
        "\(line) \(target): \(result.stderr)")
    }
  }

  @Test func writesPastTheFileSizeLimitAreAnError() throws {
    let result = try shell(
      "ulimit -f 1; printf 'buy socialfeed.monthly\\nadvance 1d\\n' | "
        + "$SK run Configs/FoodTruck.storekit > \"$TMPDIR_OUT\"",
      environment: ["TMPDIR_OUT": NSTemporaryDirectory() + "limit-\(UUID().uuidString)"])
    #expect(result.status == 1, "\(result.stderr)")
    #expect(result.stderr.contains("cannot write to standard output: File too large"))
  }

  @Test func aReaderThatGoesAwayEndsTheRunQuietly() throws {
    let result = try shell(
      "printf 'buy socialfeed.monthly\\nadvance 1d\\n' | ($SK run Configs/FoodTruck.storekit; "
        + "echo \"run=$?\" >&2) | head -n 2 > /dev/null")
    #expect(result.stderr == "run=141\n", "\(result.stderr)")
  }

  // MARK: 3. What was written reads back

  @Test func aJournalWrittenWithAHigherEventLimitReadsBack() throws {
    let folder = try temporaryFolder()
    defer { try? FileManager.default.removeItem(at: folder) }
    let journal = folder.appendingPathComponent("big.journal").path
    let script = "buy socialfeed.monthly\nadvance 2h\n"
    let refused = try storekeeper(
      ["run", "Configs/FoodTruck.storekit", "--max-events", "200"], stdin: script)
    #expect(refused.status == 1)
    #expect(refused.stderr.contains("more than 200 events"))
    let written = try storekeeper(
      ["run", "Configs/FoodTruck.storekit", "--journal", journal, "--max-events", "2000"],
      stdin: script)
    #expect(written.status == 0, "\(written.stderr)")
    let reread = try storekeeper(
      ["run", "Configs/FoodTruck.storekit", "--journal", journal, "--max-events", "200"], stdin: "")
    #expect(reread.status == 0, "\(reread.stderr)")
    let listed = try storekeeper(
      ["transactions", "Configs/FoodTruck.storekit", "--journal", journal, "--format", "csv"])
    #expect(listed.status == 0)
    #expect(listed.stdout.split(separator: "\n").count > 100)
  }

  // MARK: 8. Numbers too big

  @Test(arguments: [
    "advance 99999999999999w", "advance PT99999999999999999999S", "advance 99999999999999mo",
    "advance 9999999999999y", "buy foodtruck.donuts.box quantity=99999999999999 from=store",
    "advance 9000y",
  ])
  func aNumberTooBigIsACommandErrorNamingTheLimit(line: String) throws {
    let result = try storekeeper(
      ["run", "Configs/FoodTruck.storekit", "--start", "2026-11-22T02:00:00Z"], stdin: line + "\n")
    #expect(result.status == 1, "\(line): status \(result.status)")
    #expect(result.stdout.contains(#""event":"error""#))
    #expect(
      result.stderr.contains("10000 years") || result.stderr.contains("1000000")
        || result.stderr.contains("9999-12-31T23:59:59.999Z"), "\(result.stderr)")
  }

  // MARK: 10. Notification files

  @Test func notificationFilesPastTheSizeLimitAreReportedNotNamed() throws {
    let folder = try temporaryFolder()
    defer { try? FileManager.default.removeItem(at: folder) }
    // The keys are made first; then files may hold 512 bytes, less than a signed notification
    // (standard output goes through a pipe, which has no size limit).
    let result = try shell(
      "$SK certificate > /dev/null && (ulimit -f 1; printf 'buy foodtruck.saleshistory\\n' | "
        + "$SK run Configs/FoodTruck.storekit --notifications '\(folder.path)/n' | "
        + "grep -c '\"file\"'; $SK notify test --notifications '\(folder.path)/t' | grep -c wrote; "
        + "echo \"test=$?\")",
      environment: ["XDG_STATE_HOME": folder.path])
    #expect(
      result.stderr.contains("cannot write the notification \(folder.path)/n/0001-"),
      "\(result.stderr)")
    #expect(result.stderr.contains("File too large"))
    #expect(result.stdout == "0\n0\ntest=1\n", "\(result.stdout)")
  }

  // MARK: 11. --fresh and the lock

  @Test func freshDoesNotMoveAJournalAnotherProcessIsWriting() throws {
    let folder = try temporaryFolder()
    defer { try? FileManager.default.removeItem(at: folder) }
    let journal = folder.appendingPathComponent("held.journal").path
    _ = try storekeeper(
      ["run", "Configs/FoodTruck.storekit", "--journal", journal],
      stdin: "buy foodtruck.donuts.box\n")
    let descriptor = open(journal, O_RDWR)
    defer { close(descriptor) }
    #expect(flock(descriptor, LOCK_EX | LOCK_NB) == 0)
    let result = try storekeeper(
      ["run", "Configs/FoodTruck.storekit", "--journal", journal, "--fresh"], stdin: "")
    #expect(result.status == 1)
    #expect(result.stderr.contains("is in use by another storekeeper"))
    #expect(
      !FileManager.default.fileExists(atPath: folder.appendingPathComponent("held.1.journal").path))
  }

  // MARK: 14. Integrity

  @Test func aFlippedDigitInAJournalIsRefusedWithTheLineAndARecovery() throws {
    let folder = try temporaryFolder()
    defer { try? FileManager.default.removeItem(at: folder) }
    let journal = folder.appendingPathComponent("flip.journal").path
    _ = try storekeeper(
      ["run", "Configs/FoodTruck.storekit", "--journal", journal],
      stdin: "buy socialfeed.monthly\nadvance 2m\nbuy foodtruck.donuts.box\n")
    var text = try String(contentsOfFile: journal, encoding: .utf8)
    text = text.replacingOccurrences(of: "advance 2m", with: "advance 6m")
    try text.write(toFile: journal, atomically: false, encoding: .utf8)
    let result = try storekeeper(
      ["run", "Configs/FoodTruck.storekit", "--journal", journal], stdin: "")
    #expect(result.status == 1)
    #expect(result.stderr.contains("\(journal):3: the journal is damaged here"))
    let recovery = try #require(result.stderr.range(of: "to go on from them: "))
    let command = String(result.stderr[recovery.upperBound...]).trimmingCharacters(
      in: .whitespacesAndNewlines)
    #expect(try shell(command).status == 0)
    let after = try storekeeper(
      ["transactions", "Configs/FoodTruck.storekit", "--journal", journal, "--format", "csv"])
    #expect(after.status == 0, "\(after.stderr)")
    #expect(after.stdout.split(separator: "\n").count == 2)
  }

  // MARK: 15. Smaller

  @Test func anUnreadableJournalIsAnErrorNotAnEmptyList() throws {
    let folder = try temporaryFolder()
    defer { try? FileManager.default.removeItem(at: folder) }
    let result = try storekeeper(
      ["transactions", "Configs/FoodTruck.storekit", "--journal", folder.path])
    #expect(result.status == 1)
    #expect(result.stderr.contains("cannot read the journal \(folder.path): Is a directory"))
    #expect(!result.stderr.contains("nothing to list"))
  }

  @Test func formatInPlaceWritesThroughASymbolicLink() throws {
    let folder = try temporaryFolder()
    defer { try? FileManager.default.removeItem(at: folder) }
    let target = folder.appendingPathComponent("real.storekit")
    let source = try String(
      contentsOf: packageRoot.appendingPathComponent("Configs/FoodTruck.storekit"), encoding: .utf8)
    try source.replacingOccurrences(of: "  ", with: "    ").write(
      to: target, atomically: true, encoding: .utf8)
    let link = folder.appendingPathComponent("link.storekit")
    try FileManager.default.createSymbolicLink(at: link, withDestinationURL: target)
    let result = try storekeeper(["format", "-i", link.path])
    #expect(result.status == 0, "\(result.stderr)")
    #expect(
      try FileManager.default.destinationOfSymbolicLink(atPath: link.path) == target.path)
    #expect(try String(contentsOf: target, encoding: .utf8) == source)
  }

  @Test func decodeRefusesStandardBase64() throws {
    let folder = try temporaryFolder()
    defer { try? FileManager.default.removeItem(at: folder) }
    let jws = try storekeeper(["app-transaction"], environment: ["XDG_STATE_HOME": folder.path])
      .stdout.trimmingCharacters(in: .whitespacesAndNewlines)
    #expect(
      try storekeeper(["decode", jws], environment: ["XDG_STATE_HOME": folder.path]).status == 0)
    let parts = jws.split(separator: ".").map(String.init)
    let standard =
      parts[0] + "."
      + parts[1].replacingOccurrences(of: "-", with: "+")
      .replacingOccurrences(of: "_", with: "/") + "==" + "." + parts[2]
    let result = try storekeeper(["decode", standard])
    #expect(result.status == 1)
    #expect(result.stderr.contains("the payload is not base64url"))
  }
}
