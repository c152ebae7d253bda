import Foundation
import StoreCommands
import StoreSimulation
import StoreTestSupport
import Testing

@testable import StoreTerminal

/// The inspector's live clock: an offset from the wall clock that commands move, journaled
/// only when something happens, catching up in steps.
@Suite struct ClockTests {
  let configurationPath = packageRoot.appendingPathComponent("Configs/FoodTruck.storekit").path

  var configurationBytes: [UInt8] {
    [UInt8](FileManager.default.contents(atPath: configurationPath)!)
  }

  /// An app over a new journal in a fresh folder, the clock running from `start`.
  func journaledApp(running: Bool = true, offset: Int64 = 0) throws -> (App, String) {
    let path = try temporaryFolder("clock").appendingPathComponent("c.journal").path
    let journal = try openForWriting(
      path,
      header: JournalHeader(
        configurationPath: configurationPath, configuration: configurationBytes, start: start))
    let journaled = try JournaledSession(replaying: journal)
    var app = App(
      journaled: journaled, configurationPath: configurationPath,
      configurationBytes: configurationBytes,
      display: DisplayOptions(color: true, glyphs: .unicode),
      clock: ClockState(running: running, offset: offset))
    app.tick(wall: start.adding(milliseconds: offset))
    return (app, path)
  }

  func lineCount(_ path: String) throws -> Int {
    try String(contentsOfFile: path, encoding: .utf8).split(separator: "\n").count
  }

  @Test func anIdleClockWritesNothingUntilSomethingHappens() throws {
    var (app, path) = try journaledApp()
    app.perform(line: "buy foodtruck.donuts.box")
    let lines = try lineCount(path)
    for second in 1...12 { app.tick(wall: start.adding(milliseconds: Int64(second) * 1000)) }
    #expect(app.session.now == start.adding(milliseconds: 12_000))
    #expect(try lineCount(path) == lines, "an idle second was journaled")
    app.press(.character(" "))  // pause: the clock's position is recorded
    #expect(try lineCount(path) == lines + 1)
    app.press(.character(" "))
    app.prepareToQuit()  // nothing moved since the pause
    #expect(try lineCount(path) == lines + 1)
  }

  @Test func finishingAllGoesOnInStepsWhileTheClockRunsAndReplaysTheSame() throws {
    var (app, path) = try journaledApp()
    app.perform(line: "set time-rate oneRenewalEveryTwoSeconds")
    app.perform(line: "buy socialfeed.monthly")
    // 25,000 unfinished renewals, then F: one step now, the rest a step a frame.
    var wall = start.adding(milliseconds: 50_000_000)
    app.tick(wall: wall)
    while app.catchUp != nil { app.tick(wall: wall) }
    let unfinished = app.session.unfinishedCount
    let boundary = app.session.nextTransactionID
    #expect(unfinished > 2 * InspectorState.finishStep)
    app.perform(line: "finish all")
    #expect(app.session.unfinishedCount == unfinished - InspectorState.finishStep)
    #expect(
      app.message?.text.hasPrefix("finishing all: \(InspectorState.finishStep) of \(unfinished)")
        == true)
    // Commands wait; the clock goes on, and its renewals are left unfinished.
    app.perform(line: "finish 3")
    #expect(app.message?.text.hasPrefix("finish 3: still finishing all transactions") == true)
    var frames = 0
    while app.message?.text.hasPrefix("finished") != true && frames < 10 {
      wall = wall.adding(milliseconds: 3_000)
      app.tick(wall: wall)
      frames += 1
    }
    #expect(app.message?.text == "finished \(unfinished) transactions")
    // Only the renewals made after it started are left unfinished.
    let left = app.session.unfinishedTransactions()
    #expect(!left.isEmpty && left.allSatisfy { $0.id >= boundary })
    #expect(app.table.pendingCounts.unfinished == app.session.unfinishedCount)
    app.prepareToQuit()
    let replayed = try JournaledSession(replaying: try #require(try Journal.read(at: path)))
    #expect(replayed.session.ledgerRows() == app.session.ledgerRows())
    #expect(replayed.session.now == app.session.now)
  }

