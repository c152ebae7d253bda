import Foundation
import StoreConfiguration
import StoreSimulation
import Testing

@testable import StoreCommands

@Suite struct JournalTests {
  let start = Instant(iso8601: "2026-11-22T02:00:00Z")!

  var configurationBytes: [UInt8] {
    [UInt8](FileManager.default.contents(atPath: packageRoot + "/Configs/FoodTruck.storekit")!)
  }

  func folder() throws -> String {
    let path = NSTemporaryDirectory() + "journal-test-\(UUID().uuidString)"
    try FileManager.default.createDirectory(atPath: path, withIntermediateDirectories: true)
    return path
  }

  /// A journaled session with some history, committed to `path`.
  func makeJournal(at path: String, commands: [String]) throws -> [StoreEvent] {
    let header = JournalHeader(
      configurationPath: "Configs/FoodTruck.storekit", configuration: configurationBytes,
      start: start)
    let journal = try Journal.create(at: path, header: header)
    let configuration = StoreKitConfiguration.load(configurationBytes).configuration!
    var journaled = JournaledSession(
      session: Session(configuration: configuration, start: start), journal: journal)
    var events: [StoreEvent] = []
    for line in commands {
      try journaled.apply(try Command.parse(line)!) { events.append($0) }
    }
    try journaled.advanceClock(to: journaled.session.now.adding(milliseconds: 45_000)) {
      events.append($0)
    }
    try journaled.commit()
    return events
  }

  static let history = [
    "buy socialfeed.monthly", "advance 31s", "buy foodtruck.saleshistory", "refund last",
    "set ask-to-buy on", "buy foodtruck.donuts.box quantity=2", "approve last", "finish 0",
  ]

  @Test func replayRebuildsTheSameSession() throws {
    let path = try folder() + "/a.journal"
    _ = try makeJournal(at: path, commands: Self.history)
    let reopened = try JournaledSession(replaying: try Journal.open(at: path, forWriting: false))
    #expect(reopened.session.now == start.adding(milliseconds: 76_000))
    #expect(reopened.session.transactionCount == 5)
    #expect(reopened.session.settings.askToBuyEnabled)
    var direct = Session(
      configuration: StoreKitConfiguration.load(configurationBytes).configuration!, start: start)
    for line in Self.history { try Command.parse(line)!.apply(to: &direct) { _ in } }
    try direct.advance(to: direct.now.adding(milliseconds: 45_000)) { _ in }
    #expect(reopened.session.allTransactions() == direct.allTransactions())
    #expect(reopened.session.subscriptionStatuses() == direct.subscriptionStatuses())
  }

