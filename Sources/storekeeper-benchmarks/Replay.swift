import ArgumentParser
import Foundation
import StoreCommands
import StoreConfiguration
import StoreSimulation

/// Replaying a journal whose session holds a million transactions.
struct Replay: ParsableCommand {
  static let configuration = CommandConfiguration(
    abstract: "Time the replay of journals whose sessions hold many transactions.")

  @Option(help: "How many transactions the session holds.")
  var transactions = 1_000_000

  func run() throws {
    let folder = NSTemporaryDirectory() + "storekeeper-replay-\(getpid())"
    try FileManager.default.createDirectory(atPath: folder, withIntermediateDirectories: true)
    defer { try? FileManager.default.removeItem(atPath: folder) }
    let configuration = Renewals.configuration(groups: 1)
    var consumables = configuration
    consumables.products = [
      Product(productID: "coin", type: .consumable, displayPrice: Price("0.99"))
    ]
    let start = Instant(iso8601: "2026-01-01T00:00:00Z")!

    let renewals = try measure(
      "one advance of \(transactions) renewals", folder + "/renewals.journal", configuration, start
    ) { journaled in
      try journaled.apply(.set(.timeRate(.oneRenewalEveryTwoSeconds))) { _ in }
      try journaled.apply(.buy(productID: "bench.0", options: PurchaseOptions())) { _ in }
      try journaled.apply(
        .advance(.by(CommandDuration(milliseconds: Int64(transactions - 1) * 2000)))
      ) { _ in }
    }
    let purchases = try measure(
      "\(transactions) purchase commands", folder + "/purchases.journal", consumables, start
    ) { journaled in
      let buy = Command.buy(productID: "coin", options: PurchaseOptions())
      for _ in 0..<transactions { try journaled.apply(buy) { _ in } }
    }
    print(renewals)
    print(purchases)
  }

  private func measure(
    _ name: String, _ path: String, _ configuration: StoreKitConfiguration, _ start: Instant,
    _ fill: (inout JournaledSession) throws -> Void
  ) throws -> String {
    let options = SessionOptions.unbounded
    let bytes = configuration.xcodeFormattedBytes()
    let header = JournalHeader(
      configurationPath: "bench.storekit", configuration: bytes, start: start)
    var journaled = JournaledSession(
      session: Session(configuration: configuration, start: start, options: options),
      journal: try Journal.openOrCreate(at: path, header: header))
    try fill(&journaled)
    try journaled.commit()
    let size = (try? FileManager.default.attributesOfItem(atPath: path)[.size] as? Int) ?? 0
    let clock = ContinuousClock()
    var count = 0
    let elapsed = try clock.measure {
      let replayed = try JournaledSession(
        replaying: try Journal.read(at: path)!, options: options)
      count = replayed.session.transactionCount
    }
    let seconds = elapsed.seconds
    return "replay, \(name): \(count) transactions from a \(size >> 10) KiB journal in "
      + String(format: "%.3f s", seconds)
  }
}
