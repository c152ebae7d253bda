import StoreConfiguration
import Testing

@testable import StoreSimulation

@Suite struct OfferAndPlanTests {
  /// AS-11 with the pay-as-you-go intro: applied automatically, once per group, restored by
  /// deleting the group's transactions.
  @Test func introductoryOfferIsAppliedOncePerGroup() throws {
    var session = makeSession(rate: .monthlyRenewalEveryThirtySeconds)
    #expect(session.isEligibleForIntroductoryOffer(groupID: "G1"))
    let bought = try events { try session.buy("monthly", PurchaseOptions(), $0) }
    let transaction = try #require(bought.transactions.first?.0)
    #expect(transaction.offer?.type == .introductory)
    #expect(transaction.offer?.paymentMode == .payAsYouGo)
    // offerPeriod is the whole offer: three monthly pay-as-you-go periods.
    #expect(transaction.offer?.period == SubscriptionPeriod(3, .month))
    #expect(transaction.price == 990)
    #expect(!session.isEligibleForIntroductoryOffer(groupID: "G1"))
    let renewals = try events { try session.advance(to: t0.plus(seconds: 95), $0) }.transactions
      .map(\.0)
    #expect(renewals.map { $0.offer?.type } == [.introductory, .introductory, nil])
    #expect(renewals.map(\.price) == [990, 990, 4990])
    try session.delete(0) { _ in }
    #expect(session.isEligibleForIntroductoryOffer(groupID: "G1"))
  }

  @Test func askingForAnIntroWhenIneligibleFails() throws {
    var session = makeSession()
    try session.buy("monthly", PurchaseOptions()) { _ in }
    try session.expireSubscription("monthly") { _ in }
    let refused = try events {
      try session.buy("monthly", PurchaseOptions(offer: .introductory), $0)
    }
    #expect(refused.purchaseResults.first?.error == .purchase(.ineligibleForOffer))
    #expect(session.transactionCount == 1)
    let plain = try events { try session.buy("monthly", PurchaseOptions(), $0) }
    #expect(plain.transactions.first?.0.offer == nil)
  }

