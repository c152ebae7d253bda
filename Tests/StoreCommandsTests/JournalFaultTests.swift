import Foundation
import StoreSimulation
import StoreTestSupport
import Testing

@testable import StoreCommands

/// A writer is stopped before every file-system step it makes (creating, appending, moving a
/// torn line aside, starting anew, moving aside for --fresh), as if the process died there.
/// Whatever it left must open, hold every record it reported, and take new records.
@Suite struct JournalFaultTests {
  let start = Instant(iso8601: "2026-11-22T02:00:00Z")!

  var configurationBytes: [UInt8] {
    [UInt8](FileManager.default.contents(atPath: bundledConfiguration("FoodTruck").path)!)
  }

  var header: JournalHeader {
    JournalHeader(
      configurationPath: "Configs/FoodTruck.storekit", configuration: configurationBytes,
      start: start)
  }

  func folder() throws -> String {
    let path = NSTemporaryDirectory() + "journal-fault-\(UUID().uuidString)"
    try FileManager.default.createDirectory(atPath: path, withIntermediateDirectories: true)
    return path
  }

  /// Opens (or creates) the journal with `files` and applies `commands`, committing each; the
  /// ids of the transactions whose commits returned, i.e. those a caller could have shown.
  func write(
    _ commands: [String], to path: String, files: JournalFiles
  ) -> (shown: [UInt64], finished: Bool) {
    var shown: [UInt64] = []
    do {
      let journal = try openForWriting(path, header: header, files: files)
      var journaled = try JournaledSession(replaying: journal)
      for line in commands {
        var created: [UInt64] = []
        try journaled.apply(try Command.parse(line)!) { event in
          if case .transaction(let transaction, _) = event.kind { created.append(transaction.id) }
        }
        try journaled.commit()
        shown += created
      }
      try journaled.apply(
        .advance(.to(journaled.session.now.adding(milliseconds: 40_000))), from: .clock
      ) { _ in }
      journaled.recordClock()
      try journaled.commit()
      return (shown, true)
    } catch {
      return (shown, false)
    }
  }

