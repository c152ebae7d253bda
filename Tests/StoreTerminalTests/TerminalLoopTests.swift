import Foundation
import StoreCommands
import StoreConfiguration
import StoreSimulation
import StoreTestSupport
import Testing

@testable import StoreTerminal

/// The inspector's loop without ncurses: an in-memory terminal, a clock the test moves and a
/// configuration file in memory.
@Suite struct TerminalLoopTests {
  /// The app over a journal in a fresh folder, the clock running from `start`.
  func journaledApp() throws -> (App, String) {
    let path = try temporaryFolder("loop").appendingPathComponent("l.journal").path
    let bytes = bundledConfiguration("FoodTruck").path
    let configuration = [UInt8](try Data(contentsOf: bundledConfiguration("FoodTruck")))
    let journal = try openForWriting(
      path,
      header: JournalHeader(configurationPath: bytes, configuration: configuration, start: start))
    let app = App(
      journaled: try JournaledSession(replaying: journal), configurationPath: bytes,
      configurationBytes: configuration, display: DisplayOptions(color: true, glyphs: .unicode),
      clock: ClockState(running: true, offset: start.milliseconds))
    return (app, path)
  }

  static func typing(_ text: String) -> [Key] { text.map { Key.character($0) } }

  @Test func keysBecomeCommandsTheClockTicksRenewalsAndQuittingJournalsTheClock() throws {
    var (app, path) = try journaledApp()
    let clock = ManualClock(Instant(milliseconds: 0))
    let terminal = MemoryTerminal(
      width: 120, height: 32,
      keys: [[.character(":")] + Self.typing("buy socialfeed.monthly") + [.enter]]
        + Array(repeating: [], count: 40),
      clock: clock)
    var file = MemoryFile()
    let signal = TerminalLoop.run(&app, on: terminal, clock: clock, watching: &file)
    #expect(signal == nil)
    #expect(app.wantsToQuit)
    // 41 batches of keys, then q: 42 frames, the loop sleeping up to a second before each read
    // (less before a renewal). The monthly subscription renewed every 30 seconds of it.
    let elapsed = clock.instant.milliseconds
    #expect(elapsed > 30_000 && elapsed <= 42_000, "\(elapsed)")
    #expect(terminal.waits.allSatisfy { (1...1000).contains($0) })
    #expect(
      app.session.transactionCount == 1 + Int(app.session.now.milliseconds - start.milliseconds)
        / 30_000)
    #expect(terminal.frames.count == 42)
    #expect(terminal.screen.contains("socialfeed.monthly"))
    let replayed = try JournaledSession(replaying: try #require(try Journal.read(at: path)))
    #expect(replayed.session.now == app.session.now, "the clock was not journaled at the quit")
    #expect(replayed.session.transactionCount == app.session.transactionCount)
  }

  @Test func ctrlLRepaintsEveryCellAndChangesNothingElse() throws {
    var (app, _) = try journaledApp()
    let clock = ManualClock(Instant(milliseconds: 0))
    let terminal = MemoryTerminal(keys: [[.redraw]], clock: clock)
    var file = MemoryFile()
    _ = TerminalLoop.run(&app, on: terminal, clock: clock, watching: &file)
    #expect(terminal.repaints == 1)
    #expect(terminal.frames.count >= 2 && terminal.frames[0].text == terminal.frames[1].text)
  }

  @Test func aSignalEndsTheLoopAndIsReturned() throws {
    var (app, _) = try journaledApp()
    let clock = ManualClock(Instant(milliseconds: 0))
    let terminal = MemoryTerminal(keys: [[], []], clock: clock)
    terminal.terminationSignal = 15
    var file = MemoryFile()
    #expect(TerminalLoop.run(&app, on: terminal, clock: clock, watching: &file) == 15)
    #expect(terminal.frames.isEmpty)
  }

  @Test func aChangedConfigurationFileIsReloadedAndJournaled() throws {
    var (app, path) = try journaledApp()
    var configuration = StoreKitConfiguration.load(
      contentsOf: bundledConfiguration("FoodTruck").path
    ).configuration!
    configuration.products?.removeAll { $0.productID == "foodtruck.donuts.box" }
    var file = MemoryFile()
    file.pending = configuration.xcodeFormattedBytes()
    let clock = ManualClock(Instant(milliseconds: 0))
    let terminal = MemoryTerminal(width: 120, height: 32, keys: [[]], clock: clock)
    _ = TerminalLoop.run(&app, on: terminal, clock: clock, watching: &file)
    #expect(terminal.frames.first?.text.contains("reloaded") == true)
    #expect(!terminal.screen.contains("Box of Donuts"))
    let replayed = try JournaledSession(replaying: try #require(try Journal.read(at: path)))
    #expect(
      replayed.session.catalog.products.first { $0.productID == "foodtruck.donuts.box" }?
        .isAvailable == false)
  }
}
