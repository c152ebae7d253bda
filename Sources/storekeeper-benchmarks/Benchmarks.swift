import ArgumentParser
import Foundation
import StoreConfiguration

/// Benchmarks for the figures the issues ask for. Run in release:
/// `swift run -c release storekeeper-benchmarks <name>`.
@main
struct Benchmarks: AsyncParsableCommand {
  static let configuration = CommandConfiguration(
    commandName: "storekeeper-benchmarks",
    abstract: "Measure Storekeeper's speed and memory.",
    subcommands: [
      LoadConfiguration.self, Renewals.self, Stream.self, Stepping.self, TransactionsBenchmark.self,
      History.self,
      Replay.self,
      Inspector.self, ServeBenchmark.self, StoreKitBenchmark.self, DebugBuild.self,
      NotificationsBenchmark.self, SimulateBenchmark.self, CustomersBenchmark.self,
      Keystrokes.self, SeatsBenchmark.self, CommerceBenchmark.self, HangingCallBenchmark.self,
    ]
  )
}

/// Loading and validating a large generated configuration.
struct LoadConfiguration: ParsableCommand {
  static let configuration = CommandConfiguration(
    commandName: "load-config",
    abstract: "Load and validate a generated configuration with many products.")

  @Option(help: "How many products the generated file holds.")
  var products = 5_000

  @Option(help: "How many timed loads to run.")
  var iterations = 20

  @Option(help: "Also write the generated file here (to compare with `jq . FILE`).")
  var write: String?

  func run() throws {
    let bytes = LargeConfiguration.bytes(products: products)
    if let write { try Data(bytes).write(to: URL(fileURLWithPath: write)) }
    var timings: [Double] = []
    var diagnostics = 0
    for _ in 0..<max(1, iterations) {
      let start = DispatchTime.now().uptimeNanoseconds
      let result = StoreKitConfiguration.load(bytes)
      timings.append(Double(DispatchTime.now().uptimeNanoseconds - start) / 1e6)
      diagnostics = result.diagnostics.count
      precondition(!result.hasErrors, "the generated file has errors")
    }
    timings.sort()
    let median = timings[timings.count / 2]
    print(
      """
      load-config: \(products) products, \(bytes.count) bytes, \(diagnostics) diagnostics
        median \(String(format: "%.2f", median)) ms, best \(String(format: "%.2f", timings[0])) ms \
      over \(timings.count) runs (\(String(format: "%.0f", Double(bytes.count) / median / 1000)) MB/s)
      """)
  }
}

/// A deterministic configuration of any size, in Xcode's formatting: a third consumables and
/// non-consumables, the rest subscriptions in groups of ten with offers.
enum LargeConfiguration {
  static func bytes(products count: Int) -> [UInt8] {
    var configuration = StoreKitConfiguration()
    configuration.identifier = "BE7C4000"
    configuration.version = FormatVersion(4, 0)
    var products: [Product] = []
    var groups: [SubscriptionGroup] = []
    for index in 0..<count {
      let localizations = [
        Localization(
          locale: "en_US", displayName: "Product \(index)",
          description: "Benchmark product \(index)"),
        Localization(locale: "ja", displayName: "商品 \(index)", description: "ベンチマーク用の商品 \(index)"),
      ]
      let internalID = String(format: "%08X", index)
      if index % 3 == 0 {
        products.append(
          Product(
            productID: "bench.product.\(index)",
            type: index % 2 == 0 ? .consumable : .nonConsumable,
            displayPrice: Price("\(index % 100).99"), referenceName: .value("Product \(index)"),
            internalID: internalID, localizations: localizations))
        continue
      }
      let groupID = String(format: "%08X", 0x4000_0000 + index / 30)
      if groups.last?.id != groupID {
        groups.append(
          SubscriptionGroup(id: groupID, name: "Group \(index / 30)", subscriptions: []))
      }
      var subscription = Subscription(
        product: Product(
          productID: "bench.subscription.\(index)", type: .autoRenewableSubscription,
          displayPrice: Price("\(index % 50).99"), referenceName: .value("Subscription \(index)"),
          internalID: internalID, localizations: localizations),
        subscriptionGroupID: groupID, groupNumber: 1 + index % 4,
        recurringSubscriptionPeriod: SubscriptionPeriod(1, index % 2 == 0 ? .month : .year))
      var intro = SubscriptionOffer(
        internalID: "I\(internalID.dropFirst())", paymentMode: .payAsYouGo,
        subscriptionPeriod: SubscriptionPeriod(1, .month), numberOfPeriods: 3,
        displayPrice: Price("0.99"))
      intro.billingPlanType = nil
      subscription.introductoryOffer = .value(intro)
      var code = SubscriptionOffer(
        internalID: "C\(internalID.dropFirst())", paymentMode: .free,
        subscriptionPeriod: SubscriptionPeriod(1, .month))
      code.referenceName = "CODE\(index)"
      code.eligibility = [.new, .existing, .expired]
      code.isStackable = true
      subscription.codeOffers = [code]
      groups[groups.count - 1].subscriptions.append(subscription)
    }
    configuration.products = products
    configuration.subscriptionGroups = groups
    return configuration.xcodeFormattedBytes()
  }
}

extension Duration {
  /// The duration in seconds.
  var seconds: Double { Double(components.seconds) + Double(components.attoseconds) / 1e18 }
}

/// Runs a shell command: its wall time in seconds and, where `/usr/bin/time` exists, its peak
/// resident memory. A failing command is an error.
func timedShell(_ command: String) throws -> (time: Double, peak: String) {
  let memory = NSTemporaryDirectory() + "storekeeper-peak-\(getpid())"
  defer { try? FileManager.default.removeItem(atPath: memory) }
  let quoted = command.replacingOccurrences(of: "'", with: "'\\''")
  let measured =
    FileManager.default.isExecutableFile(atPath: "/usr/bin/time")
    ? "/usr/bin/time -f %M -o \(memory) sh -c '\(quoted)'" : command
  var status: Int32 = 0
  let time = ContinuousClock().measure { status = system(measured) }.seconds
  guard status == 0 else { throw ValidationError("failed (\(status)): \(command)") }
  let kilobytes = (try? String(contentsOfFile: memory, encoding: .utf8))
    .flatMap { Int($0.trimmingCharacters(in: .whitespacesAndNewlines)) }
  return (time, kilobytes.map { "\($0 >> 10) MiB" } ?? "unknown")
}