  @Test func promotionalOffersNeedAnExistingOrPastSubscription() throws {
    var session = makeSession(rate: .monthlyRenewalEveryThirtySeconds)
    let refused = try events {
      try session.buy("monthly", PurchaseOptions(offer: .promotional("promo.quarter")), $0)
    }
    #expect(refused.purchaseResults.first?.error == .purchase(.ineligibleForOffer))
    try session.buy("solo.monthly", PurchaseOptions()) { _ in }
    try session.buy("basic.monthly", PurchaseOptions()) { _ in }
    try session.expireSubscription("basic.monthly") { _ in }
    let bought = try events {
      try session.buy("monthly", PurchaseOptions(offer: .promotional("promo.quarter")), $0)
    }
    let transaction = try #require(bought.transactions.first?.0)
    #expect(
      transaction.offer
        == TransactionOffer(
          type: .promotional, id: "promo.quarter", paymentMode: .payUpFront,
          period: SubscriptionPeriod(3, .month)))
    #expect(transaction.price == 1990)
    #expect(transaction.expirationDate == transaction.purchaseDate.plus(seconds: 90))
  }

  @Test func unknownOffersAreCommandErrors() {
    var session = makeSession()
    let error = #expect(throws: SessionError.self) {
      try session.buy("monthly", PurchaseOptions(offer: .promotional("nope"))) { _ in }
    }
    #expect(
      error?.description == "monthly has no promotional offer \"nope\"; it has \"promo.quarter\"")
    #expect(throws: SessionError.self) {
      try session.buy("coins", PurchaseOptions(offer: .code("CODE1"))) { _ in }
    }
  }

  /// AS-14: an offer code stacked on a running pay-as-you-go intro queues after it.
  @Test func stackableCodeOfferQueuesAfterTheIntro() throws {
    var session = makeSession(rate: .monthlyRenewalEveryThirtySeconds)
    try session.buy("monthly", PurchaseOptions()) { _ in }
    let redeemed = try events {
      try session.buy("monthly", PurchaseOptions(offer: .code("CODE1"), origin: .store), $0)
    }
    #expect(redeemed.transactions.map(\.1) == [.updates])
    #expect(redeemed.transactions.first?.0.offer?.type == .introductory)
    #expect(redeemed.statuses.last?.renewalInfo.offer?.type == .introductory)
    let upcoming = session.upcomingRenewals(groupID: "G1", limit: 5)
    #expect(upcoming.map { $0.offer?.type } == [.introductory, .introductory, .code, nil, nil])
    #expect(upcoming[2].offer?.id == "CODE1")
    #expect(upcoming.map(\.price) == [990, 990, 0, 4990, 4990])
    #expect(upcoming.map(\.date) == [30, 60, 90, 120, 150].map { t0.plus(seconds: $0) })
    let renewals = try events { try session.advance(to: t0.plus(seconds: 125), $0) }.transactions
      .map(\.0)
    #expect(renewals.map { $0.offer?.type } == [.introductory, .introductory, .code, nil])
  }

  @Test func codeOfferEligibilityFollowsTheCustomersStanding() throws {
    var session = makeSession()
    let newcomer = try events {
      try session.buy("monthly", PurchaseOptions(offer: .code("COMEBACK")), $0)
    }
    #expect(newcomer.purchaseResults.first?.error == .purchase(.ineligibleForOffer))
    let fresh = try events {
      try session.buy("monthly", PurchaseOptions(offer: .code("CODE1")), $0)
    }
    #expect(fresh.transactions.first?.0.offer?.type == .introductory)
    try session.expireSubscription("monthly") { _ in }
    let returning = try events {
      try session.buy("monthly", PurchaseOptions(offer: .code("COMEBACK")), $0)
    }
    #expect(returning.transactions.first?.0.offer?.type == .code)
    #expect(returning.transactions.first?.0.offer?.id == "COMEBACK")
  }

  @Test func winBackOffersNeedALapseAndTheirToggle() throws {
    var session = makeSession()
    try session.buy("monthly", PurchaseOptions()) { _ in }
    let active = try events {
      try session.buy("monthly", PurchaseOptions(offer: .winBack("winback.free")), $0)
    }
    #expect(active.purchaseResults.first?.error == .purchase(.ineligibleForOffer))
    try session.expireSubscription("monthly") { _ in }
    #expect(session.status(forGroup: "G1")?.renewalInfo.eligibleWinBackOfferIDs == ["winback.free"])
    try session.setWinBackEligibility("winback.free", eligible: false)
    #expect(session.status(forGroup: "G1")?.renewalInfo.eligibleWinBackOfferIDs == [])
    let off = try events {
      try session.buy("monthly", PurchaseOptions(offer: .winBack("winback.free")), $0)
    }
    #expect(off.purchaseResults.first?.error == .purchase(.ineligibleForOffer))
    try session.setWinBackEligibility("winback.free", eligible: true)
    let won = try events {
      try session.buy("monthly", PurchaseOptions(offer: .winBack("winback.free")), $0)
    }
    #expect(won.transactions.first?.0.offer?.type == .winBack)
    #expect(won.transactions.first?.0.price == 0)
  }

  /// AS-13: an upgrade is immediate and keeps the original id; the old period is `isUpgraded`.
  @Test func upgradeIsImmediate() throws {
    var session = makeSession()
    try session.buy("basic.monthly", PurchaseOptions()) { _ in }
    try session.advance(to: t0.plus(seconds: 3600)) { _ in }
    let upgraded = try events { try session.buy("premium.monthly", PurchaseOptions(), $0) }
    let transactions = upgraded.transactions
    #expect(transactions.map(\.0.id) == [0, 1])
    #expect(transactions[0].0.isUpgraded)
    #expect(transactions[0].0.revocationDate == nil)
    #expect(transactions[0].1 == .updates)
    #expect(transactions[1].0.productID == "premium.monthly")
    #expect(transactions[1].0.originalID == 0)
    #expect(transactions[1].0.purchaseDate == t0.plus(seconds: 3600))
    #expect(transactions[1].1 == .purchaseResult)
    #expect(session.currentEntitlements().map(\.productID) == ["premium.monthly"])
    #expect(upgraded.statuses.last?.renewalInfo.autoRenewPreference == "premium.monthly")
  }

  /// AS-13: a downgrade waits for the renewal; purchase() hands back the held transaction.
  @Test func downgradeTakesEffectAtRenewal() throws {
    var session = makeSession(rate: .monthlyRenewalEveryThirtySeconds)
    try session.buy("plus.monthly", PurchaseOptions()) { _ in }
    let downgraded = try events { try session.buy("basic.monthly", PurchaseOptions(), $0) }
    #expect(downgraded.purchaseResults.first?.transactionID == 0)
    #expect(downgraded.statuses.last?.renewalInfo.autoRenewPreference == "basic.monthly")
    #expect(downgraded.statuses.last?.renewalInfo.currentProductID == "plus.monthly")
    #expect(session.currentEntitlements().map(\.productID) == ["plus.monthly"])
    let renewed = try events { try session.advance(to: t0.plus(seconds: 31), $0) }
    #expect(renewed.transactions.first?.0.productID == "basic.monthly")
    #expect(renewed.transactions.first?.0.reason == .renewal)
    #expect(renewed.transactions.first?.0.originalID == 0)
  }

  @Test func buyingTheCurrentProductAgainRevertsAPendingDowngrade() throws {
    var session = makeSession()
    try session.buy("plus.monthly", PurchaseOptions()) { _ in }
    try session.buy("basic.monthly", PurchaseOptions()) { _ in }
    let reverted = try events { try session.buy("plus.monthly", PurchaseOptions(), $0) }
    #expect(reverted.statuses.last?.renewalInfo.autoRenewPreference == "plus.monthly")
  }

  @Test func crossgradeOfTheSameDurationIsImmediateAndOfAnotherAtRenewal() throws {
    var session = makeSession()
    try session.buy("premium.monthly", PurchaseOptions()) { _ in }
    try session.buy("annual", PurchaseOptions()) { _ in }
    #expect(session.transactionCount == 1)
    #expect(session.status(forGroup: "G1")?.renewalInfo.autoRenewPreference == "annual")
    var other = makeSession()
    try other.buy("plus.monthly", PurchaseOptions()) { _ in }
    let crossed = try events { try other.buy("monthly", PurchaseOptions(), $0) }
    #expect(crossed.transactions.map(\.0.productID) == ["plus.monthly", "monthly"])
    #expect(crossed.transactions.last?.0.offer == nil)
  }

  @Test func upcomingRenewalsAreEmptyWhenNothingWillRenew() throws {
    var session = makeSession()
    #expect(session.upcomingRenewals(groupID: "G1").isEmpty)
    try session.buy("solo.monthly", PurchaseOptions()) { _ in }
    #expect(
      session.upcomingRenewals(groupID: "G-solo.monthly", limit: 2).map(\.date)
        == [instant("2026-02-15T10:00:00Z"), instant("2026-03-15T10:00:00Z")])
    try session.setAutoRenew(0, enabled: false) { _ in }
    #expect(session.upcomingRenewals(groupID: "G-solo.monthly").isEmpty)
  }
}

