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
    let mapper = NotificationMapper()
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

  @Test func renewalsUsingUpQueuedOffersRedeemNothing() throws {
    // The code queues behind the two introductory periods; the renewals use both up.
    #expect(
      try names([
        "buy socialfeed.monthly", "buy socialfeed.monthly offer=code:\"Free Month\"",
        "advance 31s", "advance 30s", "advance 30s",
      ]) == ["SUBSCRIBED-INITIAL_BUY", "OFFER_REDEEMED", "DID_RENEW", "DID_RENEW", "DID_RENEW"])
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
    let mapper = NotificationMapper(namespace: "test")
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

  /// What a journaled session's lines cause, one mapper for all of them (it keeps nothing).
  func notifiedThroughSteps(_ lines: [String]) throws -> [ServerNotification] {
    var journaled = JournaledSession(
      session: Session(configuration: foodTruck(), start: start), journal: nil)
    let mapper = NotificationMapper(namespace: "steps")
    var made: [ServerNotification] = []
    for line in lines {
      var events: [StoreEvent] = []
      try journaled.apply(Command.parse(line)!) { events.append($0) }
      made += mapper.notifications(for: events, in: journaled.session)
    }
    return made
  }

  @Test func aPurchaseMadeAgainAfterAStepBackIsNotifiedAgainAsANewNotification() throws {
    let made = try notifiedThroughSteps([
      "buy socialfeed.monthly", "undo", "buy socialfeed.monthly",
    ])
    #expect(made.map(\.name) == ["SUBSCRIBED-INITIAL_BUY", "SUBSCRIBED-INITIAL_BUY"])
    #expect(made[0].uuid != made[1].uuid, "a backend that drops duplicates keeps it")
    // Deterministic: the same lines give the same UUIDs.
    let again = try notifiedThroughSteps([
      "buy socialfeed.monthly", "undo", "buy socialfeed.monthly",
    ])
    #expect(again.map(\.uuid) == made.map(\.uuid))
  }

  @Test func subtypesAfterAStepBackFollowTheSessionNotWhatWasUndone() throws {
    #expect(
      try notifiedThroughSteps([
        "buy socialfeed.monthly", "undo", "buy socialfeed.premium.monthly",
        "auto-renew last off", "advance 31s", "back", "back", "advance 31s",
      ]).map(\.name) == [
        "SUBSCRIBED-INITIAL_BUY", "SUBSCRIBED-INITIAL_BUY",
        "DID_CHANGE_RENEWAL_STATUS-AUTO_RENEW_DISABLED", "EXPIRED-VOLUNTARY", "DID_RENEW",
      ])
  }

  @Test func notificationsAtOneInstantGetTheirOwnUUIDs() throws {
    var session = Session(configuration: foodTruck(), start: start)
    let mapper = NotificationMapper(namespace: "a")
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
