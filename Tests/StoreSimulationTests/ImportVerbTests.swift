import Foundation
import StoreConfiguration
import Testing

@testable import StoreSimulation

/// `import transaction` and `import renewal` in the engine: Apple's values kept where the
/// session would derive its own, history that notifies nothing, a state the clock continues,
/// and ids no other customer can be given.
@Suite struct ImportVerbTests {
  static let start = Instant(iso8601: "2026-11-22T02:00:00Z")!
  static let apple: UInt64 = 2_000_000_987_654_321

  func session() throws -> Session {
    let root = URL(fileURLWithPath: #filePath).deletingLastPathComponent()
      .deletingLastPathComponent().deletingLastPathComponent()
    let bytes = try Data(contentsOf: root.appendingPathComponent("Configs/FoodTruck.storekit"))
    let configuration = try #require(StoreKitConfiguration.load(Array(bytes)).configuration)
    var session = Session(configuration: configuration, start: Self.start)
    session.settings.timeRate = .realTime
    try session.perform(.selectCustomer(name: "imported", number: nil)) { _ in }
    return session
  }

  /// A monthly period bought `daysAgo` days before the start, in France, in euros.
  func monthly(_ id: UInt64, original: UInt64? = nil, daysAgo: Int64) -> ImportedTransaction {
    let day: Int64 = 86_400_000
    var t = ImportedTransaction(
      id: id, originalID: original ?? id, productID: "socialfeed.monthly",
      purchaseDate: Instant(milliseconds: Self.start.milliseconds - daysAgo * day))
    t.expirationDate = Instant(milliseconds: t.purchaseDate.milliseconds + 30 * day)
    t.price = 9_490
    t.currency = "EUR"
    t.storefront = "FRA"
    t.storefrontID = "143442"
    t.webOrderLineItemID = "\(id + 7)"
    t.appTransactionID = "705123456789012345"
    t.appAccountToken = "3f0c8a3e-1111-4222-8333-444455556666"
    t.reason = original == nil ? .purchase : .renewal
    return t
  }

  @Test func applesValuesAreKeptAndNothingIsNotified() throws {
    var session = try session()
    var events: [StoreEvent] = []
    try session.perform(.importTransaction(monthly(Self.apple, daysAgo: 40))) { events.append($0) }
    var renewal = monthly(Self.apple + 3, original: Self.apple, daysAgo: 10)
    renewal.offer = TransactionOffer(
      type: .code, id: "SPRING-2026", paymentMode: .payUpFront, period: .init(1, .month))
    renewal.ownership = .familyShared
    try session.perform(.importTransaction(renewal)) { events.append($0) }
    #expect(events.allSatisfy { $0.notifications.isEmpty }, "history notifies nothing")
    let kept = try #require(session.transaction(Self.apple + 3))
    #expect(kept.webOrderLineItemID == "\(Self.apple + 10)")
    #expect(kept.appTransactionID == "705123456789012345")
    #expect(kept.currency == "EUR" && kept.storefront == "FRA" && kept.storefrontID == "143442")
    #expect(kept.price == 9_490 && kept.reason == .renewal && kept.originalID == Self.apple)
    #expect(
      kept.offer?.id == "SPRING-2026", "an offer the configuration lacks is kept as Apple named it")
    #expect(kept.ownershipType == "familyShared")
    #expect(kept.isFinished)
    #expect(session.invariantViolation() == nil)
    let status = try #require(session.status(ofGroup: 0) ?? session.status(ofGroup: 1))
    #expect(status.state == .subscribed && status.transactionID == Self.apple + 3)
    #expect(status.appTransactionID == "705123456789012345")
    #expect(status.renewalInfo.currency == "EUR")

    let refused = session.refusal(.importTransaction(monthly(Self.apple, daysAgo: 1)))
    #expect(refused?.reason == .imported(.importedIDTaken(Self.apple)))
    var lettered = monthly(Self.apple + 8, daysAgo: 1)
    lettered.webOrderLineItemID = "W-1"
    #expect(
      session.refusal(.importTransaction(lettered))?.reason
        == .imported(.importedIDNotDecimal(field: "webOrderLineItemId", value: "W-1")))
    var unknown = monthly(Self.apple + 9, daysAgo: 1)
    unknown.productID = "socialfeed.montly"
    #expect(session.refusal(.importTransaction(unknown))?.suggestions.first == "socialfeed.monthly")
  }

  /// A refunded subscription counts against the introductory offer, as a refunded purchase does
  /// in the live engine; the invariants hold (the debug build checks them after every verb).
  @Test func aRefundedImportedSubscriptionCountsAsAPurchase() throws {
    var session = try session()
    var refunded = monthly(Self.apple, daysAgo: 40)
    refunded.revocationDate = Instant(milliseconds: Self.start.milliseconds - 86_400_000 * 35)
    refunded.revocationReason = .other
    try session.perform(.importTransaction(refunded)) { _ in }
    #expect(session.invariantViolation() == nil)
    let group = try #require(
      session.catalog.products.first { $0.productID == "socialfeed.monthly" })
    #expect(!session.isEligibleForIntroductoryOffer(group: Int(try #require(group.groupIndex))))
  }

  @Test func theClockContinuesAnImportedSubscription() throws {
    var session = try session()
    try session.perform(.importTransaction(monthly(Self.apple, daysAgo: 10))) { _ in }
    let expires = try #require(session.transaction(Self.apple)?.expirationDate)
    var renewed: [Transaction] = []
    try session.perform(.advance(to: Instant(milliseconds: expires.milliseconds + 1_000))) {
      if case .transaction(let t, _) = $0.kind, t.reason == .renewal { renewed.append(t) }
    }
    let renewal = try #require(renewed.first)
    #expect(renewal.purchaseDate == expires && renewal.originalID == Self.apple)
    #expect(renewal.id == Self.apple + 1, "the customer's next id")
    #expect(renewal.webOrderLineItemID == String(renewal.id), "its own line item, not Apple's")
    #expect(renewal.appAccountToken == "3f0c8a3e-1111-4222-8333-444455556666")
    #expect(renewal.appTransactionID == "705123456789012345")
    #expect(renewal.currency == "EUR", "renewed in the customer's storefront")
  }

  @Test func billingRetryAndAPendingPriceIncreaseAreTakenFromTheStatus() throws {
    var session = try session()
    try session.perform(.importTransaction(monthly(Self.apple, daysAgo: 35))) { _ in }
    var state = ImportedRenewal(
      originalID: Self.apple, state: .inBillingRetryPeriod, productID: "socialfeed.monthly",
      autoRenewProductID: "socialfeed.monthly", willAutoRenew: true)
    state.expirationReason = .billingError
    var events: [StoreEvent] = []
    try session.perform(.importRenewal(state)) { events.append($0) }
    #expect(events.allSatisfy { $0.notifications.isEmpty })
    let status = try #require(session.status(ofGroup: 0) ?? session.status(ofGroup: 1))
    #expect(status.state == .inBillingRetryPeriod)
    #expect(status.renewalInfo.expirationReason == .billingError)
    try session.perform(.resolveIssue(Self.apple)) { _ in }
    let recovered = try #require(session.status(ofGroup: 0) ?? session.status(ofGroup: 1))
    #expect(recovered.state == .subscribed && recovered.transactionID == Self.apple + 1)

    var other = try self.session()
    try other.perform(.importTransaction(monthly(Self.apple, daysAgo: 5))) { _ in }
    var increase = ImportedRenewal(
      originalID: Self.apple, state: .subscribed, productID: "socialfeed.monthly",
      autoRenewProductID: "socialfeed.monthly", willAutoRenew: true)
    increase.priceIncrease = .pending
    increase.renewalPrice = 12_990
    try other.perform(.importRenewal(increase)) { _ in }
    let info = try #require(other.status(ofGroup: 0) ?? other.status(ofGroup: 1)).renewalInfo
    #expect(info.priceIncreaseStatus == .pending && info.renewalPrice == 12_990)

    var stray = increase
    stray.originalID = 42
    #expect(
      other.refusal(.importRenewal(stray))?.reason
        == .imported(.noImportedSubscription(originalID: 42)))
  }

  @Test func anotherCustomerIsNeverGivenAnImportedID() throws {
    var session = try session()
    // Apple's id where the session's own customer's next ids are.
    var taken = monthly(0, daysAgo: 3)
    taken.webOrderLineItemID = nil
    try session.perform(.importTransaction(taken)) { _ in }
    try session.perform(.selectCustomer(name: nil, number: nil)) { _ in }
    try session.perform(.buy(productID: "foodtruck.donuts.box", options: .init())) { _ in }
    let own = try #require(session.lastTransactionID())
    #expect(own == 1, "id 0 is the imported customer's")
    #expect(session.customer(owningID: 0)?.name == "imported")
    #expect(session.customer(owningID: own)?.name == nil)
    #expect(session.invariantViolation() == nil)
  }
}
