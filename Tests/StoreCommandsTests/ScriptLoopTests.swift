import StoreConfiguration
import StoreSimulation
import StoreTestSupport
import Testing

@testable import StoreCommands

/// The one loop `run` and the control endpoint apply a script's lines with.
@Suite struct ScriptLoopTests {
  func host() throws -> CommandHost {
    let configuration = try #require(
      StoreKitConfiguration.load(contentsOf: bundledConfiguration("FoodTruck").path)
        .configuration)
    let session = Session(
      configuration: configuration, start: Instant(iso8601: "2026-11-22T02:00:00Z")!)
    return CommandHost(JournaledSession(session: session, journal: nil))
  }

  func lines(_ text: [String]) -> () -> String? {
    var rest = text[...]
    return { rest.popFirst() }
  }

  @Test func aRefusedLineStopsTheScriptUnlessItKeepsGoing() throws {
    let script = ["buy foodtruck.donuts.box", "buy nothing.here", "buy foodtruck.donuts.box"]
    let stopping = try host()
    let end = ScriptLoop().run(lines(script), on: stopping)
    guard case .refused(let error) = end else {
      Issue.record("\(end)")
      return
    }
    #expect(error.line == 2 && stopping.session.transactionCount == 1)
    let going = try host()
    #expect(ScriptLoop(keepsGoing: true).run(lines(script), on: going) == .finished(failures: 1))
    #expect(going.session.transactionCount == 2)
  }

  @Test func itStopsBeforeALineWhenToldWhyGivenTheWorkSpent() throws {
    let host = try host()
    var seen: [Int] = []
    let loop = ScriptLoop { spent in
      seen.append(spent)
      return spent >= 4 ? "budget spent" : nil
    }
    let script = ["buy foodtruck.donuts.box", "buy foodtruck.donuts.box", "  buy x  "]
    // Each purchase is one command and its events: the second starts past the budget.
    let end = loop.run(lines(script), on: host)
    #expect(end == .stopped(line: 2, text: "buy foodtruck.donuts.box", why: "budget spent"))
    #expect(seen.first == 0 && host.session.transactionCount == 1)
  }

  @Test func theCallerStopsItAfterALine() throws {
    let host = try host()
    var heard = 0
    let end = ScriptLoop().run(lines(["advance 1s", "advance 1s", "advance 1s"]), on: host) {
      _ in
      heard += 1
      return heard < 2
    }
    #expect(end == .halted(failures: 0) && heard == 2)
  }
}
