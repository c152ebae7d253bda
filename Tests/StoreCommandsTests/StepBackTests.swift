import Foundation
import StoreConfiguration
import StoreSimulation
import StoreTestSupport
import Testing

@testable import StoreCommands

/// Stepping back: `back` to before the last event, `undo` to before the last command, by
/// replay, journaled as its own record.
@Suite struct StepBackTests {
  let start = Instant(iso8601: "2026-11-22T02:00:00Z")!

  var configurationBytes: [UInt8] {
    [UInt8](FileManager.default.contents(atPath: bundledConfiguration("FoodTruck").path)!)
  }

  func journaled(at path: String? = nil) throws -> JournaledSession {
    let configuration = StoreKitConfiguration.load(configurationBytes).configuration!
    guard let path else {
      return JournaledSession(
        session: Session(configuration: configuration, start: start), journal: nil)
    }
    let header = JournalHeader(
      configurationPath: "FoodTruck.storekit", configuration: configurationBytes, start: start)
    return try JournaledSession(replaying: try openForWriting(path, header: header))
  }

  func run(_ lines: [String], on session: inout JournaledSession) throws {
    for line in lines { try session.apply(try #require(try Command.parse(line))) { _ in } }
  }

  /// The session a plain replay of `lines` gives: what stepping back must equal.
  func direct(_ lines: [String]) throws -> Session {
    var session = try journaled()
    try run(lines, on: &session)
    return session.session
  }

  @Test func backGoesBeforeEachRenewalInTurnDownToTheStart() throws {
    var session = try journaled()
    try run(["buy socialfeed.monthly", "advance 95s"], on: &session)
    #expect(session.session.transactionCount == 4)
    try run(["back"], on: &session)
    #expect(session.session.transactionCount == 3)
    #expect(session.session.now == start.adding(milliseconds: 89_999))
    try run(["back"], on: &session)
    #expect(session.session.transactionCount == 2)
    #expect(
      session.session.ledgerRows()
        == (try direct(["buy socialfeed.monthly", "advance 59999ms"])).ledgerRows())
    try run(["back", "back"], on: &session)
    #expect(session.session.transactionCount == 0)
    #expect(throws: CommandError.self) { try run(["back"], on: &session) }
  }

  @Test func undoTakesBackTheLastCommandWithWhatFollowedIt() throws {
    var session = try journaled()
    try run(
      ["buy socialfeed.monthly", "set ask-to-buy on", "buy foodtruck.donuts.box"], on: &session)
    try run(["undo"], on: &session)
    #expect(session.session.transactionCount == 1)
    #expect(session.session.settings.askToBuyEnabled, "only the last command is taken back")
    try run(["undo"], on: &session)
    #expect(!session.session.settings.askToBuyEnabled)
    try run(["buy foodtruck.saleshistory"], on: &session)
    #expect(
      session.session.ledgerRows()
        == (try direct(["buy socialfeed.monthly", "buy foodtruck.saleshistory"])).ledgerRows())
  }

  @Test func aStepBackIsJournaledAndTheJournalReopensThere() throws {
    let folder = NSTemporaryDirectory() + "step-back-\(UUID().uuidString)"
    try FileManager.default.createDirectory(atPath: folder, withIntermediateDirectories: true)
    let path = folder + "/s.journal"
    var session = try journaled(at: path)
    try run(
      [
        "buy socialfeed.monthly", "advance 2m", "back", "back", "buy foodtruck.donuts.box", "undo",
        "buy foodtruck.saleshistory",
      ], on: &session)
    try session.commit()
    let text = try String(contentsOfFile: path, encoding: .utf8)
    #expect(text.components(separatedBy: "\"rewind\"").count - 1 == 3, "nothing deleted")
    #expect(text.contains("buy foodtruck.donuts.box"))
    let reopened = try JournaledSession(replaying: try #require(try Journal.read(at: path)))
    #expect(reopened.session.ledgerRows() == session.session.ledgerRows())
    #expect(reopened.session.now == session.session.now)
    #expect(reopened.timeline == session.timeline)
    // And it goes on stepping back after reopening (for writing, once the first lets go).
    let count = session.session.transactionCount
    session = try journaled()
    var again = try journaled(at: path)
    try run(["undo"], on: &again)
    #expect(again.session.transactionCount == count - 1)
  }

  @Test func aSessionHandedOverWithAHistoryCannotStepBack() throws {
    let configuration = StoreKitConfiguration.load(configurationBytes).configuration!
    var session = Session(configuration: configuration, start: start)
    try session.buy("foodtruck.donuts.box", PurchaseOptions()) { _ in }
    var journaled = JournaledSession(session: session, journal: nil)
    #expect(throws: CommandError.self) { try run(["back"], on: &journaled) }
    #expect(Command.stepBack(.event).description == "back")
    #expect(try Command.parse("undo") == .stepBack(.command))
  }
}
