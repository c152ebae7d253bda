import Foundation
import StoreSimulation
import StoreTestSupport
import Testing

@testable import StoreCommands

@Suite struct JournalSnapshotTests {
  let start = Instant(iso8601: "2026-01-01T00:00:00Z")!

  var configurationBytes: [UInt8] {
    [UInt8](FileManager.default.contents(atPath: bundledConfiguration("Everything").path)!)
  }

  /// Tokens, quantities, a storefront change, a refund, a declined Ask to Buy, a failure, an
  /// upgrade, billing retry, a deletion and a finished transaction.
  static let history = [
    "buy everything.pro.monthly token=6f2c1f3e-8f7a-4a43-9a44-1d2b3c4d5e6f", "advance 45s",
    "buy everything.coins.100 quantity=3", "finish last", "set storefront FRA",
    "buy everything.lifetime", "refund last", "set ask-to-buy on", "buy everything.season.pass",
    "decline last", "set ask-to-buy off", "set fail-transactions paymentInvalid",
    "buy everything.stickers", "set fail-transactions off", "buy everything.pro.max.monthly",
    "set billing-retry on", "advance 3m", "delete 1", "buy everything.lite.bimonthly",
  ]

  func journalPath() throws -> String {
    let folder = NSTemporaryDirectory() + "snapshot-test-\(UUID().uuidString)"
    try FileManager.default.createDirectory(atPath: folder, withIntermediateDirectories: true)
    return folder + "/s.journal"
  }

  /// Applies `commands` to the journal at `path` (made when missing) and returns the session.
  @discardableResult
  func write(_ commands: [String], to path: String, reload: Bool = false) throws -> Session {
    let header = JournalHeader(
      configurationPath: "Everything.storekit", configuration: configurationBytes, start: start)
    let journal = try openForWriting(path, header: header)
    var journaled = try JournaledSession(replaying: journal)
    if reload {
      // A reload that removes a product and adds one: the catalog must fold, not restart.
      var changed = journaled.session.configuration
      changed.products?.removeAll { $0.productID == "everything.coins.100" }
      var added = try #require(changed.products?.first { $0.productID == "everything.lifetime" })
      added.productID = "everything.added.later"
      changed.products?.append(added)
      journaled.reload(changed, bytes: changed.xcodeFormattedBytes())
    }
    for line in commands { try journaled.apply(try #require(try Command.parse(line))) { _ in } }
    try journaled.commit()
    return journaled.session
  }

  func listing(_ path: String) throws -> JournalSnapshot.Listing {
    try #require(try JournalSnapshot.listing(ofJournal: path) { Issue.record("told \($0)") })
  }

  /// The snapshot's rows and transactions, one per transaction, as the session gives them.
  func expectSame(_ ledger: LedgerSnapshot, as session: Session) {
    let rows = session.ledgerRows()
    #expect(ledger.count == rows.count)
    #expect(ledger.now == session.now)
    #expect((0..<ledger.count).map(ledger.row) == rows)
    #expect((0..<ledger.count).map(ledger.transaction) == session.allTransactions())
    #expect(ledger.catalog.products.map(\.productID) == session.catalog.products.map(\.productID))
    #expect(
      ledger.catalog.products.map(\.isAvailable) == session.catalog.products.map(\.isAvailable))
  }

  @Test func aSnapshotGivesTheSameRowsAndTransactionsAsTheReplay() throws {
    let path = try journalPath()
    let session = try write(Self.history, to: path)
    // The history reaches every part of the layout.
    let all = session.allTransactions()
    #expect(Set(session.ledgerRows().map(\.state)).isSuperset(of: [.refunded, .declined, .failed]))
    #expect(all.contains { $0.appAccountToken != nil } && all.contains { $0.failure != nil })
    #expect(all.contains { $0.storefront == "FRA" } && all.contains { $0.offer != nil })
    #expect(all.contains(where: \.isFinished) && all.contains { $0.purchasedQuantity == 3 })
    let first = try listing(path)
    #expect(first.source == .replay(wroteSnapshot: true))
    expectSame(first.ledger, as: session)
    let second = try listing(path)
    #expect(second.source == .snapshot)
    expectSame(second.ledger, as: session)
    #expect(second.configuration == configurationBytes)
  }

  @Test func aSnapshotHoldsEveryCustomersTransactionsUnderTheirNames() throws {
    let path = try journalPath()
    var lines = ["buy everything.coins.100"]
    for index in 1...150 {
      lines += ["customer c\(index)", "buy everything.pro.monthly", "advance 10s"]
      if index % 7 == 0 { lines.append("refund last") }
    }
    lines.append("customer c3")
    let session = try write(lines, to: path)
    let first = try listing(path)
    #expect(first.source == .replay(wroteSnapshot: true))
    let second = try listing(path)
    #expect(second.source == .snapshot)
    #expect(second.ledgers.map(\.owner.customer) == session.customers)
    for (customer, ledger) in zip(session.customers, second.ledgers) {
      let theirs = session.view(of: Account(customer: customer))
      #expect((0..<ledger.count).map(ledger.transaction) == theirs.allTransactions())
    }
    #expect(second.ledger.count == 1, "the own customer's, whoever acted last")
    // Where each subscription stands is kept too: the customers' summaries need no replay.
    #expect(second.ledgers.map { $0.customerSummary() } == session.customerSummaries())
    #expect(first.ledgers.map { $0.customerSummary() } == session.customerSummaries())
    #expect(
      Set(session.customerSummaries().map(\.statusName)) == ["none", "subscribed", "revoked"])
  }

