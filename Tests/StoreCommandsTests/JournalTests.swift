import Foundation
import StoreConfiguration
import StoreJSON
import StoreSimulation
import StoreTestSupport
import Testing

@testable import StoreCommands

@Suite struct JournalTests {
  let start = Instant(iso8601: "2026-11-22T02:00:00Z")!

  var configurationBytes: [UInt8] {
    [UInt8](FileManager.default.contents(atPath: bundledConfiguration("FoodTruck").path)!)
  }

  func folder() throws -> String {
    let path = NSTemporaryDirectory() + "journal-test-\(UUID().uuidString)"
    try FileManager.default.createDirectory(atPath: path, withIntermediateDirectories: true)
    return path
  }

  var header: JournalHeader {
    JournalHeader(
      configurationPath: "Configs/FoodTruck.storekit", configuration: configurationBytes,
      start: start)
  }

  /// A journaled session with some history, committed to `path`.
  func makeJournal(at path: String, commands: [String]) throws -> [StoreEvent] {
    let journal = try openForWriting(path, header: header)
    let configuration = StoreKitConfiguration.load(configurationBytes).configuration!
    var journaled = JournaledSession(
      session: Session(configuration: configuration, start: start), journal: journal)
    var events: [StoreEvent] = []
    for line in commands {
      try journaled.apply(try Command.parse(line)!) { events.append($0) }
    }
    try journaled.apply(
      .advance(.to(journaled.session.now.adding(milliseconds: 45_000))), from: .clock
    ) { events.append($0) }
    try journaled.commit()
    return events
  }

  static let history = [
    "buy socialfeed.monthly", "advance 31s", "buy foodtruck.saleshistory", "refund last",
    "set ask-to-buy on", "buy foodtruck.donuts.box quantity=2", "approve last", "finish 0",
  ]

