import ArgumentParser
import Foundation
import StoreCommands
import StoreConfiguration
import StoreSimulation

/// Stepping back through a long history: `back` (the inspector's `N`) after a million renewals,
/// and thousands of `undo` after thousands of commands. A step back replays from the nearest
/// copy of the session the history kept, so each should cost about what it takes back.
struct History: ParsableCommand {
  static let configuration = CommandConfiguration(
    abstract: "Time back and undo through long histories.")

  @Option(help: "Renewals before stepping back with back.")
  var renewals = 1_000_000

  @Option(help: "Commands before stepping back with undo.")
  var commands = 40_000

  @Option(help: "How many undo follow them.")
  var undos = 10_000

  func run() throws {
    let start = Instant(iso8601: "2026-01-01T00:00:00Z")!
    var configuration = Renewals.configuration(groups: 1)
    configuration.products = [
      Product(productID: "coin", type: .consumable, displayPrice: Price("0.99"))
    ]
    let clock = ContinuousClock()
    var journaled = JournaledSession(
      session: Session(configuration: configuration, start: start, options: .unbounded),
      journal: nil)
    try journaled.apply(.set(.timeRate(.oneRenewalEveryTwoSeconds))) { _ in }
    try journaled.apply(.buy(productID: "bench.0", options: PurchaseOptions())) { _ in }
    let made = clock.measure {
      try? journaled.apply(
        .advance(.by(CommandDuration(milliseconds: Int64(renewals - 1) * 2000)))
      ) { _ in }
    }
    for _ in 0..<100 { try journaled.apply(.buy(productID: "coin", options: .init())) { _ in } }
    var steps: [Duration] = []
    // The coins first, then into the renewals: one `back` a renewal.
    for _ in 0..<(100 + 1_000) {
      steps.append(clock.measure { try? journaled.apply(.stepBack(.event)) { _ in } })
    }
    steps.sort()
    print(
      "history: \(renewals) renewals in one advance (\(milliseconds(made))), then back \(steps.count) "
        + "times from \(journaled.session.transactionCount + steps.count) transactions: median "
        + "\(milliseconds(steps[steps.count / 2])), worst \(milliseconds(steps.last!))")

    var many = JournaledSession(
      session: Session(configuration: configuration, start: start, options: .unbounded),
      journal: nil)
    let buy = Command.buy(productID: "coin", options: PurchaseOptions())
    let second = Command.advance(.by(CommandDuration(milliseconds: 1000)))
    let filled = clock.measure {
      for index in 0..<commands { try? many.apply(index % 2 == 0 ? buy : second) { _ in } }
    }
    var undone: [Duration] = []
    for _ in 0..<undos {
      undone.append(clock.measure { try? many.apply(.stepBack(.command)) { _ in } })
    }
    let total = undone.reduce(Duration.zero, +)
    undone.sort()
    print(
      "history: \(commands) commands (\(milliseconds(filled))), then \(undos) undo in "
        + "\(milliseconds(total)): median \(milliseconds(undone[undone.count / 2])), worst "
        + "\(milliseconds(undone.last!)); \(many.session.transactionCount) transactions left")
    try pairsOfAdvanceAndBack(configuration, start: start)
  }

  /// `advance`, `back`, again and again (a person stepping a renewal forth and back), on a
  /// fresh session and after a long history: the same cost a pair, whatever came before.
  private func pairsOfAdvanceAndBack(
    _ configuration: StoreKitConfiguration, start: Instant
  ) throws {
    let clock = ContinuousClock()
    var figures: [String] = []
    for history in [0, renewals / 2] {
      var session = JournaledSession(
        session: Session(configuration: configuration, start: start, options: .unbounded),
        journal: nil)
      try session.apply(.set(.timeRate(.oneRenewalEveryTwoSeconds))) { _ in }
      try session.apply(.buy(productID: "bench.0", options: PurchaseOptions())) { _ in }
      if history > 0 {
        try session.apply(.advance(.by(CommandDuration(milliseconds: Int64(history) * 2000)))) {
          _ in
        }
      }
      let pairs = 20_000
      let step = Command.advance(.by(CommandDuration(milliseconds: 2000)))
      let took = clock.measure {
        for _ in 0..<pairs {
          try? session.apply(step) { _ in }
          try? session.apply(.stepBack(.event)) { _ in }
        }
      }
      let each =
        Double(took.components.attoseconds) / 1e12 / Double(pairs)
        + Double(took.components.seconds) * 1e6 / Double(pairs)
      figures.append("\(String(format: "%.1f", each)) µs a pair after \(history) renewals")
    }
    print("history: advance then back, 20,000 times: " + figures.joined(separator: ", "))
  }
}