  @Test func aSnapshotKeepsTheCatalogOfEveryReload() throws {
    let path = try journalPath()
    try write(["buy everything.coins.100", "buy everything.lifetime"], to: path)
    let session = try write(["buy everything.added.later"], to: path, reload: true)
    #expect(session.catalog.product("everything.coins.100")?.isAvailable == false)
    _ = try listing(path)
    let read = try listing(path)
    #expect(read.source == .snapshot)
    expectSame(read.ledger, as: session)
    #expect(read.configuration == session.configuration.xcodeFormattedBytes())
  }

  @Test func aSnapshotThatDisagreesWithTheJournalIsRebuilt() throws {
    let path = try journalPath()
    try write(Self.history, to: path)
    _ = try listing(path)
    let session = try write(["buy everything.coins.1200", "refund last"], to: path)
    let rebuilt = try listing(path)
    #expect(rebuilt.source == .replay(wroteSnapshot: true))
    expectSame(rebuilt.ledger, as: session)
    #expect(try listing(path).source == .snapshot)
  }

  @Test func aJournalChangedInPlaceToTheSameLengthIsReplayed() throws {
    let path = try journalPath()
    try write(["buy everything.coins.100 quantity=2"], to: path)
    _ = try listing(path)
    // Same length, one digit different, the line's check rewritten: only the fingerprint
    // tells the snapshot is stale.
    let text = try String(contentsOfFile: path, encoding: .utf8)
    let lines = text.split(separator: "\n").map { line -> String in
      guard line.contains("quantity=2") else { return String(line) }
      let object = line.replacingOccurrences(of: "quantity=2", with: "quantity=5")
      let unsealed = object[..<object.range(of: #","check":""#)!.lowerBound] + "}"
      return String(decoding: JournalLine.sealed(Array(unsealed.utf8)).dropLast(), as: UTF8.self)
    }
    let rewritten = lines.joined(separator: "\n") + "\n"
    #expect(rewritten.utf8.count == text.utf8.count && rewritten != text)
    try rewritten.write(toFile: path, atomically: true, encoding: .utf8)
    let changed = try listing(path)
    #expect(changed.source == .replay(wroteSnapshot: true))
    #expect(changed.ledger.transaction(0).purchasedQuantity == 5)
  }

  @Test func aDamagedSnapshotIsIgnoredAndWrittenAgain() throws {
    let path = try journalPath()
    let session = try write(Self.history, to: path)
    _ = try listing(path)
    let snapshotPath = JournalSnapshot.path(forJournal: path)
    let good = [UInt8](try Data(contentsOf: URL(fileURLWithPath: snapshotPath)))
    var damaged = good
    damaged[damaged.count - 30] ^= 0x40
    try Data(damaged).write(to: URL(fileURLWithPath: snapshotPath))
    let reread = try listing(path)
    #expect(reread.source == .replay(wroteSnapshot: true))
    expectSame(reread.ledger, as: session)
    #expect([UInt8](try Data(contentsOf: URL(fileURLWithPath: snapshotPath))) == good)
  }

  @Test func aSnapshotWithAValidCheckButImpossibleContentsIsNotRead() throws {
    let path = try journalPath()
    let session = try write(Self.history, to: path)
    _ = try listing(path)
    let snapshotPath = JournalSnapshot.path(forJournal: path)
    var bytes = [UInt8](try Data(contentsOf: URL(fileURLWithPath: snapshotPath)))
    // The last record's product index points past the catalog; the check is made to agree.
    let record = bytes.count - LedgerSnapshot.recordSize
    bytes[record + 56] = 0xEE
    let bodyStart = "storekeeper ledger snapshot 3\n".utf8.count + 24
    let check = JournalSnapshot.fingerprint(bytes[bodyStart...])
    withUnsafeBytes(of: check.littleEndian) { raw in
      for (offset, byte) in raw.enumerated() { bytes[bodyStart - 8 + offset] = byte }
    }
    try Data(bytes).write(to: URL(fileURLWithPath: snapshotPath))
    let reread = try listing(path)
    #expect(reread.source == .replay(wroteSnapshot: true))
    expectSame(reread.ledger, as: session)
  }

  @Test func aJournalWithATornLastLineGetsNoSnapshot() throws {
    let path = try journalPath()
    let session = try write(Self.history, to: path)
    let handle = try #require(FileHandle(forWritingAtPath: path))
    handle.seekToEndOfFile()
    handle.write(Data("buy everything.li".utf8))
    try handle.close()
    var told: [String] = []
    let read = try #require(try JournalSnapshot.listing(ofJournal: path) { told.append($0) })
    #expect(read.source == .replay(wroteSnapshot: false))
    #expect(told.contains { $0.contains("the last line is incomplete") })
    expectSame(read.ledger, as: session)
    #expect(!FileManager.default.fileExists(atPath: JournalSnapshot.path(forJournal: path)))
  }

  @Test func thereIsNoListingWithoutAJournal() throws {
    let path = try journalPath()
    #expect(try JournalSnapshot.listing(ofJournal: path) { _ in } == nil)
  }
}
