import Foundation
import StoreTestSupport
import Testing

/// `storekeeper simulate`: a population through the real binary, its journal and notification
/// files; the same seed twice, and two shards against one run.
@Suite struct SimulateCommandTests {
  static let base = [
    "simulate", "Configs/FoodTruck.storekit", "--customers", "40", "--months", "3", "--seed", "5",
    "--environment", "LocalTesting",
  ]

  /// Runs `simulate` with a journal and notification files in `folder/name`.
  func simulate(
    _ extra: [String] = [], in folder: URL, as name: String
  ) throws -> (summary: String, journal: Data, payloads: Set<String>) {
    let journal = folder.appendingPathComponent("\(name).journal").path
    let files = folder.appendingPathComponent(name).path
    let run = try storekeeper(
      Self.base + extra + ["--journal", journal, "--notifications", files, "--format", "json"])
    try #require(run.status == 0, "\(run.stderr)")
    #expect(run.stderr.contains("simulate: month 3 of 3 (2026-04-01)"), "the progress line")
    return (
      run.stdout, try Data(contentsOf: URL(fileURLWithPath: journal)),
      Set(try bodies(in: files).map { try decoded($0) })
    )
  }

  /// The signed payloads of every body in `folder`: each line of its JSON-lines files, each
  /// numbered file.
  func bodies(in folder: String) throws -> [String] {
    var payloads: [String] = []
    for name in try FileManager.default.contentsOfDirectory(atPath: folder).sorted() {
      let data = try Data(contentsOf: URL(fileURLWithPath: folder + "/" + name))
      let lines = name.hasSuffix(".jsonl") ? data.split(separator: UInt8(ascii: "\n")) : [data]
      for line in lines {
        let body = try #require(try JSONSerialization.jsonObject(with: line) as? [String: Any])
        #expect(body.keys.sorted() == ["signedPayload"], "the body as the App Store POSTs it")
        payloads.append(try #require(body["signedPayload"] as? String))
      }
    }
    return payloads
  }

  /// A JWS's payload with every JWS inside it decoded too, as sorted JSON: what it says, its
  /// signatures left out.
  func decoded(_ jws: String) throws -> String {
    func open(_ value: Any) throws -> Any {
      if let text = value as? String, text.split(separator: ".").count == 3, text.hasPrefix("ey") {
        return try open(try payload(text))
      }
      if let object = value as? [String: Any] { return try object.mapValues(open) }
      if let array = value as? [Any] { return try array.map(open) }
      return value
    }
    let data = try JSONSerialization.data(withJSONObject: try open(jws), options: .sortedKeys)
    return String(decoding: data, as: UTF8.self)
  }

  func payload(_ jws: String) throws -> Any {
    var part = String(jws.split(separator: ".")[1])
      .replacingOccurrences(of: "-", with: "+").replacingOccurrences(of: "_", with: "/")
    while part.count % 4 != 0 { part += "=" }
    return try JSONSerialization.jsonObject(with: try #require(Data(base64Encoded: part)))
  }

  @Test func theSameSeedMakesTheSameJournalAndNotifications() throws {
    let folder = try temporaryFolder()
    defer { try? FileManager.default.removeItem(at: folder) }
    let first = try simulate(in: folder, as: "first")
    let again = try simulate(in: folder, as: "again")
    #expect(first.journal == again.journal, "the journal, byte for byte")
    #expect(first.payloads == again.payloads && first.summary == again.summary)
    let summary = try #require(
      try JSONSerialization.jsonObject(with: Data(first.summary.utf8)) as? [String: Any])
    #expect(summary["customers"] as? Int == 40)
    let counts = try #require(summary["notifications"] as? [String: Int])
    #expect(counts.values.reduce(0, +) == first.payloads.count)
    #expect(counts["SUBSCRIBED-INITIAL_BUY"] == 40)
    // The journal is a session like any other: a customer's transactions list from it.
    let listed = try storekeeper([
      "transactions", "Configs/FoodTruck.storekit", "--journal",
      folder.appendingPathComponent("first.journal").path, "--customer", "c000001", "--format",
      "json",
    ])
    let rows = try jsonLines(listed.stdout)
    #expect(listed.status == 0 && !rows.isEmpty, "\(listed.stderr)")
  }

  @Test func twoShardsMakeExactlyTheNotificationsOfOneRun() throws {
    let folder = try temporaryFolder()
    defer { try? FileManager.default.removeItem(at: folder) }
    let whole = try simulate(in: folder, as: "whole")
    let one = try simulate(["--shard", "1/2"], in: folder, as: "one")
    let two = try simulate(["--shard", "2/2"], in: folder, as: "two")
    #expect(one.payloads.isDisjoint(with: two.payloads))
    #expect(one.payloads.union(two.payloads) == whole.payloads, "every payload, UUIDs included")
    #expect(whole.payloads.count > 80)
    let uuids = whole.payloads.compactMap {
      $0.firstMatch(of: /"notificationUUID":"([0-9a-f-]{36})"/)?.output.1
    }
    #expect(Set(uuids).count == whole.payloads.count)
  }

  /// The progress line counts the notifications made by each month's end, whether or not they
  /// are signed yet (signing runs behind the population, a batch at a time).
  @Test func theProgressLineCountsWhatWasMadeWithOrWithoutSigning() throws {
    let folder = try temporaryFolder()
    defer { try? FileManager.default.removeItem(at: folder) }
    func progress(_ extra: [String]) throws -> [String] {
      let run = try storekeeper(Self.base + extra)
      try #require(run.status == 0, "\(run.stderr)")
      // "…: 40 customers, 97 notifications, 0.1 s": all but the seconds.
      return run.stderr.split(separator: "\n").filter { $0.hasPrefix("simulate: month") }
        .map {
          String($0.prefix { $0 != "," }) + ($0.split(separator: ",").dropFirst().first ?? "")
        }
    }
    let counted = try progress([])
    let signed = try progress(["--notifications", folder.appendingPathComponent("n").path])
    #expect(counted.count == 3 && counted == signed, "\(counted) \(signed)")
    let bodies = try bodies(in: folder.appendingPathComponent("n").path)
    #expect(signed.last?.hasSuffix(" \(bodies.count) notifications") == true, "\(signed)")
  }

  /// A notification file that cannot be written (here: files may not pass 2 KB) is told, with
  /// how many were not, and the exit status is 1; the summary is still printed.
  @Test func notificationFilesThatCannotBeWrittenAreToldAndFailTheRun() throws {
    let folder = try temporaryFolder()
    defer { try? FileManager.default.removeItem(at: folder) }
    let files = folder.appendingPathComponent("n").path
    let binary = productsDirectory.appendingPathComponent("storekeeper").path
    // SIGXFSZ ignored, so that a write past the limit fails with EFBIG instead of killing.
    let run = try runProcess(
      "/bin/sh",
      ["-c", "trap '' XFSZ; ulimit -f 4; exec \"$0\" \"$@\"", binary] + Self.base
        + ["--notification-files", "--notifications", files])
    #expect(run.status == 1, "\(run.stderr)")
    #expect(run.stderr.contains("cannot write the notification \(files)/0001-"), "\(run.stderr)")
    #expect(
      run.stderr.contains(
        " notifications could not be signed or written to --notifications \(files)"))
    #expect(run.stdout.hasPrefix("customers       40"), "the summary still comes")
  }