@Suite struct OneTimeOfferCodeTests {
  @Test func aOneTimeProductsOfferCodeChargesItsPriceOnceAndNamesTheOffer() throws {
    var session = makeSession()
    var options = PurchaseOptions(quantity: 3)
    options.offer = .code("COINS")
    let bought = try events { try session.buy("coins", options, $0) }
    let coins = try #require(bought.transactions.first?.0)
    #expect(coins.price == 490 * 3, "the offer's price times the quantity")
    #expect(coins.offer?.type == .code && coins.offer?.id == "COINS")
    #expect(coins.offer?.paymentMode == .oneTime && coins.offer?.period == nil)
    options = PurchaseOptions()
    options.offer = .code("PROFREE")
    let free = try events { try session.buy("pro", options, $0) }
    #expect(free.transactions.first?.0.price == 0)
    let plain = try events { try session.buy("coins", PurchaseOptions(), $0) }
    #expect(plain.transactions.first?.0.offer == nil && plain.transactions.first?.0.price == 990)
  }

  @Test func aOneTimeProductHasOnlyItsOwnOfferCodes() throws {
    var session = makeSession()
    for offer in [OfferSelection.introductory, .promotional("x"), .winBack("winback.free")] {
      var options = PurchaseOptions()
      options.offer = offer
      #expect(throws: SessionError.self) { try session.buy("coins", options) { _ in } }
    }
    var options = PurchaseOptions()
    options.offer = .code("PROFREE")
    do {
      try session.buy("coins", options) { _ in }
      Issue.record("another product's code applied")
    } catch {
      #expect(error.description.contains("has no offer code \"PROFREE\"; it has \"COINS\""))
    }
  }
}
