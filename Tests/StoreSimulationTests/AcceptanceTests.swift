import StoreConfiguration
import Testing

@testable import StoreSimulation

/// The spec's acceptance scenarios that part 1 of the engine covers (AS-01 to AS-08, AS-12).
@Suite struct AcceptanceTests {
  /// AS-01: a purchase made outside the app, field by field.
  @Test func purchaseOutsideTheAppArrivesOnUpdatesWithEveryField() throws {
    var session = makeSession()
    let received = try events { try session.buy("annual", PurchaseOptions(origin: .store), $0) }
    let delivered = received.transactions.filter { $0.1 == .updates }
    #expect(delivered.count == 1)
    let transaction = try #require(delivered.first?.0)
    #expect(transaction.id == 0)
    #expect(transaction.originalID == transaction.id)
    #expect(transaction.productID == "annual")
    #expect(transaction.productType == .autoRenewable)
    #expect(transaction.price == 39_990)
    #expect(transaction.currency == "USD")
    #expect(transaction.storefront == "USA")
    #expect(transaction.storefrontID == "143441")
    #expect(transaction.reason == .purchase)
    #expect(transaction.environment == "Xcode")
    #expect(transaction.ownershipType == "purchased")
    #expect(transaction.expirationDate == instant("2027-01-15T10:00:00Z"))
    #expect(received.purchaseResults.isEmpty)
    #expect(session.allTransactions().map(\.state) == [.purchased])
  }

  /// AS-02: a purchase made in the app is its result, not an update, and stays unfinished.
  @Test func inAppPurchaseIsReturnedNotBroadcast() throws {
    var session = makeSession()
    let received = try events { try session.buy("pro", PurchaseOptions(), $0) }
    #expect(received.transactions.map(\.1) == [.purchaseResult])
    #expect(received.purchaseResults.map(\.outcome) == [.success])
    #expect(received.purchaseResults.first?.transactionID == 0)
    #expect(received.paymentQueue.map(\.state) == [.purchasing, .purchased])
    #expect(session.unfinishedTransactions().map(\.id) == [0])
    try session.finish(0) { _ in }
    #expect(session.unfinishedTransactions().isEmpty)
  }

  /// AS-03: unfinished transactions are delivered again when the app starts listening.
  @Test func unfinishedTransactionsAreRedeliveredAtLaunch() throws {
    var session = makeSession()
    try session.buy("pro", PurchaseOptions(origin: .store)) { _ in }
    let first = events { session.launch($0) }
    #expect(first.transactions.map(\.0.id) == [0])
    #expect(first.transactions.map(\.1) == [.updates])
    try session.finish(0) { _ in }
    #expect(events { session.launch($0) }.isEmpty)
  }

  /// AS-04: Ask to Buy, then approval of the same transaction.
  @Test func askToBuyDefersAndApprovalDeliversTheSameTransaction() throws {
    var session = makeSession { $0.askToBuyEnabled = true }
    let asked = try events { try session.buy("monthly", PurchaseOptions(), $0) }
    #expect(asked.purchaseResults.map(\.outcome) == [.pending])
    #expect(asked.paymentQueue.map(\.state) == [.purchasing, .deferred])
    let pending = try #require(session.transaction(0))
    #expect(pending.state == .deferred)
    #expect(pending.pendingAskToBuyConfirmation)
    #expect(session.currentEntitlements().isEmpty)
    #expect(session.unfinishedTransactions().isEmpty)

    let approved = try events { try session.approveAskToBuy(0, $0) }
    let delivered = try #require(approved.transactions.first)
    #expect(delivered.0.id == 0)
    #expect(delivered.1 == .updates)
    #expect(delivered.0.state == .purchased)
    #expect(!delivered.0.pendingAskToBuyConfirmation)
    #expect(session.unfinishedTransactions().map(\.id) == [0])
    #expect(session.currentEntitlements().map(\.id) == [0])
  }

  @Test func askToBuyDeclineDeliversNothing() throws {
    var session = makeSession { $0.askToBuyEnabled = true }
    try session.buy("pro", PurchaseOptions()) { _ in }
    let declined = try events { try session.declineAskToBuy(0, $0) }
    #expect(declined.transactions.map(\.1) == [nil])
    #expect(declined.transactions.first?.0.isAskToBuyDeclined == true)
    #expect(session.currentEntitlements().isEmpty)
    #expect(throws: SessionError.self) { try session.approveAskToBuy(0) { _ in } }
  }

  /// AS-05: a forced renewal makes a renewal transaction now.
  @Test func forcedRenewalCreatesARenewalNow() throws {
    var session = makeSession()
    try session.buy("solo.monthly", PurchaseOptions()) { _ in }
    try session.finish(0) { _ in }
    try session.advance(to: t0.plus(seconds: 5)) { _ in }
    let renewed = try events { try session.forceRenewal("solo.monthly", $0) }
    #expect(session.allTransactions().count == 2)
    let renewal = try #require(renewed.transactions.first { $0.1 == .updates }?.0)
    #expect(renewal.id == 1)
    #expect(renewal.originalID == 0)
    #expect(renewal.reason == .renewal)
    #expect(renewal.purchaseDate == t0.plus(seconds: 5))
    #expect(renewal.expirationDate == instant("2026-02-15T10:00:05Z"))
    #expect(!renewal.isFinished)
    let status = try #require(renewed.statuses.last)
    #expect(status.renewalInfo.willAutoRenew)
    #expect(status.renewalInfo.priceIncreaseStatus == .noIncreasePending)
    try session.forceRenewal("solo.monthly") { _ in }
    #expect(session.unfinishedTransactions().count == 2)
  }

