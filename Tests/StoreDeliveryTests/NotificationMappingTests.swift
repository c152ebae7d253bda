import StoreCommands
import StoreConfiguration
import StoreTestSupport
import Testing

@testable import StoreDelivery
@testable import StoreSimulation

@Suite struct NotificationMappingTests {
  /// The notifications a script causes.
  func notifications(
    _ lines: [String], configure: (inout SessionSettings) -> Void = { _ in }
  ) throws -> [ServerNotification] {
    var session = Session(configuration: foodTruck(), start: start)
    session.updateSettings(configure)
    var mapper = NotificationMapper(session: session)
    var notifications: [ServerNotification] = []
    for line in lines {
      var events: [StoreEvent] = []
      try Command.parse(line)!.apply(to: &session) { events.append($0) }
      notifications += mapper.notifications(for: events, in: session)
    }
    return notifications
  }

  /// The notification names a script causes.
  func names(
    _ lines: [String], configure: (inout SessionSettings) -> Void = { _ in }
  ) throws -> [String] {
    try notifications(lines, configure: configure).map(\.name)
  }

  @Test func subscribingRenewingAndExpiring() throws {
    #expect(
      try names([
        "buy socialfeed.premium.monthly", "advance next", "auto-renew last off",
        "auto-renew last on",
        "auto-renew last off", "advance next", "buy socialfeed.premium.monthly",
      ]) == [
        "SUBSCRIBED-INITIAL_BUY", "DID_RENEW", "DID_CHANGE_RENEWAL_STATUS-AUTO_RENEW_DISABLED",
        "DID_CHANGE_RENEWAL_STATUS-AUTO_RENEW_ENABLED",
        "DID_CHANGE_RENEWAL_STATUS-AUTO_RENEW_DISABLED",
        "EXPIRED-VOLUNTARY", "SUBSCRIBED-RESUBSCRIBE",
      ])
  }

  /// Apple's notificationType: OFFER_REDEEMED is for "a customer with an active subscription";
  /// a first purchase or a resubscription that redeems an offer is SUBSCRIBED INITIAL_BUY or
  /// RESUBSCRIBE, its transaction carrying the offer.
  @Test func offersRedeemedOnAFirstPurchaseOrAResubscriptionAreSubscribed() throws {
    let sent = try notifications([
      "buy socialfeed.monthly offer=code:\"Free Month\"", "auto-renew last off",
      "expire socialfeed.monthly",
      "buy socialfeed.monthly offer=promo:socialfeed.monthly.loyalty",
      "auto-renew last off", "expire socialfeed.monthly", "buy socialfeed.monthly",
    ])
    #expect(
      sent.map(\.name) == [
        "SUBSCRIBED-INITIAL_BUY", "DID_CHANGE_RENEWAL_STATUS-AUTO_RENEW_DISABLED",
        "EXPIRED-VOLUNTARY", "SUBSCRIBED-RESUBSCRIBE",
        "DID_CHANGE_RENEWAL_STATUS-AUTO_RENEW_DISABLED", "EXPIRED-VOLUNTARY",
        "SUBSCRIBED-RESUBSCRIBE",
      ])
    // The code stacks behind the introductory periods the first purchase starts with.
    #expect(sent[0].transaction?.offer?.type == .introductory)
    #expect(sent[3].transaction?.offer?.type == .promotional)
    #expect(sent[3].transaction?.offer?.id == "socialfeed.monthly.loyalty")
    #expect(sent[6].transaction?.offer == nil)
    #expect(!sent.contains { $0.type == "OFFER_REDEEMED" })
    #expect(try names(["buy socialfeed.monthly"]) == ["SUBSCRIBED-INITIAL_BUY"], "intro")
  }

  @Test func billingRetryWithGraceRecoveryAndExpiry() throws {
    let retry: (inout SessionSettings) -> Void = {
      $0.shouldEnterBillingRetryOnRenewal = true
      $0.billingGracePeriodIsEnabled = true
    }
    #expect(
      try names(
        [
          "buy socialfeed.premium.monthly", "advance next", "advance next", "resolve last",
          "advance next", "advance next", "advance next",
        ],
        configure: retry) == [
          "SUBSCRIBED-INITIAL_BUY", "DID_FAIL_TO_RENEW-GRACE_PERIOD", "GRACE_PERIOD_EXPIRED",
          "DID_RENEW-BILLING_RECOVERY", "DID_FAIL_TO_RENEW-GRACE_PERIOD", "GRACE_PERIOD_EXPIRED",
          "EXPIRED-BILLING_RETRY",
        ])
  }

  @Test func planChangesPriceIncreasesRefundsAndOneTimeCharges() throws {
    #expect(
      try names([
        "buy socialfeed.monthly", "buy socialfeed.premium.monthly", "buy socialfeed.yearly",
        "buy socialfeed.premium.monthly", "price-increase request last",
        "price-increase consent last",
        "buy foodtruck.donuts.box", "refund last",
      ]) == [
        "SUBSCRIBED-INITIAL_BUY", "DID_CHANGE_RENEWAL_PREF-UPGRADE",
        "DID_CHANGE_RENEWAL_PREF-DOWNGRADE",
        "DID_CHANGE_RENEWAL_PREF", "PRICE_INCREASE-PENDING", "PRICE_INCREASE-ACCEPTED",
        "ONE_TIME_CHARGE",
        "REFUND",
      ])
  }

  @Test func aDeclinedPriceIncreaseAndARedeemedOfferCode() throws {
    #expect(
      try names([
        "buy socialfeed.monthly", "buy socialfeed.monthly offer=code:\"Free Month\" from=store",
        "price-increase request last", "price-increase decline last", "advance 1y",
      ]) == [
        "SUBSCRIBED-INITIAL_BUY", "OFFER_REDEEMED", "PRICE_INCREASE-PENDING",
        "DID_CHANGE_RENEWAL_STATUS-AUTO_RENEW_DISABLED", "EXPIRED-PRICE_INCREASE",
      ])
  }

  @Test func offersRedeemedOnAPlanChangeSayUpgradeOrDowngrade() throws {
    #expect(
      try names([
        "buy socialfeed.premium.monthly",
        "buy socialfeed.monthly offer=promo:socialfeed.monthly.loyalty",
        "buy socialfeed.premium.monthly", "auto-renew last off", "auto-renew last on",
      ]) == [
        "SUBSCRIBED-INITIAL_BUY", "OFFER_REDEEMED-DOWNGRADE", "DID_CHANGE_RENEWAL_PREF",
        "DID_CHANGE_RENEWAL_STATUS-AUTO_RENEW_DISABLED",
        "DID_CHANGE_RENEWAL_STATUS-AUTO_RENEW_ENABLED",
      ])
  }

  @Test func renewalsUsingUpQueuedOffersRedeemNothing() {
    let code = TransactionOffer(
      type: .code, id: "Free Month", paymentMode: .freeTrial, period: SubscriptionPeriod(1, .month))
    let intro = TransactionOffer(
      type: .introductory, id: nil, paymentMode: .payAsYouGo, period: SubscriptionPeriod(1, .month))
    let queue = [
      QueuedOffer(productID: "m", offer: intro, periods: 2),
      QueuedOffer(productID: "m", offer: code, periods: 1),
    ]
    #expect(
      NotificationMapper.consumed(
        queue, into: [QueuedOffer(productID: "m", offer: intro, periods: 1)] + queue[1...]))
    #expect(NotificationMapper.consumed(queue, into: Array(queue[1...])))
    #expect(NotificationMapper.consumed(queue, into: []))
    #expect(!NotificationMapper.consumed(Array(queue[..<1]), into: queue))
    #expect(!NotificationMapper.consumed([], into: queue))
  }

  @Test func refundRequestsDecisionsReversalsAndExtensions() throws {
    #expect(
      try names([
        "buy socialfeed.premium.monthly", "refund-request last reason=legal", "refund-decline last",
        "extend last days=30", "extend-all socialfeed.premium.monthly days=3 request=r",
        "extend-all socialfeed.premium.monthly days=3 request=r2", "refund last",
        "refund-reverse last",
      ]) == [
        "SUBSCRIBED-INITIAL_BUY", "CONSUMPTION_REQUEST",
        "DID_CHANGE_RENEWAL_STATUS-AUTO_RENEW_DISABLED", "REFUND_DECLINED", "RENEWAL_EXTENDED",
        "RENEWAL_EXTENDED", "RENEWAL_EXTENSION-SUMMARY", "RENEWAL_EXTENSION-FAILURE",
        "RENEWAL_EXTENSION-SUMMARY", "REFUND", "REFUND_REVERSED",
      ])
  }

  @Test func eachNotificationCarriesTheStateRightAfterItsEvent() throws {
    var session = Session(configuration: foodTruck(), start: start)
    var mapper = NotificationMapper(session: session, namespace: "test")
    var events: [StoreEvent] = []
    try Command.parse("buy socialfeed.premium.monthly")!.apply(to: &session) { events.append($0) }
    try Command.parse("auto-renew last off")!.apply(to: &session) { _ in }
    events = []
    try Command.parse("auto-renew last on")!.apply(to: &session) { events.append($0) }
    _ = mapper.notifications(for: events, in: session)
    // One advance: two renewals, then (auto-renew off at the second) an expiry.
    events = []
    try Command.parse("advance 31s")!.apply(to: &session) { events.append($0) }
    try Command.parse("auto-renew last off")!.apply(to: &session) { events.append($0) }
    try Command.parse("advance 1m")!.apply(to: &session) { events.append($0) }
    let notifications = mapper.notifications(for: events, in: session)
    #expect(
      notifications.map(\.name) == [
        "DID_RENEW", "DID_CHANGE_RENEWAL_STATUS-AUTO_RENEW_DISABLED", "EXPIRED-VOLUNTARY",
      ])
    let renewal = notifications[0]
    #expect(renewal.status?.state == .subscribed)
    #expect(renewal.status?.renewalInfo.willAutoRenew == true)
    #expect(renewal.status?.renewalInfo.renewalDate == renewal.transaction?.expirationDate)
    #expect(notifications[2].status?.state == .expired)
    #expect(Set(notifications.map(\.uuid)).count == 3)
  }

  @Test func notificationsAtOneInstantGetTheirOwnUUIDs() throws {
    var session = Session(configuration: foodTruck(), start: start)
    var mapper = NotificationMapper(session: session, namespace: "a")
    var uuids: [String] = []
    for line in [
      "buy socialfeed.premium.monthly", "auto-renew last off", "auto-renew last on",
      "auto-renew last off", "auto-renew last on",
    ] {
      var events: [StoreEvent] = []
      try Command.parse(line)!.apply(to: &session) { events.append($0) }
      uuids += mapper.notifications(for: events, in: session).map(\.uuid)
    }
    #expect(uuids.count == 5 && Set(uuids).count == 5)
    let other = NotificationMapper(session: session, namespace: "b")
    _ = other
    #expect(nameBasedUUID("a") != nameBasedUUID("b"))
    #expect(nameBasedUUID("a") == nameBasedUUID("a"))
  }
}

private let start = Instant(iso8601: "2026-11-22T02:00:00Z")!

private func foodTruck() -> StoreKitConfiguration {
  StoreKitConfiguration.load(
    contentsOf: packageRoot.appendingPathComponent("Configs/FoodTruck.storekit").path
  ).configuration!
}