  /// A listing replays the journal once and keeps only the session: not the records, marks or
  /// copies a step back needs, so its peak is the session's (the export of 490,000
  /// transactions peaked at 245 MiB keeping them, 126 MiB without).
  @Test func aReplayForReadingKeepsOnlyTheSession() throws {
    let path = try folder() + "/a.journal"
    _ = try makeJournal(at: path, commands: Self.history)
    let journal = try #require(try Journal.read(at: path))
    let kept = try JournaledSession(replaying: try #require(try Journal.read(at: path)))
    let read = try JournaledSession(replaying: journal, keepsHistory: false)
    #expect(read.session.allTransactions() == kept.session.allTransactions())
    #expect(read.session.now == kept.session.now)
    #expect(read.timeline.isEmpty && !kept.timeline.isEmpty)
    #expect(journal.records.isEmpty, "the records were let go")
    #expect(read.stepBackTarget(.event) == nil && kept.stepBackTarget(.event) != nil)
  }

  @Test func replayRebuildsTheSameSession() throws {
    let path = try folder() + "/a.journal"
    _ = try makeJournal(at: path, commands: Self.history)
    let reopened = try JournaledSession(replaying: try #require(try Journal.read(at: path)))
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

  @Test func theJournalIsTextAHeaderThenOneCheckedRecordPerLine() throws {
    let path = try folder() + "/b.journal"
    _ = try makeJournal(at: path, commands: ["buy socialfeed.monthly", "advance 5s"])
    let lines = try String(contentsOfFile: path, encoding: .utf8).split(separator: "\n")
    #expect(lines.count == 4)
    #expect(
      lines[0].hasPrefix(
        #"{"storekeeperJournal":4,"start":"2026-11-22T02:00:00.000Z","firstTransactionID":0,"configurationPath":"Configs/FoodTruck.storekit","configuration":"{\n"#
      ))
    // The check is the CRC-32 of everything before it.
    let members = #"{"at":"2026-11-22T02:00:00.000Z","command":"buy socialfeed.monthly""#
    #expect(lines[1] == members + #","check":""# + crc(members) + #""}"#)
    #expect(
      lines[2].hasPrefix(#"{"at":"2026-11-22T02:00:00.000Z","command":"advance 5s","check":""#))
    #expect(lines[3].hasPrefix(#"{"advance":"2026-11-22T02:00:50.000Z","check":""#))
    let attributes = try FileManager.default.attributesOfItem(atPath: path)
    #expect(attributes[.posixPermissions] as? Int == 0o600)
  }

  /// CRC-32 as eight hex digits, computed bit by bit (independent of the table the journal uses).
  func crc(_ text: String) -> String {
    var crc: UInt32 = 0xFFFF_FFFF
    for byte in text.utf8 {
      crc ^= UInt32(byte)
      for _ in 0..<8 { crc = crc & 1 == 1 ? 0xEDB8_8320 ^ (crc >> 1) : crc >> 1 }
    }
    let hex = String(crc ^ 0xFFFF_FFFF, radix: 16)
    return String(repeating: "0", count: 8 - hex.count) + hex
  }

  @Test func theChecksumIsTheStandardCRC32() {
    // The published check value of CRC-32/ISO-HDLC (zlib's crc32).
    #expect(CRC32.checksum(Array("123456789".utf8)[...]) == 0xCBF4_3926)
  }

  @Test func aTornLastLineIsMovedAsideAndTheRestReplays() throws {
    let path = try folder() + "/c.journal"
    _ = try makeJournal(at: path, commands: ["buy socialfeed.monthly"])
    let handle = FileHandle(forWritingAtPath: path)!
    handle.seekToEndOfFile()
    handle.write(Data(#"{"at":"2026-11-22T02:00:50.000Z","comm"#.utf8))
    handle.closeFile()
    let readOnly = try #require(try Journal.read(at: path))
    #expect(readOnly.notices.first?.contains("incomplete") == true)
    #expect(!FileManager.default.fileExists(atPath: path + ".torn"))
    let journal = try openForWriting(path, header: header)
    #expect(journal.notices.first?.contains("moved to \(path).torn") == true)
    #expect(
      try String(contentsOfFile: path + ".torn", encoding: .utf8)
        == #"{"at":"2026-11-22T02:00:50.000Z","comm"#)
    #expect(try String(contentsOfFile: path, encoding: .utf8).hasSuffix("\"}\n"))
    #expect(try JournaledSession(replaying: journal).session.transactionCount == 2)
  }

  @Test func damageInTheMiddleNamesTheLineAndHowToKeepWhatCameBefore() throws {
    let path = try folder() + "/d.journal"
    _ = try makeJournal(at: path, commands: ["buy socialfeed.monthly", "advance 1s"])
    var lines = try String(contentsOfFile: path, encoding: .utf8).components(separatedBy: "\n")
    lines[2] = "garbage"
    try lines.joined(separator: "\n").write(toFile: path, atomically: false, encoding: .utf8)
    do {
      _ = try Journal.read(at: path)
      Issue.record("a damaged journal was read")
    } catch {
      #expect(error.message.hasPrefix("\(path):3: the journal is damaged here (it has no check)"))
      #expect(error.message.contains("The 1 record before it are intact"))
      #expect(error.message.contains("head -n 2 '\(path).damaged' > '\(path)'"))
    }
  }

  @Test(arguments: [
    ("advance 5s", "advance 9s"), ("2026-11-22T02:00:00", "6026-11-22T02:00:00"),
    ("socialfeed.monthly", "socialfeed.montHly"),
  ])
  func aFlippedCharacterIsRefusedNamingItsLine(from: String, to: String) throws {
    let path = try folder() + "/flip.journal"
    _ = try makeJournal(
      at: path, commands: ["set ask-to-buy on", "buy socialfeed.monthly", "advance 5s"])
    var lines = try String(contentsOfFile: path, encoding: .utf8).components(separatedBy: "\n")
    let target = try #require(lines.indices.dropFirst().last { lines[$0].contains(from) })
    lines[target] = lines[target].replacingOccurrences(of: from, with: to)
    try lines.joined(separator: "\n").write(toFile: path, atomically: false, encoding: .utf8)
    do {
      _ = try Journal.read(at: path)
      Issue.record("a flipped character replayed silently")
    } catch {
      #expect(
        error.message.hasPrefix(
          "\(path):\(target + 1): the journal is damaged here (its check does not match"))
    }
  }

  @Test func aChangedConfigurationCopyInTheHeaderIsRefused() throws {
    let path = try folder() + "/dh.journal"
    _ = try makeJournal(at: path, commands: [])
    var text = try String(contentsOfFile: path, encoding: .utf8)
    text = text.replacingOccurrences(of: "2.99", with: "2.98")
    try text.write(toFile: path, atomically: false, encoding: .utf8)
    do {
      _ = try Journal.read(at: path)
      Issue.record("a header whose configuration copy changed was read")
    } catch {
      #expect(error.message.contains("\(path):1: the journal's header is damaged"))
      #expect(error.message.contains("--fresh"))
    }
  }

  @Test func aFormatOneJournalWithoutChecksStillOpensAndGoesOnChecked() throws {
    let path = try folder() + "/v1.journal"
    var escaped: [UInt8] = []
    JSONWriter.safeString(String(decoding: configurationBytes, as: UTF8.self), to: &escaped)
    let text =
      #"{"storekeeperJournal":1,"start":"2026-11-22T02:00:00.000Z","#
      + #""firstTransactionID":0,"configurationPath":"Configs/FoodTruck.storekit","#
      + #""configuration":"# + String(decoding: escaped, as: UTF8.self) + "}\n"
      + #"{"at":"2026-11-22T02:00:00.000Z","command":"buy socialfeed.monthly"}"# + "\n"
      + #"{"advance":"2026-11-22T02:00:50.000Z"}"# + "\n"
    try text.write(toFile: path, atomically: false, encoding: .utf8)
    let journal = try openForWriting(path, header: header)
    #expect(journal.header.format == 1)
    var journaled = try JournaledSession(replaying: journal)
    #expect(journaled.session.transactionCount == 2)
    try journaled.apply(try #require(try Command.parse("buy foodtruck.donuts.box"))) { _ in }
    try journaled.commit()
    let written = try String(contentsOfFile: path, encoding: .utf8)
    #expect(written.hasPrefix(text))
    #expect(written.hasSuffix("\"}\n") && written.dropFirst(text.count).contains(#""check":""#))
    let reread = try #require(try Journal.read(at: path))
    #expect(try JournaledSession(replaying: reread).session.transactionCount == 3)
  }

  /// A journal of the second format was written when the refund sheet waited for review and an
  /// unpriced increase added 10%: it replays, and goes on, that way.
  @Test func anOlderFormatKeepsTheDefaultsItWasWrittenWith() throws {
    let path = try folder() + "/old.journal"
    var old = header
    old.format = 2
    let records: [JournalRecord] = [
      .command(at: start, text: "buy foodtruck.saleshistory"),
      .command(at: start, text: "call refund-request 0 reason=developerIssue"),
      .command(at: start, text: "buy socialfeed.premium.monthly"),
      .command(at: start, text: "price-increase request 1"),
    ]
    let bytes = old.line + records.flatMap(\.line)
    FileManager.default.createFile(atPath: path, contents: Data(bytes))
    let reopened = try JournaledSession(replaying: try #require(try Journal.read(at: path)))
    #expect(reopened.session.transaction(0)?.hasRefundRequest == true)
    #expect(reopened.session.transaction(0)?.revocationDate == nil)
    #expect(reopened.session.priceIncrease(forGroup: "5F0CA1F0")?.newPrice == 16_490)
    // The same commands in a new journal: refunded at once, the file's price asked.
    let fresh = try folder() + "/new.journal"
    _ = try makeJournal(
      at: fresh,
      commands: records.map { if case .command(_, let text, _) = $0 { text } else { "" } })
    let current = try JournaledSession(replaying: try #require(try Journal.read(at: fresh)))
    #expect(current.session.transaction(0)?.revocationReason == .developerIssue)
    #expect(current.session.priceIncrease(forGroup: "5F0CA1F0")?.newPrice == 14_990)
  }

  @Test func aNewerFormatIsRefused() throws {
    let path = try folder() + "/e.journal"
    try #"{"storekeeperJournal":5,"start":"2026-11-22T02:00:00.000Z"}"#.appending("\n")
      .write(toFile: path, atomically: false, encoding: .utf8)
    do {
      _ = try Journal.read(at: path)
      Issue.record("a newer journal was accepted")
    } catch {
      #expect(error.message.contains("format 5, newer than this storekeeper understands (4)"))
    }
  }

  @Test func oneWriterAtATime() throws {
    let path = try folder() + "/f.journal"
    _ = try makeJournal(at: path, commands: [])
    let first = try openForWriting(path, header: header)
    #expect(
      throws: CommandError(
        "\(path) is in use by another storekeeper; close it, or pick another journal with --journal"
      )
    ) {
      try Journal.openOrCreate(at: path, header: header)
    }
    _ = first
    #expect(throws: Never.self) { try Journal.read(at: path) }
  }

  @Test func aRecordThatNoLongerAppliesIsReportedWithItsLine() throws {
    let path = try folder() + "/g.journal"
    _ = try makeJournal(at: path, commands: ["buy socialfeed.monthly"])
    let handle = FileHandle(forWritingAtPath: path)!
    handle.seekToEndOfFile()
    let record = JournalRecord.command(at: start.adding(milliseconds: 50_000), text: "refund 99")
    handle.write(Data(record.line))
    handle.closeFile()
    let journal = try #require(try Journal.read(at: path))
    do throws(CommandError) {
      _ = try JournaledSession(replaying: journal)
      Issue.record("replay accepted a record that cannot apply")
    } catch {
      #expect(
        error.description.hasPrefix(
          "\(path):4: refund 99: there is no transaction 99. The 2 records before it are intact"))
    }
  }

  @Test func configurationChangesReplay() throws {
    let path = try folder() + "/h.journal"
    _ = try makeJournal(at: path, commands: [])
    let journal = try openForWriting(path, header: header)
    var journaled = try JournaledSession(replaying: journal)
    var changed = journaled.session.configuration
    changed.products?.removeAll { $0.productID == "foodtruck.donuts.box" }
    journaled.reload(changed, bytes: changed.xcodeFormattedBytes())
    try journaled.commit()
    let replayed = try JournaledSession(replaying: try #require(try Journal.read(at: path)))
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