  @Test func theJournalIsTextAHeaderThenOneRecordPerLine() throws {
    let path = try folder() + "/b.journal"
    _ = try makeJournal(at: path, commands: ["buy socialfeed.monthly", "advance 5s"])
    let lines = try String(contentsOfFile: path, encoding: .utf8).split(separator: "\n")
    #expect(lines.count == 4)
    #expect(
      lines[0].hasPrefix(
        #"{"storekeeperJournal":1,"start":"2026-11-22T02:00:00.000Z","firstTransactionID":0,"configurationPath":"Configs/FoodTruck.storekit","configuration":"{\n"#
      ))
    #expect(lines[1] == #"{"at":"2026-11-22T02:00:00.000Z","command":"buy socialfeed.monthly"}"#)
    #expect(lines[2] == #"{"at":"2026-11-22T02:00:00.000Z","command":"advance 5s"}"#)
    #expect(lines[3] == #"{"advance":"2026-11-22T02:00:50.000Z"}"#)
    let attributes = try FileManager.default.attributesOfItem(atPath: path)
    #expect(attributes[.posixPermissions] as? Int == 0o600)
  }

  @Test func aTornLastLineIsMovedAsideAndTheRestReplays() throws {
    let path = try folder() + "/c.journal"
    _ = try makeJournal(at: path, commands: ["buy socialfeed.monthly"])
    let handle = FileHandle(forWritingAtPath: path)!
    handle.seekToEndOfFile()
    handle.write(Data(#"{"at":"2026-11-22T02:00:50.000Z","comm"#.utf8))
    handle.closeFile()
    let readOnly = try Journal.open(at: path, forWriting: false)
    #expect(readOnly.notices.first?.contains("incomplete") == true)
    #expect(!FileManager.default.fileExists(atPath: path + ".torn"))
    let journal = try Journal.open(at: path, forWriting: true)
    #expect(journal.notices.first?.contains("moved to \(path).torn") == true)
    #expect(
      try String(contentsOfFile: path + ".torn", encoding: .utf8)
        == #"{"at":"2026-11-22T02:00:50.000Z","comm"#)
    #expect(try String(contentsOfFile: path, encoding: .utf8).hasSuffix("\"}\n"))
    #expect(try JournaledSession(replaying: journal).session.transactionCount == 2)
  }

  @Test func damageInTheMiddleNamesTheLine() throws {
    let path = try folder() + "/d.journal"
    _ = try makeJournal(at: path, commands: ["buy socialfeed.monthly", "advance 1s"])
    var lines = try String(contentsOfFile: path, encoding: .utf8).components(separatedBy: "\n")
    lines[1] = "garbage"
    try lines.joined(separator: "\n").write(toFile: path, atomically: false, encoding: .utf8)
    #expect(throws: CommandError("\(path):2: not a journal record; the journal is damaged here")) {
      try Journal.open(at: path, forWriting: false)
    }
  }

  @Test func aNewerFormatIsRefused() throws {
    let path = try folder() + "/e.journal"
    try #"{"storekeeperJournal":2,"start":"2026-11-22T02:00:00.000Z"}"#.appending("\n")
      .write(toFile: path, atomically: false, encoding: .utf8)
    do {
      _ = try Journal.open(at: path, forWriting: false)
      Issue.record("a newer journal was accepted")
    } catch {
      #expect(error.message.contains("format 2, newer than this storekeeper understands (1)"))
    }
  }

  @Test func oneWriterAtATime() throws {
    let path = try folder() + "/f.journal"
    _ = try makeJournal(at: path, commands: [])
    let first = try Journal.open(at: path, forWriting: true)
    #expect(
      throws: CommandError(
        "\(path) is in use by another storekeeper; close it, or pick another journal with --journal"
      )
    ) {
      try Journal.open(at: path, forWriting: true)
    }
    _ = first
    #expect(throws: Never.self) { try Journal.open(at: path, forWriting: false) }
  }

  @Test func aRecordThatNoLongerAppliesIsReportedWithItsLine() throws {
    let path = try folder() + "/g.journal"
    _ = try makeJournal(at: path, commands: ["buy socialfeed.monthly"])
    let handle = FileHandle(forWritingAtPath: path)!
    handle.seekToEndOfFile()
    handle.write(Data(#"{"at":"2026-11-22T02:00:50.000Z","command":"refund 99"}"#.utf8 + [0x0A]))
    handle.closeFile()
    do {
      _ = try JournaledSession(replaying: try Journal.open(at: path, forWriting: false))
      Issue.record("replay accepted a record that cannot apply")
    } catch {
      #expect(error.description == "\(path):4: refund 99: there is no transaction 99")
    }
  }

  @Test func configurationChangesReplay() throws {
    let path = try folder() + "/h.journal"
    _ = try makeJournal(at: path, commands: [])
    let journal = try Journal.open(at: path, forWriting: true)
    var journaled = try JournaledSession(replaying: journal)
    var changed = journaled.session.configuration
    changed.products?.removeAll { $0.productID == "foodtruck.donuts.box" }
    journaled.reload(changed, bytes: changed.xcodeFormattedBytes())
    try journaled.commit()
    let replayed = try JournaledSession(replaying: try Journal.open(at: path, forWriting: false))
    #expect(replayed.session.catalog.product("foodtruck.donuts.box")?.isAvailable == false)
  }

  @Test func defaultLocationIsPerConfigurationUnderXDGStateHome() throws {
    let state = try folder()
    let environment = ["XDG_STATE_HOME": state, "HOME": "/nonexistent"]
    let path = try JournalLocation.journalPath(
      forConfiguration: "/x/Configs/FoodTruck.storekit", environment: environment)
    #expect(path.hasPrefix(state + "/storekeeper/FoodTruck-"))
    #expect(path.hasSuffix(".journal"))
    let other = try JournalLocation.journalPath(
      forConfiguration: "/y/Configs/FoodTruck.storekit", environment: environment)
    #expect(path != other)
    let mode =
      try FileManager.default.attributesOfItem(atPath: state + "/storekeeper")[.posixPermissions]
      as? Int
    #expect(mode == 0o700)
  }
}
