import Testing

@testable import StoreSimulation

/// Refund requests and their decisions, prorated refunds and reversals, renewal-date extensions,
/// and the renewal-info fields Apple always sends.
@Suite struct RefundAndExtensionTests {
  @Test func aRefundRequestWaitsTurnsAutoRenewOffAndIsGrantedOrDeclined() throws {
    var session = makeSession(rate: .monthlyRenewalEveryThirtySeconds)
    try session.buy("solo.monthly", PurchaseOptions()) { _ in }
    let asked = try events { try session.requestRefund(0, reason: .unintendedPurchase, $0) }
    #expect(
      asked.contains { $0.kind == .refundRequested(transactionID: 0, reason: .unintendedPurchase) })
    #expect(asked.statuses.last?.renewalInfo.willAutoRenew == false)
    #expect(session.transaction(0)?.hasRefundRequest == true)
    #expect(session.transaction(0)?.revocationDate == nil)
    #expect(throws: SessionError.self) { try session.requestRefund(0) { _ in } }
    let declined = try events { try session.declineRefund(0, $0) }
    #expect(declined.contains { $0.kind == .refundDeclined(transactionID: 0) })
    #expect(session.transaction(0)?.hasRefundRequest == false)
    #expect(throws: SessionError.self) { try session.declineRefund(0) { _ in } }
    try session.requestRefund(0) { _ in }
    try session.refund(0) { _ in }
    #expect(session.transaction(0)?.hasRefundRequest == false)
    #expect(session.transaction(0)?.revocationType == .refundFull)
    #expect(session.transaction(0)?.revocationPercentage == 100_000)
  }

  @Test func aProratedRefundSaysHowMuchAndAReversalRestoresTheSubscription() throws {
    var session = makeSession(rate: .monthlyRenewalEveryThirtySeconds)
    try session.buy("solo.monthly", PurchaseOptions()) { _ in }
    let refunded = try events { try session.refund(0, share: 33_333, $0) }
    let transaction = try #require(refunded.transactions.first?.0)
    #expect(transaction.revocationType == .refundProrated)
    #expect(transaction.revocationPercentage == 33_333)
    #expect(refunded.statuses.last?.state == .revoked)
    #expect(throws: SessionError.self) { try session.refund(0, share: 0) { _ in } }
    let reversed = try events { try session.reverseRefund(0, $0) }
    let restored = try #require(reversed.transactions.first?.0)
    #expect(restored.revocationDate == nil && restored.revocationType == nil)
    #expect(restored.revocationPercentage == nil)
    #expect(reversed.statuses.last?.state == .subscribed)
    #expect(reversed.statuses.last?.renewalInfo.willAutoRenew == false)
    #expect(session.currentEntitlements().map(\.id) == [0])
    #expect(throws: SessionError.self) { try session.reverseRefund(0) { _ in } }
    // It was not renewing: at the period's end it expires, voluntarily.
    let end = try events { try session.advance(to: t0.plus(seconds: 31), $0) }
    #expect(end.statuses.last?.state == .expired)
    #expect(end.statuses.last?.renewalInfo.expirationReason == .autoRenewDisabled)
  }

  @Test func aRefundCannotBeReversedOnceTheGroupWasBoughtAgain() throws {
    // Found by the property tests: the old period and the new one would both run.
    var session = makeSession(rate: .monthlyRenewalEveryThirtySeconds)
    try session.buy("solo.monthly", PurchaseOptions()) { _ in }
    try session.refund(0) { _ in }
    try session.buy("solo.monthly", PurchaseOptions()) { _ in }
    let refusal = try #require(session.refusal(.reverseRefund(0)))
    #expect(refusal.message.contains("transaction 1 is current"))
    #expect(throws: SessionError.self) { try session.reverseRefund(0) { _ in } }
    #expect(session.invariantViolation() == nil)
  }

  @Test func aReversedNonConsumableIsOwnedAgain() throws {
    var session = makeSession()
    try session.buy("pro", PurchaseOptions()) { _ in }
    try session.refund(0) { _ in }
    #expect(session.currentEntitlements().isEmpty)
    try session.reverseRefund(0) { _ in }
    #expect(session.currentEntitlements().map(\.productID) == ["pro"])
  }

  @Test func anExtensionMovesTheRenewalAndCountsAgainstTwoAYear() throws {
    var session = makeSession()
    try session.buy("solo.monthly", PurchaseOptions()) { _ in }
    let before = try #require(session.transaction(0)?.expirationDate)
    let extended = try events {
      try session.extendRenewalDate(0, days: 10, reason: .serviceIssueOrOutage, $0)
    }
    let moved = try #require(session.transaction(0)?.expirationDate)
    #expect(moved == before.adding(milliseconds: 10 * 86_400_000))
    #expect(extended.statuses.last?.renewalInfo.renewalDate == moved)
    #expect(session.nextScheduledEvent == moved)
    let event = try #require(
      extended.compactMap { if case .renewalExtension(let e) = $0.kind { e } else { nil } }.first)
    #expect(event.newExpirationDate == moved && event.failure == nil && event.days == 10)
    try session.extendRenewalDate(0, days: 90) { _ in }
    do {
      try session.extendRenewalDate(0, days: 1) { _ in }
      Issue.record("a third extension within a year was taken")
    } catch {
      #expect(
        error.message
          == "transaction 0's subscription cannot be extended: it was extended twice in the past year"
      )
    }
    #expect(throws: SessionError.self) { try session.extendRenewalDate(0, days: 91) { _ in } }
    #expect(throws: SessionError.self) { try session.extendRenewalDate(0, days: 0) { _ in } }
  }

  @Test func freeTrialsAndLapsedSubscriptionsCannotBeExtended() throws {
    var session = makeSession()
    try session.buy("monthly", PurchaseOptions()) { _ in }
    try session.expireSubscription("monthly") { _ in }
    #expect(throws: SessionError.self) { try session.extendRenewalDate(0, days: 5) { _ in } }
    try session.buy("monthly", PurchaseOptions(offer: .winBack("winback.free"))) { _ in }
    #expect(session.transaction(1)?.offer?.paymentMode == .freeTrial)
    do {
      try session.extendRenewalDate(1, days: 5) { _ in }
      Issue.record("a free offer period was extended")
    } catch {
      #expect(error.message.hasSuffix("it is in a free offer period"))
    }
  }

  @Test func aMassExtensionReportsEachSubscriberAndASummary() throws {
    var session = makeSession()
    try session.buy("solo.monthly", PurchaseOptions()) { _ in }
    let all = try events {
      try session.extendRenewalDates(of: "solo.monthly", days: 3, requestIdentifier: "r1", $0)
    }
    let summary = try #require(
      all.compactMap { if case .renewalExtensionSummary(let s) = $0.kind { s } else { nil } }.first)
    #expect(summary.succeededCount == 1 && summary.failedCount == 0)
    #expect(summary.requestIdentifier == "r1")
    let none = try events { try session.extendRenewalDates(of: "yearly", days: 3, $0) }
    #expect(none.count == 1)
  }

  @Test func renewalInfoAlwaysHasARenewalDateAndTheAppAccountToken() throws {
    var session = makeSession(rate: .monthlyRenewalEveryThirtySeconds)
    let token = "9f1c5e2a-8b5d-4c1e-9a7b-1d2e3f4a5b6c"
    try session.buy("solo.monthly", PurchaseOptions(appAccountToken: token)) { _ in }
    try session.advance(to: t0.plus(seconds: 31)) { _ in }
    #expect(session.transaction(1)?.appAccountToken == token, "a renewal keeps the token")
    try session.setAutoRenew(1, enabled: false) { _ in }
    var info = try #require(session.subscriptionStatuses().first?.renewalInfo)
    #expect(info.renewalDate == session.transaction(1)?.expirationDate)
    #expect(info.appAccountToken == token)
    try session.advance(to: t0.plus(seconds: 70)) { _ in }
    info = try #require(session.subscriptionStatuses().first?.renewalInfo)
    #expect(session.subscriptionStatuses().first?.state == .expired)
    #expect(info.renewalDate == session.transaction(1)?.expirationDate)
  }

  @Test func aProductRemovedFromTheConfigurationExpiresAsNotForSale() throws {
    var session = makeSession(rate: .monthlyRenewalEveryThirtySeconds)
    try session.buy("solo.monthly", PurchaseOptions()) { _ in }
    var configuration = testConfiguration
    configuration.subscriptionGroups?.removeAll { $0.id == "G-solo.monthly" }
    session.reload(configuration)
    let renewal = try events { try session.advance(to: t0.plus(seconds: 31), $0) }
    #expect(renewal.transactions.isEmpty)
    #expect(renewal.statuses.last?.state == .expired)
    #expect(renewal.statuses.last?.renewalInfo.expirationReason == .productUnavailable)
  }

  @Test func everyEventCountsTheSameMutedOrNot() throws {
    var loud = makeSession(rate: .monthlyRenewalEveryThirtySeconds)
    var quiet = loud
    quiet.isMuted = true
    var heard = 0
    try loud.buy("solo.monthly", PurchaseOptions()) { _ in heard += 1 }
    try loud.advance(to: t0.plus(seconds: 95)) { _ in heard += 1 }
    try loud.refund(2) { _ in heard += 1 }
    try quiet.buy("solo.monthly", PurchaseOptions()) { _ in }
    try quiet.advance(to: t0.plus(seconds: 95)) { _ in }
    try quiet.refund(2) { _ in }
    #expect(loud.emittedEventCount == UInt64(heard))
    #expect(quiet.emittedEventCount == loud.emittedEventCount)
  }
}