  @Test func badInputIsRefusedWithWhatIsWrong() throws {
    let shard = try storekeeper(Self.base + ["--shard", "3/2"])
    #expect(shard.status == 64 && shard.stderr.contains("--shard must be i/n with 1 ≤ i ≤ n"))
    let folder = try temporaryFolder()
    defer { try? FileManager.default.removeItem(at: folder) }
    let model = folder.appendingPathComponent("model.json")
    try Data(#"{"storefronts": [{"storefront": "USA", "weight": "a lot"}]}"#.utf8).write(to: model)
    let bad = try storekeeper(Self.base + ["--model", model.path])
    #expect(bad.status == 1)
    #expect(
      bad.stderr.contains(
        "\(model.path): storefronts[0].weight: a number above 0 and at most 1000000, not a string"))
    let none = try storekeeper(Self.base + ["--customers", "0"])
    #expect(none.status == 64 && none.stderr.contains("--customers must be 1 to"))
  }

  /// A start whose months end past the latest instant is refused at once (it spun for good).
  @Test(.timeLimit(.minutes(1))) func aRunEndingPastTheLatestInstantIsRefused() throws {
    let late = try storekeeper([
      "simulate", "Configs/FoodTruck.storekit", "--customers", "2", "--months", "1", "--start",
      "9999-12-10T00:00:00Z",
    ])
    #expect(late.status == 64)
    #expect(late.stderr.contains("past 9999-12-31T23:59:59.999Z"), "\(late.stderr)")
  }

  /// A folder holding another run's notifications (a killed run's, run again as is) is refused:
  /// the same seed would write every one of them a second time.
  @Test func aFolderHoldingARunsNotificationsIsRefused() throws {
    let folder = try temporaryFolder()
    defer { try? FileManager.default.removeItem(at: folder) }
    let files = folder.appendingPathComponent("n")
    try FileManager.default.createDirectory(at: files, withIntermediateDirectories: true)
    try Data("{}".utf8).write(to: files.appendingPathComponent("14399-DID_RENEW.json"))
    let again = try storekeeper(
      Self.base + ["--notification-files", "--notifications", files.path])
    #expect(again.status == 64)
    #expect(again.stderr.contains("already holds 1 notification files (up to number 14399)"))
  }
}
