import ArgumentParser
import Foundation
import StorekeeperKit
import StorekeeperKitTest

/// StorekeeperKit as an app's unit tests use it: a session made from a `.storekit` file with a
/// purchase (what one test costs), and a year of monthly renewals delivered through
/// `Transaction.updates` on the manual clock.
struct StoreKitBenchmark: AsyncParsableCommand {
  static let configuration = CommandConfiguration(
    commandName: "storekit",
    abstract: "Time a test's session with one purchase, and a year of renewals on updates.")

  @Option(help: "How many sessions (tests) to make.")
  var sessions = 500

  @Option(help: "How many years of renewals to time.")
  var years = 50

  @Option(help: "The configuration.")
  var configuration = "Configs/FoodTruck.storekit"

  func run() async throws {
    let url = URL(fileURLWithPath: configuration)
    var perTest: [Double] = []
    for _ in 0..<sessions {
      let started = ContinuousClock.now
      let session = try SKTestSession(contentsOf: url)
      session.clock = .manual
      try await session.bind {
        let product = try await Product.products(for: ["foodtruck.donuts.box"])[0]
        guard case .success = try await product.purchase() else { throw ExitCode(1) }
      }
      perTest.append((ContinuousClock.now - started).milliseconds)
    }
    var perYear: [Double] = []
    for _ in 0..<years {
      let session = try SKTestSession(contentsOf: url)
      session.clock = .manual
      session.timeRate = .realTime
      let elapsed = try await session.bind {
        let product = try await Product.products(for: ["socialfeed.premium.monthly"])[0]
        guard case .success = try await product.purchase() else { throw ExitCode(1) }
        var updates = Transaction.updates.makeAsyncIterator()
        let started = ContinuousClock.now
        session.advance(by: .seconds(365 * 86_400))
        for _ in 0..<12 { _ = await updates.next() }
        return (ContinuousClock.now - started).milliseconds
      }
      perYear.append(elapsed)
    }
    perTest.sort()
    perYear.sort()
    func figures(_ values: [Double]) -> String {
      "median \(String(format: "%.2f", values[values.count / 2])) ms, "
        + "p90 \(String(format: "%.2f", values[values.count * 9 / 10])) ms"
    }
    print(
      """
      storekit: a session from \(url.lastPathComponent) and one purchase (one test), \(sessions) times:
        \(figures(perTest)); a thousand tests ≈ \(String(format: "%.1f", perTest[perTest.count / 2])) s
      a year of monthly renewals through Transaction.updates on the manual clock, \(years) times:
        \(figures(perYear))
      """)
  }
}

extension Duration {
  /// The duration in milliseconds.
  fileprivate var milliseconds: Double {
    let (seconds, attoseconds) = components
    return Double(seconds) * 1000 + Double(attoseconds) / 1e15
  }
}