  /// Reopens with the system's calls: no error, every shown transaction there, and a writer can
  /// go on.
  func expectRecovers(
    _ path: String, shown: [UInt64], step: Int, sourceLocation: SourceLocation = #_sourceLocation
  ) throws {
    let reader = try Journal.read(at: path)
    if let reader { _ = try JournaledSession(replaying: reader) }
    let journal = try openForWriting(path, header: header)
    var journaled = try JournaledSession(replaying: journal)
    let ids = Set(journaled.session.allTransactions().map(\.id))
    #expect(
      Set(shown).isSubset(of: ids), "step \(step): shown \(shown), journaled \(ids.sorted())",
      sourceLocation: sourceLocation)
    try journaled.apply(try Command.parse("buy foodtruck.donuts.box")!) { _ in }
    try journaled.commit()
    let count = journaled.session.transactionCount
    let reread = try #require(try Journal.read(at: path))
    #expect(
      try JournaledSession(replaying: reread).session.transactionCount == count,
      "step \(step): the writer could not go on", sourceLocation: sourceLocation)
  }

  /// Runs `scenario` stopping before step 1, 2, 3 … until it completes without stopping.
  func atEveryStep(
    prepare: (String) throws -> Void = { _ in },
    _ scenario: (String, JournalFiles) -> [UInt64]
  ) throws -> Int {
    var step = 1
    while true {
      let path = try folder() + "/j.journal"
      try prepare(path)
      let plan = FaultPlan(stopAt: step)
      let shown = scenario(path, JournalFiles(faults: plan))
      try expectRecovers(path, shown: shown, step: step)
      if !plan.hasStopped { return step - 1 }
      step += 1
      #expect(step < 500, "the scenario never completes")
      if step >= 500 { return step }
    }
  }

  let commands = [
    "buy foodtruck.donuts.box", "buy socialfeed.monthly", "advance 31s",
    "buy foodtruck.saleshistory",
  ]

  @Test func creatingAndAppendingStoppedAtEveryStepLosesNothingShown() throws {
    let steps = try atEveryStep { path, files in write(commands, to: path, files: files).shown }
    #expect(steps >= 12, "only \(steps) steps were tried")
  }

  @Test func aJournalWithATornLastLineStoppedAtEveryStepOpens() throws {
    let steps = try atEveryStep(prepare: { path in
      _ = write(commands, to: path, files: .system)
      let handle = try #require(FileHandle(forWritingAtPath: path))
      handle.seekToEndOfFile()
      handle.write(Data(#"{"at":"2026-11-22T02:00:50.000Z","comm"#.utf8))
      handle.closeFile()
    }) { path, files in
      write(["buy foodtruck.donuts.box"], to: path, files: files).shown
    }
    #expect(steps >= 6)
  }

  @Test(arguments: [0, 17, 200])
  func aHeaderCutOffStartsAnewAtEveryStep(keptBytes: Int) throws {
    let line = header.line
    let steps = try atEveryStep(prepare: { path in
      FileManager.default.createFile(
        atPath: path, contents: Data(line.prefix(keptBytes)),
        attributes: [.posixPermissions: 0o600])
    }) { path, files in
      write(commands, to: path, files: files).shown
    }
    #expect(steps >= 10)
  }

  @Test func anEmptyJournalFromACutOffCreationStartsAnewAndSaysSo() throws {
    let path = try folder() + "/empty.journal"
    FileManager.default.createFile(atPath: path, contents: Data())
    var told: [String] = []
    #expect(try Journal.read(at: path) { told.append($0) } == nil)
    #expect(told.first?.contains("holds no complete header (0 bytes") == true)
    let journal = try Journal.openOrCreate(at: path, header: header)
    #expect(
      journal.notices.first?.contains("nothing from it was ever shown, so it starts anew") == true)
    #expect(journal.header == header)
  }

  @Test func movingAsideForFreshStoppedAtEveryStepKeepsTheOldJournal() throws {
    var step = 1
    while step < 100 {
      let path = try folder() + "/m.journal"
      let shown = write(commands, to: path, files: .system).shown
      let plan = FaultPlan(stopAt: step)
      _ = try? Journal.setAside(path, files: JournalFiles(faults: plan))
      let kept = String(path.dropLast(8)) + ".1.journal"
      let holders = [path, kept].filter { FileManager.default.fileExists(atPath: $0) }
      #expect(!holders.isEmpty, "step \(step): the journal vanished")
      for holder in holders {
        let journal = try #require(try Journal.read(at: holder))
        let ids = Set(try JournaledSession(replaying: journal).session.allTransactions().map(\.id))
        #expect(Set(shown).isSubset(of: ids), "step \(step): \(holder) lost records")
      }
      try expectRecovers(
        path, shown: FileManager.default.fileExists(atPath: path) ? shown : [], step: step)
      if !plan.hasStopped { break }
      step += 1
    }
    #expect(step > 3)
  }

  @Test func freshTakesTheLockFirst() throws {
    let path = try folder() + "/l.journal"
    _ = write(commands, to: path, files: .system)
    let holder = try Journal.openOrCreate(at: path, header: header)
    #expect(throws: CommandError.self) { try Journal.setAside(path) }
    #expect(FileManager.default.fileExists(atPath: path))
    _ = holder
  }

  @Test func writersCreatingTheSameJournalAtOnceAreToldItIsInUse() throws {
    for _ in 0..<30 {
      let path = try folder() + "/race.journal"
      let results = Results()
      let header = self.header
      DispatchQueue.concurrentPerform(iterations: 4) { _ in
        do {
          results.add(.success(try Journal.openOrCreate(at: path, header: header)))
        } catch let error as CommandError {
          results.add(.failure(error))
        } catch {
          Issue.record("unexpected \(error)")
        }
      }
      let outcomes = results.all
      #expect(outcomes.filter { if case .success = $0 { true } else { false } }.count == 1)
      for case .failure(let error) in outcomes {
        #expect(error.message.contains("is in use by another storekeeper"), "\(error)")
      }
    }
  }

  @Test func aFailedCommitIsCutBackSoALaterOneWritesWhole() throws {
    let path = try folder() + "/c.journal"
    let journal = try Journal.openOrCreate(at: path, header: header)
    var journaled = try JournaledSession(replaying: journal)
    try journaled.apply(try Command.parse("buy foodtruck.donuts.box")!) { _ in }
    try journaled.commit()
    let length = try FileManager.default.attributesOfItem(atPath: path)[.size] as? Int
    // A read-only descriptor in place of the journal's makes the next write fail.
    let failing = Journal(
      path: path, header: journal.header, records: [], notices: [],
      descriptor: open(path, O_RDONLY), writable: true, files: .system, length: length ?? 0)
    failing.append(.command(at: start, text: "buy foodtruck.donuts.box"))
    #expect(throws: CommandError.self) { try failing.commit() }
    #expect(try FileManager.default.attributesOfItem(atPath: path)[.size] as? Int == length)
    #expect(failing.hasPending)
  }
}

/// Outcomes gathered from several threads.
private final class Results: @unchecked Sendable {
  private var outcomes: [Result<Journal, CommandError>] = []
  private let lock = NSLock()
  func add(_ outcome: Result<Journal, CommandError>) { lock.withLock { outcomes.append(outcome) } }
  var all: [Result<Journal, CommandError>] { lock.withLock { outcomes } }
}