  /// AS-06: period lengths at a fast rate, through purchases.
  @Test func purchasesExpireByTheRatesTable() throws {
    var session = makeSession(rate: .monthlyRenewalEveryThirtySeconds)
    let products = ["weekly", "solo.monthly", "every2months", "quarterly", "semiannual", "yearly"]
    for id in products { try session.buy(id, PurchaseOptions()) { _ in } }
    let lengths = session.allTransactions().map {
      ($0.expirationDate!.milliseconds - $0.purchaseDate.milliseconds) / 1000
    }
    #expect(lengths == [10, 30, 60, 90, 180, 360])
  }

  @Test func fileTimeRateIsTheDefaultAfterReset() {
    var configuration = testConfiguration
    configuration.settings?.timeRate = 13
    var session = Session(configuration: configuration, start: t0)
    session.updateSettings { $0.timeRate = .oneRenewalEveryTwoSeconds }
    session.resetSettings()
    #expect(session.settings.timeRate == .monthlyRenewalEveryFiveMinutes)
  }

  /// AS-07: a refund revokes at once with reason `other`, or `developerIssue` when chosen.
  @Test func refundRevokesAtOnce() throws {
    var session = makeSession()
    try session.buy("pro", PurchaseOptions()) { _ in }
    try session.advance(to: t0.plus(seconds: 60)) { _ in }
    let refunded = try events { try session.refund(0, $0) }
    let transaction = try #require(refunded.transactions.first)
    #expect(transaction.1 == .updates)
    #expect(transaction.0.id == 0)
    #expect(transaction.0.revocationDate == t0.plus(seconds: 60))
    #expect(transaction.0.revocationReason == .other)
    #expect(refunded.contains { $0.kind == .revokedEntitlements(productIDs: ["pro"]) })
    #expect(session.currentEntitlements().isEmpty)
    #expect(session.allTransactions().count == 1)
    let again = #expect(throws: SessionError.self) { try session.refund(0) { _ in } }
    #expect(again?.reason == .refund(.alreadyRefunded(transaction: 0)))
    #expect(again?.description == "transaction 0 is already refunded")
  }

  @Test func refundingTheCurrentPeriodRevokesTheSubscription() throws {
    var session = makeSession()
    try session.buy("solo.monthly", PurchaseOptions()) { _ in }
    let refunded = try events { try session.refund(0, reason: .developerIssue, $0) }
    #expect(refunded.transactions.first?.0.revocationReason == .developerIssue)
    #expect(refunded.statuses.last?.state == .revoked)
    #expect(session.currentEntitlements().isEmpty)
    #expect(session.nextScheduledEvent == nil)
  }

  /// AS-08: auto-renew off, then natural expiry with its reason.
  @Test func cancelledSubscriptionExpiresAtPeriodEnd() throws {
    var session = makeSession(rate: .monthlyRenewalEveryThirtySeconds)
    try session.buy("solo.monthly", PurchaseOptions()) { _ in }
    let cancelled = try events { try session.setAutoRenew(0, enabled: false, $0) }
    #expect(cancelled.transactions.isEmpty)
    #expect(cancelled.statuses.last?.renewalInfo.willAutoRenew == false)
    #expect(cancelled.statuses.last?.state == .subscribed)
    let expired = try events { try session.advance(to: t0.plus(seconds: 31), $0) }
    #expect(expired.transactions.isEmpty)
    #expect(expired.statuses.map(\.state) == [.expired])
    #expect(expired.statuses.last?.renewalInfo.expirationReason == .autoRenewDisabled)
    #expect(expired.first?.time == t0.plus(seconds: 30))
    #expect(session.currentEntitlements().isEmpty)
  }

  @Test func reenablingAutoRenewBeforeExpiryKeepsRenewing() throws {
    var session = makeSession(rate: .monthlyRenewalEveryThirtySeconds)
    try session.buy("solo.monthly", PurchaseOptions()) { _ in }
    try session.setAutoRenew(0, enabled: false) { _ in }
    try session.setAutoRenew(0, enabled: true) { _ in }
    let renewed = try events { try session.advance(to: t0.plus(seconds: 61), $0) }
    #expect(renewed.transactions.map(\.0.reason) == [.renewal, .renewal])
  }

  /// AS-12: an interrupted purchase fails, and resolving it makes a new transaction.
  @Test func interruptedPurchaseResolvesIntoANewTransaction() throws {
    var session = makeSession { $0.interruptedPurchasesEnabled = true }
    let interrupted = try events { try session.buy("coins", PurchaseOptions(quantity: 2), $0) }
    #expect(interrupted.paymentQueue.map(\.state) == [.purchasing, .failed])
    #expect(interrupted.paymentQueue.last?.error == .unknown)
    #expect(interrupted.purchaseResults.map(\.outcome) == [.pending])
    #expect(session.transaction(0)?.hasPurchaseIssue == true)
    try session.finish(0) { _ in }
    let resolved = try events { try session.resolveIssue(0, $0) }
    let purchase = try #require(resolved.transactions.first { $0.1 == .updates }?.0)
    #expect(purchase.id == 1)
    #expect(purchase.productID == "coins")
    #expect(purchase.purchasedQuantity == 2)
    #expect(purchase.state == .purchased)
    #expect(resolved.paymentQueue.map(\.state) == [.purchased])
    #expect(session.transaction(0)?.hasPurchaseIssue == false)
  }
}
