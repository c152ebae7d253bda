import Testing

@testable import StoreSimulation

@Suite struct LedgerTests {
  @Test func anAppAccountTokenIsSetThroughThePurchasesOriginalTransactionOnly() throws {
    var session = makeSession(rate: .monthlyRenewalEveryThirtySeconds)
    try session.buy("monthly", PurchaseOptions()) { _ in }
    try session.advance(to: t0.plus(seconds: 31)) { _ in }
    let renewal = try #require(session.lastTransactionID(productID: "monthly"))
    let token = "7e3fb20b-4cdb-47cc-936d-99d65f608138"
    let refused = #expect(throws: SessionError.self) {
      try session.setAppAccountToken(renewal, token: token) { _ in }
    }
    #expect(refused?.reason == .refund(.notOriginalTransaction(transaction: renewal, original: 0)))
    #expect(refused?.description.contains("transaction 0") == true)
    try session.setAppAccountToken(0, token: token) { _ in }
    #expect(session.transaction(renewal)?.appAccountToken == token)
  }

  @Test func finishingMarksTransactionsAndIsNotRepeated() throws {
    var session = makeSession()
    try session.buy("coins", PurchaseOptions()) { _ in }
    let finished = try events { try session.finish(0, $0) }
    #expect(finished.transactions.first?.0.isFinished == true)
    #expect(finished.transactions.first?.1 == nil)
    let again = #expect(throws: SessionError.self) { try session.finish(0) { _ in } }
    #expect(again?.reason == .subscription(.alreadyFinished(transaction: 0)))
    #expect(again?.description == "transaction 0 is already finished")
    let missing = #expect(throws: SessionError.self) { try session.finish(9) { _ in } }
    #expect(missing?.reason == .lookup(.noTransaction(9)))
    #expect(missing?.description == "there is no transaction 9")
  }

  @Test func finishAllFinishesEveryUnfinishedTransaction() throws {
    var session = makeSession(rate: .monthlyRenewalEveryThirtySeconds)
    try session.buy("solo.monthly", PurchaseOptions()) { _ in }
    try session.advance(to: t0.plus(seconds: 65)) { _ in }
    #expect(session.unfinishedCount == 3)
    let finished = events { session.finishAll($0) }
    #expect(finished.transactions.count == 3)
    #expect(session.unfinishedCount == 0)
  }

  @Test func deletingAnOriginalDeletesItsRenewalsAndRestoresEligibility() throws {
    var session = makeSession(rate: .monthlyRenewalEveryThirtySeconds)
    try session.buy("monthly", PurchaseOptions()) { _ in }
    #expect(session.transaction(0)?.offer?.type == .introductory)
    try session.advance(to: t0.plus(seconds: 65)) { _ in }
    #expect(!session.isEligibleForIntroductoryOffer(groupID: "G1"))
    let deleted = try events { try session.delete(0, $0) }
    #expect(deleted.removed == [0, 1, 2])
    #expect(session.transactionCount == 0)
    #expect(session.isEligibleForIntroductoryOffer(groupID: "G1"))
    #expect(session.nextScheduledEvent == nil)
    #expect(session.status(forGroup: "G1") == nil)
  }

  @Test func deletingTheLatestRenewalFallsBackToThePreviousPeriod() throws {
    var session = makeSession(rate: .monthlyRenewalEveryThirtySeconds)
    try session.buy("solo.monthly", PurchaseOptions()) { _ in }
    try session.advance(to: t0.plus(seconds: 35)) { _ in }
    let deleted = try events { try session.delete(1, $0) }
    #expect(deleted.removed == [1])
    #expect(deleted.statuses.last?.state == .expired)
    #expect(deleted.statuses.last?.transactionID == 0)
  }

  @Test func clearDeletesEverythingAndIDsAreNeverReused() throws {
    var session = makeSession()
    try session.buy("coins", PurchaseOptions()) { _ in }
    try session.buy("solo.monthly", PurchaseOptions()) { _ in }
    let cleared = events { session.clear($0) }
    #expect(cleared.removed == [0, 1])
    #expect(session.transactionCount == 0)
    #expect(session.subscriptionStatuses().isEmpty)
    try session.buy("coins", PurchaseOptions()) { _ in }
    #expect(session.allTransactions().map(\.id) == [2])
  }

  @Test func restoreReportsNonConsumablesAndSubscriptions() throws {
    var session = makeSession()
    #expect(events { session.restore($0) }.map(\.kind) == [.restoreCompleted(count: 0)])
    try session.buy("coins", PurchaseOptions()) { _ in }
    try session.buy("pro", PurchaseOptions()) { _ in }
    try session.buy("solo.monthly", PurchaseOptions()) { _ in }
    let restored = events { session.restore($0) }
    #expect(restored.paymentQueue.map(\.productID) == ["pro", "solo.monthly"])
    #expect(restored.paymentQueue.allSatisfy { $0.state == .restored })
    #expect(restored.last?.kind == .restoreCompleted(count: 2))
  }

  @Test func entitlementsFollowTheLedger() throws {
    var session = makeSession(rate: .monthlyRenewalEveryThirtySeconds)
    try session.buy("coins", PurchaseOptions()) { _ in }
    try session.buy("pro", PurchaseOptions()) { _ in }
    try session.buy("season", PurchaseOptions()) { _ in }
    try session.buy("solo.monthly", PurchaseOptions()) { _ in }
    #expect(session.currentEntitlements().map(\.productID) == ["pro", "season", "solo.monthly"])
    try session.advance(to: t0.plus(seconds: 31)) { _ in }
    #expect(session.currentEntitlements().map(\.id) == [1, 2, 4])
  }

  @Test func launchRedeliversNewestFirst() throws {
    var session = makeSession(rate: .monthlyRenewalEveryThirtySeconds)
    try session.buy("solo.monthly", PurchaseOptions()) { _ in }
    try session.advance(to: t0.plus(seconds: 65)) { _ in }
    #expect(events { session.launch($0) }.transactions.map(\.0.id) == [2, 1, 0])
  }
}
