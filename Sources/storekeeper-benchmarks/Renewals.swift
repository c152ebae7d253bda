import ArgumentParser
import Foundation
import StoreConfiguration
import StoreSimulation

/// Renewals generated per second and resident bytes per transaction over a long advance.
struct Renewals: ParsableCommand {
  static let configuration = CommandConfiguration(
    abstract: "Advance the clock over many renewals and measure speed and memory.")

  @Option(help: "How many renewals to generate.")
  var renewals = 5_000_000

  @Option(help: "How many subscription groups renew side by side.")
  var groups = 4

  @Flag(help: "Every renewal fails into billing retry with grace and is resolved; offers queued.")
  var billingRetry = false

  func run() throws {
    if billingRetry {
      try runBillingRetry()
      return
    }
    let configuration = Self.configuration(groups: groups)
    let options = SessionOptions.unbounded
    let start = Instant(iso8601: "2026-01-01T00:00:00Z")!
    var session = Session(configuration: configuration, start: start, options: options)
    session.updateSettings { $0.timeRate = .oneRenewalEveryTwoSeconds }
    for group in 0..<groups { try session.buy("bench.\(group)", PurchaseOptions()) { _ in } }
    let before = residentBytes()
    let span = Int64(renewals / groups) * 2000
    var events = 0
    let clock = ContinuousClock()
    let elapsed = try clock.measure {
      try session.advance(to: start.adding(milliseconds: span)) { _ in events += 1 }
    }
    let after = residentBytes()
    let made = session.transactionCount - groups
    let seconds = elapsed.seconds
    print(
      """
      renewals: \(made) renewals (\(events) events) in \(String(format: "%.3f", seconds)) s \
      = \(String(format: "%.2f", Double(made) / seconds / 1e6)) million renewals/s
        resident memory grew \((after - before) >> 20) MiB = \((after - before) / max(1, made)) bytes per transaction
      """)
  }

  /// One subscription with a pay-as-you-go intro and a queued offer code, every renewal failing
  /// into grace and billing retry and resolved: fail, grace end, resolve per period.
  private func runBillingRetry() throws {
    let options = SessionOptions.unbounded
    let start = Instant(iso8601: "2026-01-01T00:00:00Z")!
    var session = Session(
      configuration: Self.configuration(groups: 1), start: start, options: options)
    session.updateSettings {
      $0.timeRate = .oneRenewalEveryTwoSeconds
      $0.shouldEnterBillingRetryOnRenewal = true
      $0.billingGracePeriodIsEnabled = true
    }
    try session.buy("bench.0", PurchaseOptions()) { _ in }
    try session.buy("bench.0", PurchaseOptions(offer: .code("CODE"), origin: .store)) { _ in }
    var events = 0
    let cycles = renewals / 10
    let clock = ContinuousClock()
    let elapsed = try clock.measure {
      for _ in 0..<cycles {
        try session.advanceToNextEvent { _ in events += 1 }
        try session.advanceToNextEvent { _ in events += 1 }
        try session.resolveIssue(session.lastTransactionID()!) { _ in events += 1 }
      }
    }
    let seconds = elapsed.seconds
    print(
      """
      renewals --billing-retry: \(cycles) failed renewals resolved (\(events) events) in \
      \(String(format: "%.3f", seconds)) s = \(String(format: "%.2f", Double(cycles) / seconds / 1e6)) million cycles/s
      """)
  }

  /// Groups of one monthly subscription each, with an introductory offer.
  static func configuration(groups: Int) -> StoreKitConfiguration {
    var configuration = StoreKitConfiguration()
    configuration.subscriptionGroups = (0..<groups).map { index in
      let product = Product(
        productID: "bench.\(index)", type: .autoRenewableSubscription, displayPrice: Price("9.99"),
        localizations: [
          Localization(locale: "en_US", displayName: "Bench \(index)", description: "")
        ])
      var subscription = Subscription(
        product: product, subscriptionGroupID: "BG\(index)", groupNumber: 1,
        recurringSubscriptionPeriod: SubscriptionPeriod(1, .month))
      subscription.introductoryOffer = .value(
        SubscriptionOffer(
          paymentMode: .payAsYouGo, subscriptionPeriod: SubscriptionPeriod(1, .month),
          numberOfPeriods: 3, displayPrice: Price("0.99")))
      var code = SubscriptionOffer(
        paymentMode: .free, subscriptionPeriod: SubscriptionPeriod(1, .month))
      code.referenceName = "CODE"
      code.eligibility = [.new, .existing, .expired]
      code.isStackable = true
      subscription.codeOffers = [code]
      return SubscriptionGroup(
        id: "BG\(index)", name: "Bench \(index)", subscriptions: [subscription])
    }
    return configuration
  }
}

extension SessionOptions {
  /// Options for measuring: no limit on events per command, no invariant checks.
  static var unbounded: SessionOptions {
    var options = SessionOptions()
    options.maximumEventsPerVerb = Int.max / 4
    options.invariantChecking = .off
    return options
  }
}

/// The process's resident set size in bytes (Linux `/proc/self/statm`; 0 elsewhere).
func residentBytes() -> Int {
  guard let text = try? String(contentsOfFile: "/proc/self/statm", encoding: .utf8) else {
    return 0
  }
  let fields = text.split(separator: " ")
  guard fields.count > 1, let pages = Int(fields[1]) else { return 0 }
  return pages * Int(sysconf(Int32(_SC_PAGESIZE)))
}
