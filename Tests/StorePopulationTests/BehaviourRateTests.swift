import Foundation
import StoreCommands
import StoreConfiguration
import StoreSimulation
import StoreTestSupport
import Testing

@testable import StorePopulation

/// The behaviour model's rates over a seeded population: each chance comes up about as often as
/// the model says (within its binomial bounds), the summary's figures agree with each other and
/// with the session, and the journal a population writes replays to the state the run left.
@Suite struct BehaviourRateTests {
  let tests = PopulationTests()

  /// Whether `hits` of `trials` is within 4.5 standard deviations of probability `p` (a false
  /// alarm about once in 150,000 chances; the seeds are fixed, so it never flickers).
  func withinBinomialBounds(_ hits: Int, of trials: Int, _ p: Double) -> Bool {
    let mean = Double(trials) * p
    let spread = 4.5 * (Double(trials) * p * (1 - p)).squareRoot() + 1
    return abs(Double(hits) - mean) <= spread
  }

  @Test func eachChanceComesUpAsOftenAsTheModelSays() throws {
    var options = PopulationOptions(customers: 1500, months: 6, seed: 21)
    options.model.priceIncrease = 0.5
    let summary = try tests.run(options).0
    // FoodTruck's subscriptions are not family-shareable: nobody is asked to share.
    #expect(summary.draws[.familySharing] == nil)
    // Group purchases are 0 by default: never drawn (PopulationTests draws them).
    #expect(summary.draws[.groupPurchase] == nil)
    #expect(summary.draws[.groupMemberLeaving] == nil, "no group purchase, no member")
    for chance in BehaviourModel.Chance.allCases
    where chance != .familySharing && chance != .groupPurchase && chance != .groupMemberLeaving {
      let draws = try #require(summary.draws[chance], "\(chance) was never drawn")
      #expect(draws.trials >= 40, "\(chance): \(draws.trials) draws are too few to judge")
      let p = options.model.probability(chance)
      #expect(
        withinBinomialBounds(draws.hits, of: draws.trials, p),
        "\(chance): \(draws.hits) of \(draws.trials) at p = \(p)")
    }
    // A model that changes a rate changes what comes up.
    options.model.cancellation = 0.5
    let more = try tests.run(options).0
    let cancellations = try #require(more.draws[.cancellation])
    #expect(withinBinomialBounds(cancellations.hits, of: cancellations.trials, 0.5))
    #expect(more.voluntaryChurn > summary.voluntaryChurn)
  }

  @Test func theSummarysFiguresAgree() throws {
    let options = PopulationOptions(customers: 200, months: 6, seed: 5)
    let (summary, _) = try tests.run(options)
    // Revenue by month adds up to the revenue.
    var added: [String: Int64] = [:]
    for month in summary.revenueByMonth { added.merge(month, uniquingKeysWith: +) }
    #expect(added == summary.revenue)
    #expect(summary.revenueByMonth.count <= 6)
    #expect(summary.skippedByKind.values.reduce(0, +) == summary.skippedActions)
    #expect(
      summary.billingChurn == summary.notifications["EXPIRED-BILLING_RETRY"] ?? 0,
      "each billing expiry is one EXPIRED-BILLING_RETRY")
    #expect(
      summary.voluntaryChurn
        == (summary.notifications["EXPIRED-VOLUNTARY"] ?? 0)
        + (summary.notifications["EXPIRED-PRICE_INCREASE"] ?? 0))
    #expect(summary.monthlyRecurringRevenue.values.allSatisfy { $0 > 0 })
    #expect(summary.text.contains("introductory offers kept paying"))
    #expect(summary.text.contains("subscribers at each month's end  "))
    let json = try JSONSerialization.jsonObject(with: Data(summary.json.utf8)) as? [String: Any]
    #expect((json?["revenueByMonth"] as? [Any])?.count == summary.revenueByMonth.count)
    #expect((json?["chances"] as? [String: Any])?["refund"] != nil)
  }

  @Test func aPopulationsJournalReplaysToTheStateTheRunLeft() throws {
    let folder = try temporaryFolder()
    defer { try? FileManager.default.removeItem(at: folder) }
    let path = folder.appendingPathComponent("population.journal").path
    var sessionOptions = SessionOptions()
    sessionOptions.maximumEventsPerVerb = .max
    let configuration = PopulationTests.configuration
    let header = JournalHeader(
      configurationPath: "FoodTruck.storekit", configuration: configuration.xcodeFormattedBytes(),
      start: PopulationTests.start)
    let journaled = JournaledSession(
      session: Session(
        configuration: configuration, start: PopulationTests.start, options: sessionOptions),
      journal: try Journal.openOrCreate(at: path, header: header))
    let host = CommandHost(journaled, commitsEachCommand: false)
    _ = try Population(options: PopulationOptions(customers: 120, months: 5, seed: 8), host: host)
      .run { _ in }
    try host.flush()
    let ran = host.session
    let replayed = try JournaledSession(
      replaying: try #require(try Journal.read(at: path)), options: sessionOptions
    ).session
    #expect(replayed.now == ran.now)
    #expect(replayed.customers == ran.customers)
    #expect(replayed.customerSummaries() == ran.customerSummaries())
    for customer in ran.customers {
      let account = Account(customer: customer)
      #expect(
        replayed.view(of: account).allTransactions() == ran.view(of: account).allTransactions(),
        "\(customer)")
    }
    #expect(replayed.nextScheduledEvent == ran.nextScheduledEvent)
  }
}
