import StoreConfiguration
import Testing

@testable import StoreSimulation

@Suite struct BillingAndPriceTests {
  func retrySession(grace: Bool) -> Session {
    makeSession(rate: .monthlyRenewalEveryThirtySeconds) {
      $0.shouldEnterBillingRetryOnRenewal = true
      $0.billingGracePeriodIsEnabled = grace
    }
  }

  /// AS-09: billing retry with grace, then resolve.
  @Test func failedRenewalEntersGraceThenRetryAndResolveRenews() throws {
    var session = retrySession(grace: true)
    try session.buy("solo.monthly", PurchaseOptions()) { _ in }
    let failed = try events { try session.advance(to: t0.plus(seconds: 30), $0) }
    #expect(failed.transactions.map(\.1) == [nil])
    #expect(failed.transactions.first?.0.hasPurchaseIssue == true)
    let grace = try #require(failed.statuses.last)
    #expect(grace.state == .inGracePeriod)
    #expect(grace.renewalInfo.gracePeriodExpirationDate == t0.plus(seconds: 45))
    #expect(grace.renewalInfo.isInBillingRetry)
    #expect(grace.renewalInfo.expirationReason == .billingError)
    #expect(grace.billingRetryExpirationDate == t0.plus(seconds: 90))
    #expect(failed.messages == [.billingIssue])
    #expect(session.currentEntitlements().map(\.id) == [0])

    let retry = try events { try session.advance(to: t0.plus(seconds: 50), $0) }
    #expect(retry.statuses.map(\.state) == [.inBillingRetryPeriod])
    #expect(retry.first?.time == t0.plus(seconds: 45))
    #expect(session.currentEntitlements().isEmpty)

    let resolved = try events { try session.resolveIssue(0, $0) }
    let renewal = try #require(resolved.transactions.first { $0.1 == .updates }?.0)
    #expect(renewal.id == 1)
    #expect(renewal.originalID == 0)
    #expect(renewal.purchaseDate == t0.plus(seconds: 50))
    #expect(resolved.statuses.last?.state == .subscribed)
    #expect(session.transaction(0)?.hasPurchaseIssue == false)

    let again = try events { try session.advance(to: t0.plus(seconds: 80), $0) }
    #expect(again.statuses.last?.state == .inGracePeriod)
  }

  @Test func unresolvedRetryExpiresWithBillingError() throws {
    var session = retrySession(grace: false)
    try session.buy("solo.monthly", PurchaseOptions()) { _ in }
    let received = try events { try session.advance(to: t0.plus(seconds: 100), $0) }
    #expect(received.statuses.map(\.state) == [.inBillingRetryPeriod, .expired])
    #expect(received.statuses.last?.renewalInfo.expirationReason == .billingError)
    #expect(received.statuses.last?.renewalInfo.willAutoRenew == false)
    #expect(received.statuses.last.map { _ in received.last!.time } == t0.plus(seconds: 90))
    #expect(throws: SessionError.self) { try session.resolveIssue(0) { _ in } }
  }

  @Test func weeklySubscriptionsGetTheWeeklyGracePeriod() throws {
    var session = retrySession(grace: true)
    try session.buy("weekly", PurchaseOptions()) { _ in }
    let received = try events { try session.advance(to: t0.plus(seconds: 10), $0) }
    #expect(received.statuses.last?.renewalInfo.gracePeriodExpirationDate == t0.plus(seconds: 19))
  }

  /// AS-10: price increase requested twice, then declined.
  @Test func declinedPriceIncreaseExpiresTheSubscription() throws {
    var session = makeSession(rate: .monthlyRenewalEveryThirtySeconds)
    try session.buy("solo.monthly", PurchaseOptions()) { _ in }
    for _ in 0..<2 {
      let requested = try events { try session.priceIncrease(.request, 0, $0) }
      #expect(requested.messages == [.priceIncreaseConsent])
      #expect(requested.statuses.last?.renewalInfo.priceIncreaseStatus == .pending)
    }
    let declined = try events { try session.priceIncrease(.decline, 0, $0) }
    #expect(declined.statuses.last?.renewalInfo.willAutoRenew == false)
    #expect(declined.statuses.last?.renewalInfo.priceIncreaseStatus == .noIncreasePending)
    let expired = try events { try session.advance(to: t0.plus(seconds: 31), $0) }
    #expect(expired.statuses.last?.state == .expired)
    #expect(expired.statuses.last?.renewalInfo.expirationReason == .didNotConsentToPriceIncrease)
  }

