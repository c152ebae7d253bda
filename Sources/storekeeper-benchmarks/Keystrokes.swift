import ArgumentParser
import Foundation
import StoreCommands
import StoreConfiguration
import StorePopulation
import StoreSimulation
import StoreTerminal

/// A keystroke of the inspector's filters over a population (10,000 customers, about 100,000
/// transactions): typing into the transaction table's filter and the customers view's, each key
/// with its frame. The target is under 16 ms in release.
struct Keystrokes: ParsableCommand {
  static let configuration = CommandConfiguration(
    abstract: "Time filter keystrokes over a population's transactions and customers.")

  @Option(help: "Customers in the population.")
  var customers = 10_000

  @Option(help: "Months they live (about one transaction each a month).")
  var months = 25

  @Flag(help: "Print every key's time.")
  var verbose = false

  func run() throws {
    TextCells.prepareLocale()
    let clock = ContinuousClock()
    var app: App!
    let made = try clock.measure { app = try population() }
    let now = app.session.now
    let rows = SessionView(app.session).everyCustomersRows().reduce(0) { $0 + $1.rows.count }
    print(
      "keystrokes: \(customers) customers, \(rows) transactions (made in \(milliseconds(made)))")
    app.handle(.character("c"), wall: now)
    app.handle(.character("/"), wall: now)
    report("customers view filter", type("status:inbill storefront:us", into: &app))
    report("customers view filter ⌫", erase(3, in: &app))
    app.handle(.escape, wall: now)
    app.handle(.character("t"), wall: now)
    app.handle(.character("/"), wall: now)
    report("every transaction's filter", type("product:premium after:2026-05", into: &app))
    report("every transaction's filter ⌫", erase(3, in: &app))
  }

  /// An inspector over a population made in process (no journal, no notifications).
  private func population() throws -> App {
    let loaded = StoreKitConfiguration.load(contentsOf: "Configs/FoodTruck.storekit")
    let configuration = loaded.usableConfiguration!
    var options = SessionOptions()
    options.maximumEventsPerVerb = .max
    let start = Instant(iso8601: "2026-01-01T00:00:00Z")!
    let host = CommandHost(
      JournaledSession(
        session: Session(configuration: configuration, start: start, options: options),
        journal: nil),
      commitsEachCommand: false)
    var population = PopulationOptions(customers: customers, months: months, seed: 7)
    // Loyal customers: about one transaction each a month (the default model churns).
    population.model.introductoryConversion = 1
    population.model.cancellation = 0
    population.model.billingFailure = 0.01
    _ = try Population(options: population, host: host).run { _ in }
    return App(
      journaled: host.journaled, configurationPath: "Configs/FoodTruck.storekit",
      configurationBytes: [], display: DisplayOptions(color: true, glyphs: .unicode),
      clock: ClockState(running: false, offset: 0))
  }

  /// Types `text` a key at a time, each with its frame; their times.
  private func type(_ text: String, into app: inout App) -> [Duration] {
    let now = app.session.now
    return text.map { character in
      ContinuousClock().measure {
        app.handle(.character(character), wall: now)
        _ = app.render(width: 120, height: 40, wall: now)
      }
    }
  }

  /// Erases `count` characters a key at a time, each with its frame; their times.
  private func erase(_ count: Int, in app: inout App) -> [Duration] {
    let now = app.session.now
    return (0..<count).map { _ in
      ContinuousClock().measure {
        app.handle(.backspace, wall: now)
        _ = app.render(width: 120, height: 40, wall: now)
      }
    }
  }

  private func report(_ what: String, _ times: [Duration]) {
    if verbose {
      print(
        "  \(what): "
          + times.map { String(format: "%.1f", $0.seconds * 1000) }.joined(separator: " "))
    }
    let sorted = times.sorted()
    print(
      "  \(what): median \(milliseconds(sorted[sorted.count / 2])), "
        + "worst \(milliseconds(sorted.last!)) over \(sorted.count) keys")
  }
}
