import ArgumentParser
import Foundation
import StoreConfiguration
import StoreSimulation

/// Stepping a subscription one period at a time with reads after every step, at growing
/// ledgers: the cost of a step, of reading entitlements and of reading statuses should not
/// depend on how many transactions came before.
struct Stepping: ParsableCommand {
  static let configuration = CommandConfiguration(
    abstract: "Per-step cost of stepping with entitlements and statuses read after every step.")

  @Option(help: "How many steps are timed at each ledger size.")
  var steps = 20_000

  @Option(parsing: .upToNextOption, help: "The ledger sizes (transactions before stepping).")
  var sizes = [10_000, 100_000, 1_000_000]

  func run() throws {
    var totals: [Double] = []
    for size in sizes {
      var session = try Self.session(transactions: size)
      var step = 0.0
      var entitlements = 0.0
      var statuses = 0.0
      var read = 0
      let clock = ContinuousClock()
      for _ in 0..<steps {
        var start = clock.now
        try session.advanceToNextEvent { _ in }
        var end = clock.now
        step += (end - start).seconds
        start = end
        read &+= session.currentEntitlements().count
        end = clock.now
        entitlements += (end - start).seconds
        start = end
        read &+= session.subscriptionStatuses().count
        end = clock.now
        statuses += (end - start).seconds
      }
      precondition(read > 0)
      let perStep = (step + entitlements + statuses) / Double(steps)
      totals.append(perStep)
      print(
        "stepping: ledger of \(size) transactions (\(session.transactionCount) after): step \(micro(step)) µs, "
          + "entitlements \(micro(entitlements)) µs, statuses \(micro(statuses)) µs, "
          + "total \(String(format: "%.2f", perStep * 1e6)) µs per step")
    }
    print("ratio \(String(format: "%.2f", totals.max()! / totals.min()!))")
  }

  private func micro(_ total: Double) -> String {
    String(format: "%.2f", total / Double(steps) * 1e6)
  }

  /// A session with a non-consumable, a few non-renewing purchases and a monthly subscription
  /// renewed until the ledger holds `transactions` transactions.
  static func session(transactions: Int) throws -> Session {
    var configuration = Renewals.configuration(groups: 1)
    configuration.products = [
      Product(productID: "lifetime", type: .nonConsumable, displayPrice: Price("29.99"))
    ]
    configuration.nonRenewingSubscriptions = [
      Product(productID: "season", type: .nonRenewingSubscription, displayPrice: Price("4.99"))
    ]
    let options = SessionOptions.unbounded
    let start = Instant(iso8601: "2026-01-01T00:00:00Z")!
    var session = Session(configuration: configuration, start: start, options: options)
    session.updateSettings { $0.timeRate = .oneRenewalEveryTwoSeconds }
    try session.buy("lifetime", PurchaseOptions()) { _ in }
    for _ in 0..<3 { try session.buy("season", PurchaseOptions()) { _ in } }
    try session.buy("bench.0", PurchaseOptions()) { _ in }
    let renewals = Int64(max(0, transactions - session.transactionCount))
    try session.advance(to: session.now.adding(milliseconds: renewals * 2000 + 1000)) { _ in }
    return session
  }
}