  @Test func consentedPriceIncreaseRenews() throws {
    var session = makeSession(rate: .monthlyRenewalEveryThirtySeconds)
    try session.buy("solo.monthly", PurchaseOptions()) { _ in }
    try session.priceIncrease(.request, 0) { _ in }
    let consented = try events { try session.priceIncrease(.consent, 0, $0) }
    #expect(consented.statuses.last?.renewalInfo.priceIncreaseStatus == .agreed)
    let renewed = try events { try session.advance(to: t0.plus(seconds: 31), $0) }
    #expect(renewed.transactions.count == 1)
    #expect(renewed.statuses.last?.renewalInfo.priceIncreaseStatus == .noIncreasePending)
    #expect(throws: SessionError.self) { try session.priceIncrease(.consent, 0) { _ in } }
  }

  /// Apple's testing guide: "Optionally, increase the price for your subscription in your
  /// StoreKit configuration file. You can still test this scenario without increasing the
  /// price." Without a price, the increase asks for the configuration's current price.
  @Test func anUnpricedIncreaseAsksForTheConfigurationsPriceNeverAnInventedOne() throws {
    var session = makeSession(rate: .monthlyRenewalEveryThirtySeconds)
    try session.buy("solo.monthly", PurchaseOptions()) { _ in }
    let requested = try events { try session.priceIncrease(.request, 0, $0) }
    #expect(requested.statuses.last?.renewalInfo.renewalPrice == 1990, "the file's $1.99")
    #expect(session.priceIncrease(forGroup: "G-solo.monthly")?.newPrice == 1990)
    try session.priceIncrease(.decline, 0) { _ in }
    // The file edited: $1.99 becomes $2.49, and the increase asks for that.
    var edited = session
    let solo = rateGroup("solo.monthly", "P1M")
    let text = testConfigurationJSON.replacingOccurrences(
      of: solo, with: solo.replacingOccurrences(of: "\"1.99\"", with: "\"2.49\""))
    #expect(text != testConfigurationJSON)
    edited.reload(StoreKitConfiguration.load(Array(text.utf8)).configuration!)
    try edited.setAutoRenew(0, enabled: true) { _ in }
    let again = try events { try edited.priceIncrease(.request, 0, $0) }
    #expect(again.statuses.last?.renewalInfo.renewalPrice == 2490)
    let terms = try #require(edited.priceIncrease(forGroup: "G-solo.monthly"))
    #expect(terms.oldPrice == 1990 && terms.newPrice == 2490)
    try edited.priceIncrease(.consent, 0) { _ in }
    let renewed = try events { try edited.advance(to: t0.plus(seconds: 31), $0) }
    #expect(renewed.transactions.map(\.0.price) == [2490])
    // Journals written before kept their +10%.
    var options = SessionOptions()
    options.fidelity.unpricedIncrease = .tenPercentMore
    var older = Session(configuration: testConfiguration, start: t0, options: options)
    try older.buy("solo.monthly", PurchaseOptions()) { _ in }
    try older.priceIncrease(.request, 0) { _ in }
    #expect(older.priceIncrease(forGroup: "G-solo.monthly")?.newPrice == 2190)
  }

