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

  /// Whatever mix of commands, renewals, steps back and copies, the stepped-back session is
  /// the one its timeline gives when replayed from the start, and the journal reopens to it
  /// with the same places to step back to.
  @Test(arguments: 1...6)
  func steppingBackAlwaysEqualsAReplayOfTheTimeline(seed: UInt64) throws {
    let folder = NSTemporaryDirectory() + "step-back-\(UUID().uuidString)"
    try FileManager.default.createDirectory(atPath: folder, withIntermediateDirectories: true)
    defer { try? FileManager.default.removeItem(atPath: folder) }
    let path = folder + "/s.journal"
    var random = seed &* 6_364_136_223_846_793_005 &+ 1
    func next(_ bound: Int) -> Int {
      random = random &* 6_364_136_223_846_793_005 &+ 1_442_695_040_888_963_407
      return Int((random >> 33) % UInt64(bound))
    }
    let moves = [
      "buy socialfeed.monthly", "buy foodtruck.donuts.box", "advance 95s", "advance 10s",
      "advance next", "back", "undo", "back", "refund last", "set ask-to-buy on",
      "set ask-to-buy off", "advance 5m", "buy socialfeed.premium.yearly", "finish all",
    ]
    var session = try journaled(at: path)
    for _ in 0..<120 {
      let line = moves[next(moves.count)]
      _ = try? session.apply(try #require(try Command.parse(line))) { _ in }
    }
    try session.commit()
    var direct = try journaled()
    for entry in session.timeline {
      guard case .command(let at, let text, _) = entry else {
        if case .advance(let to) = entry {
          try direct.apply(.advance(.to(to)), from: .clock) { _ in }
        }
        continue
      }
      if at > direct.session.now { try direct.apply(.advance(.to(at)), from: .clock) { _ in } }
      try direct.apply(try #require(try Command.parse(text))) { _ in }
    }
    #expect(direct.session.ledgerRows() == session.session.ledgerRows())
    #expect(direct.session.subscriptionStatuses() == session.session.subscriptionStatuses())
    #expect(direct.session.now == session.session.now)
    let reopened = try JournaledSession(replaying: try #require(try Journal.read(at: path)))
    #expect(reopened.session.ledgerRows() == session.session.ledgerRows())
    #expect(reopened.timeline == session.timeline)
    for kind in StepBack.allCases {
      #expect(reopened.stepBackTarget(kind) == session.stepBackTarget(kind), "\(kind)")
    }
  }

  /// A step back costs what it takes back, not the length of the history: undoing the last
  /// few of thousands of commands replays a handful of entries.
  @Test func aStepBackReplaysFromTheNearestCopyNotFromTheStart() throws {
    var session = try journaled()
    for index in 0..<1_200 {
      try run([index % 2 == 0 ? "buy foodtruck.donuts.box" : "advance 1s"], on: &session)
    }
    for _ in 0..<40 { try run(["undo"], on: &session) }
    #expect(session.session.transactionCount == 580)
    // From scratch, each undo would replay about 1,200 entries: 48,000 in all.
    #expect(session.history.replayed < 400, "replayed \(session.history.replayed)")
    // Back into one long advance: each step replays a stretch of it, not all of it.
    var long = try journaled()
    try run(["buy socialfeed.monthly", "advance 2h"], on: &long)
    #expect(long.session.transactionCount == 241)
    for _ in 0..<30 { try run(["back"], on: &long) }
    #expect(long.session.transactionCount == 211)
    #expect(long.history.replayed < 30 * 40, "replayed \(long.history.replayed)")
    #expect(
      long.session.ledgerRows()
        == (try direct(["buy socialfeed.monthly", "advance 6329999ms"])).ledgerRows())
  }

  /// The session as it was at an instant of its history, for a receipt "as of then".
  @Test func theSessionAtAnInstantIsTheHistoryReplayedToThen() throws {
    var session = try journaled()
    try run(
      ["buy socialfeed.monthly", "advance 95s", "buy foodtruck.donuts.box", "advance 1m"],
      on: &session)
    let then = try session.session(at: start.adding(milliseconds: 61_000))
    #expect(then.now == start.adding(milliseconds: 61_000))
    #expect(
      then.ledgerRows() == (try direct(["buy socialfeed.monthly", "advance 61s"])).ledgerRows())
    let atTheBuy = try session.session(at: start.adding(milliseconds: 95_000))
    #expect(atTheBuy.transactionCount == 5, "the commands at that instant are in")
    #expect(session.session.transactionCount == 7, "the session itself did not change")
    #expect(throws: CommandError.self) { try session.session(at: start.adding(milliseconds: -1)) }
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

  /// Undo takes a member's joining back whole: their seat, their transaction, the customer.
  @Test func undoTakesAMemberBack() throws {
    var session = try journaled()
    try run(
      ["buy socialfeed.monthly seats=3", "group invite ann", "group invite bob"], on: &session)
    #expect(session.session.seatGroup(ofTransaction: 0)?.memberCount == 2)
    try run(["undo"], on: &session)
    let undone = try direct(["buy socialfeed.monthly seats=3", "group invite ann"])
    #expect(session.session.seatGroup(ofTransaction: 0) == undone.seatGroup(ofTransaction: 0))
    #expect(session.session.customers.map(\.name) == undone.customers.map(\.name))
    #expect(session.session.transactionCountOfEveryCustomer == 2)
    try run(["undo"], on: &session)
    #expect(session.session.seatGroup(ofTransaction: 0)?.memberCount == 0)
    #expect(session.session.customer(named: "ann") == nil)
  }
}
