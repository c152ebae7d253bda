import StoreConfiguration
import Testing

@testable import StoreSimulation

@Suite struct SubscriptionLifecycleTests {
  @Test func renewalsChainAtThePreviousExpiration() throws {
    var session = makeSession(rate: .monthlyRenewalEveryThirtySeconds)
    try session.buy("solo.monthly", PurchaseOptions()) { _ in }
    let renewed = try events { try session.advance(to: t0.plus(seconds: 95), $0) }
    let renewals = renewed.transactions.map(\.0)
    #expect(renewals.map(\.id) == [1, 2, 3])
    #expect(renewals.allSatisfy { $0.originalID == 0 && $0.reason == .renewal && !$0.isFinished })
    #expect(renewals.map(\.purchaseDate) == [30, 60, 90].map { t0.plus(seconds: $0) })
    #expect(renewals.map(\.expirationDate) == [60, 90, 120].map { t0.plus(seconds: $0) })
    #expect(renewed.transactions.allSatisfy { $0.1 == .updates })
    #expect(renewed.map(\.time) == [30, 30, 60, 60, 90, 90].map { t0.plus(seconds: $0) })
    #expect(session.now == t0.plus(seconds: 95))
    #expect(renewed.statuses.last?.renewalInfo.renewalDate == t0.plus(seconds: 120))
  }

  @Test func renewalsAreUnlimited() throws {
    var session = makeSession(rate: .oneRenewalEveryTwoSeconds)
    try session.buy("solo.monthly", PurchaseOptions()) { _ in }
    try session.advance(to: t0.plus(seconds: 86_400)) { _ in }
    #expect(session.transactionCount == 43_201)
    #expect(session.subscriptionStatuses().first?.state == .subscribed)
  }

  @Test func tenYearsOfWeeklyRenewalsAtRealTime() throws {
    var session = makeSession()
    try session.buy("weekly", PurchaseOptions()) { _ in }
    let renewed = try events { try session.advance(to: instant("2036-01-15T10:00:00Z"), $0) }
    #expect(renewed.transactions.count == 521)
    #expect(renewed.transactions.last?.0.purchaseDate == instant("2036-01-10T10:00:00Z"))
  }

  @Test func expireNowEndsThePeriodAndStopsRenewals() throws {
    var session = makeSession(rate: .monthlyRenewalEveryThirtySeconds)
    try session.buy("solo.monthly", PurchaseOptions()) { _ in }
    try session.advance(to: t0.plus(seconds: 10)) { _ in }
    let expired = try events { try session.expireSubscription("solo.monthly", $0) }
    #expect(expired.transactions.first?.0.expirationDate == t0.plus(seconds: 10))
    #expect(expired.transactions.first?.1 == nil)
    #expect(expired.statuses.last?.state == .expired)
    #expect(expired.statuses.last?.renewalInfo.expirationReason == .autoRenewDisabled)
    #expect(session.nextScheduledEvent == nil)
    #expect(throws: SessionError.self) { try session.expireSubscription("solo.monthly") { _ in } }
  }

  @Test func resubscribingKeepsTheGroupsOriginalID() throws {
    var session = makeSession(rate: .monthlyRenewalEveryThirtySeconds)
    try session.buy("solo.monthly", PurchaseOptions()) { _ in }
    try session.expireSubscription("solo.monthly") { _ in }
    try session.advance(to: t0.plus(seconds: 40)) { _ in }
    let again = try events { try session.buy("solo.monthly", PurchaseOptions(), $0) }
    let transaction = try #require(again.transactions.first?.0)
    #expect(transaction.id == 1)
    #expect(transaction.originalID == 0)
    #expect(transaction.reason == .purchase)
    #expect(transaction.originalPurchaseDate == t0)
    #expect(again.statuses.last?.state == .subscribed)
    // A lapse shorter than Apple's 60 days (at this rate, 60 days of 1 s) keeps the run's start.
    #expect(again.statuses.last?.renewalInfo.recentSubscriptionStartDate == t0)
  }

  @Test func aLapseOfSixtyDaysOrMoreStartsANewRun() throws {
    var session = makeSession(rate: .monthlyRenewalEveryThirtySeconds)
    try session.buy("solo.monthly", PurchaseOptions()) { _ in }
    try session.expireSubscription("solo.monthly") { _ in }
    let limit = TimeRate.monthlyRenewalEveryThirtySeconds.end(
      of: SubscriptionPeriod(60, .day), startingAt: t0)
    try session.advance(to: limit) { _ in }
    let again = try events { try session.buy("solo.monthly", PurchaseOptions(), $0) }
    #expect(again.statuses.last?.renewalInfo.recentSubscriptionStartDate == limit)
  }