  @Test func aConsentedIncreaseIsChargedFromTheNextRenewalOn() throws {
    var session = makeSession(rate: .monthlyRenewalEveryThirtySeconds)
    try session.buy("solo.monthly", PurchaseOptions()) { _ in }
    let before = try #require(session.transaction(0)).price
    let expected = before + 200
    let requested = try events { try session.priceIncrease(.request, 0, newPrice: expected, $0) }
    #expect(requested.statuses.last?.renewalInfo.renewalPrice == expected)
    let terms = try #require(session.priceIncrease(forGroup: "G-solo.monthly"))
    #expect(terms.oldPrice == before && terms.newPrice == expected && terms.status == .pending)
    #expect(terms.effective == t0.plus(seconds: 30))
    try session.priceIncrease(.consent, 0) { _ in }
    #expect(session.upcomingRenewals(groupID: "G-solo.monthly").first?.price == expected)
    let renewed = try events { try session.advance(to: t0.plus(seconds: 61), $0) }
    #expect(renewed.transactions.map(\.0.price) == [expected, expected])
    #expect(
      session.priceIncrease(forGroup: "G-solo.monthly") == nil, "in force, nothing is pending")
    // A second increase starts from the price in force, at the price asked.
    try session.priceIncrease(.request, 0, newPrice: 20_000) { _ in }
    #expect(session.priceIncrease(forGroup: "G-solo.monthly")?.oldPrice == expected)
    let renewedAgain = try events { try session.advance(to: t0.plus(seconds: 91), $0) }
    #expect(renewedAgain.statuses.last?.state == .expired, "unanswered, it expires")
  }

  @Test func aDeclinedOrForcedOverIncreaseChargesNothingNew() throws {
    var session = makeSession(rate: .monthlyRenewalEveryThirtySeconds)
    try session.buy("solo.monthly", PurchaseOptions()) { _ in }
    let price = try #require(session.transaction(0)).price
    try session.priceIncrease(.request, 0, newPrice: price * 2) { _ in }
    let renewed = try events { try session.forceRenewal("solo.monthly", $0) }
    #expect(renewed.transactions.last?.0.price == price)
    #expect(session.priceIncrease(forGroup: "G-solo.monthly") == nil)
    #expect(throws: SessionError.self) {
      try session.priceIncrease(.consent, 0, newPrice: 5) { _ in }
    }
  }

  @Test func anUnansweredPriceIncreaseExpiresAtRenewalWithAutoRenewOff() throws {
    var session = makeSession(rate: .monthlyRenewalEveryThirtySeconds)
    try session.buy("solo.monthly", PurchaseOptions()) { _ in }
    try session.priceIncrease(.request, 0) { _ in }
    #expect(session.subscriptionStatuses().first?.renewalInfo.willAutoRenew == true)
    let received = try events { try session.advance(to: t0.plus(seconds: 31), $0) }
    let renewal = try #require(received.statuses.last?.renewalInfo)
    #expect(renewal.expirationReason == .didNotConsentToPriceIncrease)
    #expect(!renewal.willAutoRenew, "an expired subscription that will not renew")
  }

  @Test func aForcedRenewalClearsAPendingPriceIncrease() throws {
    var session = makeSession(rate: .monthlyRenewalEveryThirtySeconds)
    try session.buy("solo.monthly", PurchaseOptions()) { _ in }
    try session.priceIncrease(.request, 0) { _ in }
    let renewed = try events { try session.forceRenewal("solo.monthly", $0) }
    #expect(renewed.statuses.last?.renewalInfo.priceIncreaseStatus == .noIncreasePending)
  }
}

@Suite struct FidelityChoiceTests {
  func session(_ change: (inout FidelityChoices) -> Void) -> Session {
    var options = SessionOptions()
    change(&options.fidelity)
    var session = Session(configuration: testConfiguration, start: t0, options: options)
    session.updateSettings { $0.timeRate = .monthlyRenewalEveryThirtySeconds }
    return session
  }

  @Test func interruptedPurchasesCanFailAsOnIOS() throws {
    var session = session { $0.interruptedPurchaseOutcome = .failed }
    session.updateSettings { $0.interruptedPurchasesEnabled = true }
    let received = try events { try session.buy("coins", PurchaseOptions(), $0) }
    #expect(received.purchaseResults.first?.outcome == .failed)
    #expect(received.purchaseResults.first?.error == .generic(.unknown))
  }

  @Test func resubscriptionsCanStartANewChain() throws {
    var session = session { $0.resubscriptionKeepsOriginalID = false }
    try session.buy("solo.monthly", PurchaseOptions()) { _ in }
    try session.expireSubscription("solo.monthly") { _ in }
    try session.buy("solo.monthly", PurchaseOptions()) { _ in }
    #expect(session.transaction(1)?.originalID == 1)
  }

  @Test func billingRecoveryCanKeepTheMissedRenewalDate() throws {
    var session = session { $0.billingRecoveryStart = .missedRenewal }
    session.updateSettings { $0.shouldEnterBillingRetryOnRenewal = true }
    try session.buy("solo.monthly", PurchaseOptions()) { _ in }
    try session.advance(to: t0.plus(seconds: 40)) { _ in }
    try session.resolveIssue(0) { _ in }
    #expect(session.transaction(1)?.purchaseDate == t0.plus(seconds: 30))
  }

  @Test func unansweredPriceIncreasesCanRenew() throws {
    var session = session { $0.unansweredPriceIncrease = .renew }
    try session.buy("solo.monthly", PurchaseOptions()) { _ in }
    try session.priceIncrease(.request, 0) { _ in }
    let renewed = try events { try session.advance(to: t0.plus(seconds: 31), $0) }
    #expect(renewed.transactions.count == 1)
    #expect(renewed.statuses.last?.renewalInfo.priceIncreaseStatus == .pending)
  }
}