  @Test func aRenewalFallingDueIsJournaledAndReplays() throws {
    var (app, path) = try journaledApp()
    app.perform(line: "buy socialfeed.monthly")
    let lines = try lineCount(path)
    app.tick(wall: start.adding(milliseconds: 31_000))
    #expect(try lineCount(path) == lines + 1)
    let replayed = try JournaledSession(replaying: try #require(try Journal.read(at: path)))
    #expect(replayed.session.transactionCount == 2)
  }

  @Test func afterAdvanceTheRunningClockRunsOnFromTheNewInstant() throws {
    var (app, _) = try journaledApp()
    app.perform(line: "advance 1d")
    let advanced = start.adding(milliseconds: 86_400_000)
    #expect(app.session.now == advanced)
    app.tick(wall: start.adding(milliseconds: 2_000))
    #expect(app.session.now == advanced.adding(milliseconds: 2_000), "the clock stood still")
    #expect(app.clock.running)
  }

  @Test func nextEventMovesTheOffsetToo() throws {
    var (app, _) = try journaledApp()
    app.perform(line: "buy socialfeed.monthly")
    app.press(.character("n"))
    let jumped = app.session.now
    #expect(jumped == start.adding(milliseconds: 30_000))
    app.tick(wall: start.adding(milliseconds: 1_000))
    #expect(app.session.now == jumped.adding(milliseconds: 1_000))
  }

  @Test func aJournalAheadOfTheWallClockRunsOn() throws {
    // A clock whose session is ahead of the wall clock: offset negative, and time still moves.
    var (app, _) = try journaledApp(offset: -3_600_000)
    app.tick(wall: start.adding(milliseconds: -3_600_000 + 5_000))
    #expect(app.session.now == start.adding(milliseconds: 5_000))
  }

  @Test func aLongCatchUpGoesInStepsAndEndsOnTheNewestRow() throws {
    var (app, path) = try journaledApp()
    app.perform(line: "set time-rate oneRenewalEveryTwoSeconds")
    app.perform(line: "buy socialfeed.monthly")
    app.perform(line: "buy socialfeed.premium.monthly")
    app.perform(line: "finish all")
    // Three weeks pass: about 900,000 renewals per subscription would be far too many, so use a
    // day: 43,200 per subscription.
    let wall = start.adding(milliseconds: 86_400_000)
    var frames = 0
    app.tick(wall: wall)
    while app.catchUp != nil {
      frames += 1
      let screen = app.screen(width: 100, height: 30)
      #expect(screen.contains("Catching up"))
      #expect(screen.contains("renewals"))
      app.tick(wall: wall)
    }
    #expect(frames > 5, "only \(frames) steps")
    #expect(app.session.now == wall)
    #expect(app.message?.text.hasPrefix("caught up to") == true)
    // The table shows the newest transaction, selected.
    #expect(app.table.selectedID == app.table.rows.last?.id)
    let records = try lineCount(path)
    #expect(records > frames / 2, "the steps were not journaled")
    let replayed = try JournaledSession(replaying: try #require(try Journal.read(at: path)))
    #expect(replayed.session.transactionCount == app.session.transactionCount)
  }

  @Test func spaceDuringACatchUpPausesWhereItGotAndQKeepsWhatWasDone() throws {
    var (app, path) = try journaledApp()
    app.perform(line: "set time-rate oneRenewalEveryTwoSeconds")
    app.perform(line: "buy socialfeed.monthly")
    let wall = start.adding(milliseconds: 86_400_000)
    app.tick(wall: wall)
    app.tick(wall: wall)
    #expect(app.catchUp != nil)
    app.handle(.character("b"), wall: wall)
    #expect(app.message?.text.contains("space pauses here, q quits") == true)
    app.handle(.character(" "), wall: wall)
    #expect(app.catchUp == nil)
    #expect(!app.clock.running)
    let reached = app.session.now
    #expect(reached > start && reached < wall)
    app.prepareToQuit()
    let replayed = try JournaledSession(replaying: try #require(try Journal.read(at: path)))
    #expect(replayed.session.now == reached)
    #expect(replayed.session.transactionCount == app.session.transactionCount)
  }
}

@Suite struct AsciiTests {
  @Test func asciiDrawsOnlyASCIIWhateverTheText() {
    var app = makeApp("Everything", display: DisplayOptions(color: false, glyphs: .ascii))
    app.perform(line: "buy everything.coins.100 quantity=2")
    var screens: [String] = []
    for keys in [
      [Key](), [.character("?")], [.escape, .character(":")], [.escape, .character("b")],
    ] {
      for key in keys { app.handle(key, wall: start) }
      screens.append(app.render(width: 120, height: 40, wall: start).text)
    }
    app.perform(line: "set locale ja")
    screens.append(app.render(width: 120, height: 40, wall: start).text)
    for screen in screens {
      let foreign = screen.unicodeScalars.filter { $0.value >= 0x80 }
      #expect(foreign.isEmpty, "non-ASCII: \(String(String.UnicodeScalarView(foreign)))")
    }
    #expect(TextCells.ascii("a → b · c × 2 … ▶ £1") == "a -> b - c x 2 ... > GBP 1")
  }
}