  @Test func buyingTheSameSubscriptionHandsBackTheCurrentTransaction() throws {
    var session = makeSession()
    try session.buy("solo.monthly", PurchaseOptions()) { _ in }
    let again = try events { try session.buy("solo.monthly", PurchaseOptions(), $0) }
    #expect(again.purchaseResults.first?.transactionID == 0)
    #expect(session.transactionCount == 1)
  }

  @Test func backDatedPurchaseRenewsUntilNow() throws {
    var session = makeSession()
    let options = PurchaseOptions(purchaseDate: instant("2025-01-15T10:00:00Z"), origin: .store)
    let received = try events { try session.buy("solo.monthly", options, $0) }
    let transactions = received.transactions.map(\.0)
    #expect(transactions.count == 13)
    #expect(transactions.first?.purchaseDate == instant("2025-01-15T10:00:00Z"))
    #expect(transactions.last?.expirationDate == instant("2026-02-15T10:00:00Z"))
    #expect(transactions.allSatisfy { !$0.isFinished })
    #expect(received.allSatisfy { $0.time == t0 })
    #expect(session.subscriptionStatuses().first?.state == .subscribed)
  }

  @Test func backDatedPurchaseOnceExpiresAfterOnePeriod() throws {
    var session = makeSession()
    let options = PurchaseOptions(
      purchaseDate: instant("2025-10-01T00:00:00Z"), renewal: .once, origin: .store)
    let received = try events { try session.buy("solo.monthly", options, $0) }
    #expect(received.transactions.count == 1)
    #expect(received.statuses.last?.state == .expired)
    #expect(received.statuses.last?.renewalInfo.expirationReason == .autoRenewDisabled)
  }

  @Test func futurePurchaseDatesAreRefused() {
    var session = makeSession()
    #expect(throws: SessionError.self) {
      try session.buy("pro", PurchaseOptions(purchaseDate: t0.plus(seconds: 1))) { _ in }
    }
    #expect(session.transactionCount == 0)
  }

  @Test func aRateChangeAppliesToPeriodsThatStartAfterIt() throws {
    var session = makeSession(rate: .monthlyRenewalEveryThirtySeconds)
    try session.buy("solo.monthly", PurchaseOptions()) { _ in }
    session.updateSettings { $0.timeRate = .oneRenewalEveryTenSeconds }
    #expect(session.nextScheduledEvent == t0.plus(seconds: 30))
    let renewed = try events { try session.advance(to: t0.plus(seconds: 30), $0) }
    #expect(renewed.transactions.first?.0.expirationDate == t0.plus(seconds: 40))
  }

  @Test func advancingNextJumpsToTheNextTransition() throws {
    var session = makeSession(rate: .monthlyRenewalEveryThirtySeconds)
    #expect(throws: SessionError.self) { try session.advanceToNextEvent { _ in } }
    try session.buy("solo.monthly", PurchaseOptions()) { _ in }
    let next = try events { try session.advanceToNextEvent($0) }
    #expect(session.now == t0.plus(seconds: 30))
    #expect(next.transactions.count == 1)
  }

  @Test func aRunawayAdvanceIsRefusedAndChangesNothing() throws {
    var options = SessionOptions()
    options.maximumEventsPerVerb = 1000
    var session = Session(configuration: testConfiguration, start: t0, options: options)
    session.updateSettings { $0.timeRate = .oneRenewalEveryTwoSeconds }
    try session.buy("solo.monthly", PurchaseOptions()) { _ in }
    #expect(throws: SessionError.self) { try session.advance(to: t0.plus(seconds: 3600)) { _ in } }
    #expect(session.now == t0)
    #expect(session.transactionCount == 1)
    try session.advance(to: t0.plus(seconds: 600)) { _ in }
    #expect(session.transactionCount == 301)
  }

  @Test func theClockNeverGoesBack() throws {
    var session = makeSession()
    try session.advance(to: t0.plus(seconds: 10)) { _ in }
    #expect(throws: SessionError.self) { try session.advance(to: t0) { _ in } }
  }
}
