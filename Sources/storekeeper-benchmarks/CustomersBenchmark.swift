import ArgumentParser
import Foundation
import StoreCommands
import StoreConfiguration
import StoreSimulation
import StoreTerminal

/// A population's journal read back as fast as it was written: for 2,000 and 8,000 customers ×
/// 12 months, `simulate` through the binary, then the replay (as `serve` and the inspector open
/// it), `transactions --customer` (replayed, then from the snapshot), `customers`, the
/// inspector's first frame and a keystroke in its customers view, each with its ratio to
/// `simulate`.
struct CustomersBenchmark: ParsableCommand {
  static let configuration = CommandConfiguration(
    commandName: "customers",
    abstract: "Time reading a population's journal against simulate writing it.")

  @Option(help: "The storekeeper binary (a debug one measures the debug build).")
  var binary = ".build/release/storekeeper"

  @Option(parsing: .upToNextOption, help: "Population sizes.")
  var customers = [2_000, 8_000]

  @Option(help: "Months.")
  var months = 12

  func run() throws {
    TextCells.prepareLocale()
    var first: [String: Double] = [:]
    for count in customers {
      let figures = try measure(customers: count)
      let simulate = figures[0].1
      print("customers: \(count) × \(months) months")
      for (name, seconds) in figures {
        let ratio = String(format: "%.2f", seconds / simulate)
        let growth = first[name].map { String(format: "  (×%.1f of the first size)", seconds / $0) }
        print(
          "  \(name.padding(toLength: 34, withPad: " ", startingAt: 0)) "
            + String(format: "%9.3f s", seconds) + "  ratio to simulate \(ratio)" + (growth ?? ""))
        if first[name] == nil { first[name] = seconds }
      }
    }
  }

  private func measure(customers count: Int) throws -> [(String, Double)] {
    let folder = NSTemporaryDirectory() + "sk-customers-\(getpid())-\(count)"
    try FileManager.default.createDirectory(atPath: folder, withIntermediateDirectories: true)
    defer { try? FileManager.default.removeItem(atPath: folder) }
    let journal = folder + "/population.journal"
    let config = "Configs/FoodTruck.storekit"
    var figures: [(String, Double)] = []
    figures.append(
      (
        "simulate",
        try timedShell(
          "\(binary) simulate \(config) --customers \(count) --months \(months) --seed 7 "
            + "--journal \(journal) > /dev/null 2>&1"
        ).time
      ))
    let list =
      "\(binary) transactions \(config) --journal \(journal) --customer c000042 "
      + "--format json > /dev/null"
    figures.append(("transactions --customer (replay)", try timedShell(list).time))
    figures.append(("transactions --customer (snapshot)", try timedShell(list).time))
    figures.append(
      (
        "customers --format json",
        try timedShell(
          "\(binary) customers \(config) --journal \(journal) --format json > /dev/null"
        ).time
      ))
    let clock = ContinuousClock()
    var app: App?
    let opened = try clock.measure {
      let journaled = try JournaledSession(replaying: try Journal.read(at: journal)!)
      var built = App(
        journaled: journaled, configurationPath: config, configurationBytes: [],
        display: DisplayOptions(color: true, glyphs: .unicode),
        clock: ClockState(running: false, offset: 0))
      _ = built.render(width: 120, height: 40, wall: journaled.session.now)
      built.handle(.character("c"), wall: journaled.session.now)
      app = built
    }
    figures.append(("inspector first frame (in process)", opened.seconds))
    guard var app else { return figures }
    let now = app.session.now
    var times: [Double] = []
    for key in [Key.down, .character("7"), .down, .character("/"), .character("s"), .backspace] {
      times.append(
        clock.measure {
          app.handle(key, wall: now)
          _ = app.render(width: 120, height: 40, wall: now)
        }.seconds)
    }
    let each = times.map { String(format: "%.1f", $0 * 1000) }.joined(separator: " ")
    print("  customers view keys ↓ 7 ↓ / s ⌫: \(each) ms (each with its frame)")
    figures.append(("customers view keystroke (worst)", times.max() ?? 0))
    // The panes behind it: a key, then a tick of a running clock, each with its frame (the key
    // bar asks every key's refusal, the tick moves the clock).
    app.handle(.escape, wall: now)
    var panes: [Double] = []
    for key in [Key.down, .tab, .down, .tab] {
      panes.append(
        clock.measure {
          app.handle(key, wall: now)
          _ = app.render(width: 120, height: 40, wall: now)
        }.seconds)
    }
    app.handle(.character(" "), wall: now)
    for second in 1...4 {
      let wall = now.adding(milliseconds: Int64(second) * 1_000)
      panes.append(
        clock.measure {
          app.tick(wall: wall)
          _ = app.render(width: 120, height: 40, wall: wall)
        }.seconds)
    }
    figures.append(("a key or tick in the panes (worst)", panes.max() ?? 0))
    return figures
  }
}
