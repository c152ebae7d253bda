import Foundation
import StorekeeperKit
import StorekeeperKitTest
import Testing

/// The asynchronous sequences besides `Transaction.updates`: what the engine's events say the
/// app observes, in order.
@Suite struct StreamTests {
  @Test func aPriceIncreaseAndABillingIssueSendTheirMessages() async throws {
    let session = try makeSession()
    try await session.bind {
      let transaction = try await buy("socialfeed.premium.monthly")
      var messages = Message.messages.makeAsyncIterator()
      try session.requestPriceIncreaseConsentForTransaction(identifier: Int(transaction.id))
      let consent = try #require(await messages.next())
      #expect(consent.reason == .priceIncreaseConsent)
      try consent.display()
      try session.consentToPriceIncreaseForTransaction(identifier: Int(transaction.id))
      session.shouldEnterBillingRetryOnRenewal = true
      session.advanceToNextEvent()
      let issue = try #require(await messages.next())
      #expect(issue.reason == .billingIssue)
    }
  }

  @Test func theStorefrontUpdatesWhenTheSessionsStorefrontChanges() async throws {
    let session = try makeSession()
    try await session.bind {
      var updates = Storefront.updates.makeAsyncIterator()
      session.storefront = "FRA"
      let france = try #require(await updates.next())
      #expect(france.countryCode == "FRA" && france.currency?.identifier == "EUR")
      #expect(await Storefront.current?.id == france.id)
      session.storefront = "ZZZ"  // not a storefront: unchanged, nothing sent
      session.storefront = "JPN"
      #expect(try #require(await updates.next()).countryCode == "JPN")
    }
  }

  /// Every way the storefront changes reaches `Storefront.updates`: the session's property, a
  /// line of the command language, and resetting to the configuration's.
  @Test func theStorefrontUpdatesWhicheverWayTheSessionChangesIt() async throws {
    let session = try makeSession()
    try await session.bind {
      var updates = Storefront.updates.makeAsyncIterator()
      try session.perform("set storefront DEU")
      #expect(try #require(await updates.next()).countryCode == "DEU", "a command line")
      session.storefront = "GBR"
      #expect(try #require(await updates.next()).countryCode == "GBR", "the session's property")
      session.resetToDefaultState()
      #expect(try #require(await updates.next()).countryCode == "USA", "a reset")
    }
  }

  @Test func everyGroupsStatusesComeFirstThenTheirChanges() async throws {
    let session = try makeSession()
    try await session.bind {
      let transaction = try await buy("socialfeed.monthly")
      var all = Product.SubscriptionInfo.Status.all.makeAsyncIterator()
      let first = try #require(await all.next())
      #expect(first.groupID == transaction.subscriptionGroupID)
      #expect(first.statuses.map(\.state) == [.subscribed])
      try session.expireSubscription(productIdentifier: "socialfeed.monthly")
      let expired = try #require(await all.next())
      #expect(expired.groupID == first.groupID && expired.statuses.map(\.state) == [.expired])
    }
  }
}
