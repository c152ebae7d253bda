import Foundation
import StoreCommands
import StoreConfiguration
import StoreJSON
import StoreSigning
import StoreSimulation
import StoreTestSupport
import Testing

@testable import StoreServer

/// The Advanced Commerce API through `serve`: in-app requests signed with the configuration's
/// key make a subscription of items and a one-time charge; the six server endpoints at Apple's
/// paths change them with Apple's error objects; renewals carry the items and prices in
/// effect; a replayed journal holds the same.
@Suite struct AdvancedCommerceEndpointTests {
  static let product = "com.example.news"
  static let books = "com.example.books"

  static func reference(_ number: Int) -> String {
    String(format: "00000000-0000-4000-8000-%012d", number)
  }

  /// A request signed as the app's server signs it (Apple's in-app signature creator's shape).
  static func signed(
    _ json: String, nonce: Int = 0, at issued: Instant = start,
    bundle: String = PurchaseOptions.defaultBundleID
  ) throws -> String {
    let path = packageRoot.appendingPathComponent("Configs/FoodTruck.storekit").path
    let configuration = StoreKitConfiguration.load(contentsOf: path).configuration!
    return try OfferSigner(configuration.subscriptionOffersKeyPair).advancedCommerceJWS(
      request: json, bundleID: bundle,
      nonce: nonce == 0 ? UUID().uuidString : reference(nonce + 900),
      issuedAt: issued.milliseconds / 1000, issuer: "issuer")
  }

  static func create(_ reference: Int = 1, price: Int = 4990) -> String {
    #"{"operation":"CREATE_SUBSCRIPTION","version":"1","requestInfo":{"requestReferenceId":""#
      + Self.reference(reference)
      + #""},"currency":"USD","taxCode":"C003-00-1","period":"P1M","descriptors":{"#
      + #""description":"All the news","displayName":"News+"},"items":[{"SKU":"daily","#
      + #""description":"Daily","displayName":"Daily","price":\#(price)},{"SKU":"sports","#
      + #""description":"Sports","displayName":"Sports","price":1990}]}"#
  }

  static func body(_ reference: Int, _ rest: String = "", token: String? = nil) -> String {
    let info =
      #"{"requestReferenceId":""# + Self.reference(reference) + "\""
      + (token.map { #","consistencyToken":"\#($0)""# } ?? "") + "}"
    return #"{"requestInfo":\#(info)\#(rest.isEmpty ? "" : ",")\#(rest)}"#
  }

  func served(_ script: [String]) async throws -> ServedSession {
    let served = try makeServed()
    let applied = await served.call(
      "POST", "/storekeeper/v1/commands", body: script.joined(separator: "\n"))
    try #require(applied.status == 200, "\(applied.text)")
    return served
  }

  func payload(_ jws: Any?) throws -> [String: Any] { try ServedEndpointTests().payload(jws) }

  func post(
    _ served: ServedSession, _ path: String, _ id: UInt64, _ body: String
  ) async -> ServerResponse {
    await served.call("POST", "/advancedCommerce/v1/\(path)/\(id)", body: body)
  }

  func renewalInfo(_ answer: ServerResponse) throws -> [String: Any] {
    try #require(
      try payload(answer.object["signedRenewalInfo"])["advancedCommerceInfo"] as? [String: Any])
  }

  @Test func aSubscriptionOfItemsIsChangedThroughTheServerEndpoints() async throws {
    let served = try await served([
      "set time-rate realTime", "set advanced-commerce \(Self.product) subscription",
      "buy \(Self.product) advanced-commerce=\(try Self.signed(Self.create()))",
    ])
    let bought = try #require(served.host.session.transaction(0))
    #expect(bought.price == 6980)
    #expect(bought.advancedCommerce?.items.map(\.sku) == ["daily", "sports"])
    let price = await post(
      served, "subscription/changePrice", 0,
      Self.body(2, #""items":[{"SKU":"sports","price":2490}]"#))
    #expect(price.status == 200, "\(price.text)")
    let renews = try renewalInfo(price)
    let items = try #require(renews["items"] as? [[String: Any]])
    let increase = try #require(items[1]["priceIncreaseInfo"] as? [String: Any])
    #expect(increase["price"] as? Int == 2490 && increase["status"] as? String == "SCHEDULED")
    let token = try #require(renews["consistencyToken"] as? String)
    let transaction = try payload(price.object["signedTransactionInfo"])
    #expect(transaction["price"] as? Int == 6980, "the current period keeps its price")
    let stale = await post(
      served, "subscription/cancel", 0, Self.body(3, token: "not-the-token"))
    #expect(stale.status == 400 && stale.object["errorCode"] as? Int == 4_000_082)
    let metadata = await post(
      served, "subscription/changeMetadata", 0,
      Self.body(
        4, #""descriptors":{"displayName":"News Max","effective":"IMMEDIATELY"}"#, token: token))
    #expect(metadata.status == 200, "\(metadata.text)")
    let named = try payload(metadata.object["signedTransactionInfo"])
    #expect(
      ((named["advancedCommerceInfo"] as? [String: Any])?["descriptors"] as? [String: Any])?[
        "displayName"] as? String == "News Max")
    let newToken = try #require(try renewalInfo(metadata)["consistencyToken"] as? String)
    #expect(newToken != token, "each change makes a new consistency token")
    let renewal = await served.call(
      "POST", "/storekeeper/v1/commands", body: "advance 1mo\n")
    #expect(renewal.status == 200)
    let renewed = try #require(served.host.session.transaction(1))
    #expect(renewed.price == 4990 + 2490, "the renewal charges the new price")
    #expect(renewed.advancedCommerce?.descriptors.displayName == "News Max")
    let cancel = await post(served, "subscription/cancel", 1, Self.body(5))
    #expect(cancel.status == 200, "\(cancel.text)")
    #expect(try payload(cancel.object["signedRenewalInfo"])["autoRenewStatus"] as? Int == 0)
    let revoke = await post(
      served, "subscription/revoke", 1,
      Self.body(6, #""refundType":"FULL","refundReason":"OTHER","refundRiskingPreference":true"#))
    #expect(revoke.status == 200, "\(revoke.text)")
    #expect(try payload(revoke.object["signedTransactionInfo"])["revocationDate"] != nil)
    let again = await post(
      served, "subscription/revoke", 1,
      Self.body(7, #""refundType":"FULL","refundReason":"OTHER","refundRiskingPreference":true"#))
    #expect(again.status == 400 && again.object["errorCode"] as? Int == 4_000_186)
    let replayed = try reopened(journal: try journalBytes(served.host.journaled.timeline))
    #expect(replayed.session.transaction(1) == served.host.session.transaction(1))
    #expect(
      replayed.session.subscriptionStatuses() == served.host.session.subscriptionStatuses(),
      "a replayed journal holds the same subscription, token included")
  }

  /// An increase over Apple's consent threshold waits for the customer: consented, the next
  /// renewal charges it; unanswered, the subscription expires at the renewal.
  @Test func aPriceIncreaseNeedingConsentWaitsForIt() async throws {
    let script = [
      "set time-rate realTime", "set advanced-commerce \(Self.product) subscription",
      "buy \(Self.product) advanced-commerce=\(try Self.signed(Self.create()))",
    ]
    let raise = Self.body(2, #""items":[{"SKU":"daily","price":12990}]"#)
    for consent in [true, false] {
      let served = try await served(script)
      let answer = await post(served, "subscription/changePrice", 0, raise)
      let items = try #require(try renewalInfo(answer)["items"] as? [[String: Any]])
      #expect((items[0]["priceIncreaseInfo"] as? [String: Any])?["status"] as? String == "PENDING")
      #expect(try payload(answer.object["signedRenewalInfo"])["priceIncreaseStatus"] as? Int == 0)
      let lines = (consent ? ["price-increase consent 0"] : []) + ["advance 1mo"]
      let moved = await served.call(
        "POST", "/storekeeper/v1/commands", body: lines.joined(separator: "\n") + "\n")
      #expect(moved.status == 200, "\(moved.text)")
      let renewed = served.host.session.transaction(1)
      #expect(consent ? renewed?.price == 12990 + 1990 : renewed == nil, "consent: \(consent)")
    }
  }

  @Test func aRetryAnswersAsTheFirstAndAnotherBodyIsRefused() async throws {
    let served = try await served([
      "set advanced-commerce \(Self.product) subscription",
      "buy \(Self.product) advanced-commerce=\(try Self.signed(Self.create()))",
    ])
    let first = await post(served, "subscription/cancel", 0, Self.body(2))
    #expect(first.status == 200, "\(first.text)")
    let lines = served.host.journaled.timeline.count
    let retry = await post(served, "subscription/cancel", 0, Self.body(2))
    #expect(retry.status == 200, "\(retry.text)")
    #expect(served.host.journaled.timeline.count == lines, "a retry writes no line")
    let other = await post(
      served, "subscription/changePrice", 0,
      Self.body(2, #""items":[{"SKU":"daily","price":100}]"#))
    #expect(other.status == 400 && other.object["errorCode"] as? Int == 4_000_097, "\(other.text)")
  }

  @Test func badRequestsAreRefusedWithApplesErrorsAndNothingJournaled() async throws {
    let served = try await served([
      "set time-rate realTime", "set advanced-commerce \(Self.product) subscription",
      "buy \(Self.product) advanced-commerce=\(try Self.signed(Self.create()))",
      "buy socialfeed.monthly",
    ])
    let cases: [(String, UInt64, String, Int)] = [
      ("subscription/cancel", 0, #"{"requestInfo":{"requestReferenceId":"x"}}"#, 4_000_081),
      ("subscription/cancel", 0, #"{"storefront":"USA"}"#, 4_000_079),
      ("subscription/cancel", 1, Self.body(10), 4_030_010),
      ("subscription/cancel", 99, Self.body(11), 4_040_010),
      (
        "subscription/changeMetadata", 0,
        Self.body(
          12,
          #""descriptors":{"displayName":"\#(String(repeating: "n", count: 31))","effective":"IMMEDIATELY"}"#
        ),
        4_000_089
      ),
      (
        "subscription/changePrice", 0, Self.body(13, #""items":[{"SKU":"nope","price":1}]"#),
        4_000_146
      ),
      (
        "subscription/changePrice", 0, Self.body(14, #""items":[{"SKU":"daily","price":-1}]"#),
        4_000_086
      ),
      (
        "subscription/migrate", 0,
        Self.body(
          15,
          #""descriptors":{"description":"d","displayName":"n"},"items":[{"SKU":"a","description":"d","displayName":"n"}],"targetProductId":"\#(Self.product)","taxCode":"C003-00-1""#
        ), 4_000_176
      ),
      (
        "subscription/migrate", 1,
        Self.body(
          16,
          #""descriptors":{"description":"d","displayName":"n"},"items":[{"SKU":"a","description":"d","displayName":"n"}],"targetProductId":"socialfeed.yearly","taxCode":"C003-00-1""#
        ), 4_000_167
      ),
    ]
    for (path, id, body, code) in cases {
      let lines = served.host.journaled.timeline.count
      let answer = await post(served, path, id, body)
      #expect(answer.object["errorCode"] as? Int == code, "\(path) \(body): \(answer.text)")
      #expect(answer.status == code / 10_000, "\(path): \(answer.status)")
      #expect(served.host.journaled.timeline.count == lines, "\(path) was journaled")
    }
  }

  @Test func anOrdinarySubscriptionMigratesOnceAndNotAfterAPriceIncrease() async throws {
    let migrate = Self.body(
      2,
      #""descriptors":{"description":"Social","displayName":"Social"},"items":[{"SKU":"feed","description":"Feed","displayName":"Feed"}],"targetProductId":"\#(Self.product)","taxCode":"C003-00-1""#
    )
    let served = try await served([
      "set time-rate realTime", "set advanced-commerce \(Self.product) subscription",
      "buy socialfeed.monthly",
    ])
    let moved = await post(served, "subscription/migrate", 0, migrate)
    #expect(moved.status == 200, "\(moved.text)")
    let info = try #require(
      try payload(moved.object["signedTransactionInfo"])["advancedCommerceInfo"]
        as? [String: Any])
    #expect((info["items"] as? [[String: Any]])?.first?["SKU"] as? String == "feed")
    #expect(
      try payload(moved.object["signedRenewalInfo"])["originalTransactionId"] as? String == "0")
    let twice = await post(
      served, "subscription/migrate", 0,
      migrate.replacingOccurrences(
        of: Self.reference(2), with: Self.reference(3)))
    #expect(twice.object["errorCode"] as? Int == 4_000_176)
    let increased = try await self.served([
      "set time-rate realTime", "set advanced-commerce \(Self.product) subscription",
      "buy socialfeed.monthly", "price-increase request 0 price=9.99",
    ])
    let refused = await post(increased, "subscription/migrate", 0, migrate)
    #expect(refused.object["errorCode"] as? Int == 4_030_027, "\(refused.text)")
  }

  @Test func aOneTimeChargeIsRefundedByItem() async throws {
    let charge =
      #"{"operation":"CREATE_ONE_TIME_CHARGE","version":"1","requestInfo":{"requestReferenceId":""#
      + Self.reference(1)
      + #""},"currency":"USD","taxCode":"C003-00-1","item":{"SKU":"book","description":"A book","displayName":"Book","price":12990}}"#
    let served = try await served([
      "set advanced-commerce \(Self.books) one-time",
      "buy \(Self.books) advanced-commerce=\(try Self.signed(charge))",
    ])
    let charged = try #require(served.host.session.transaction(0))
    #expect(charged.price == 12990 && charged.originalID == 0)
    #expect(charged.advancedCommerce?.items.map(\.sku) == ["book"])
    let refund = await post(
      served, "transaction/requestRefund", 0,
      Self.body(
        2,
        #""items":[{"SKU":"book","revoke":true,"refundReason":"UNINTENDED_PURCHASE","refundType":"FULL"}],"refundRiskingPreference":false"#
      ))
    #expect(refund.status == 200, "\(refund.text)")
    let refunded = try payload(refund.object["signedTransactionInfo"])
    #expect(refunded["revocationDate"] != nil)
    let item = try #require(
      ((refunded["advancedCommerceInfo"] as? [String: Any])?["items"] as? [[String: Any]])?.first)
    #expect((item["refunds"] as? [[String: Any]])?.first?["refundAmount"] as? Int == 12990)
  }

  /// Declarations: a configuration's product keeps its type (another is refused); one added by
  /// ID alone is withdrawn by `off` and comes back when declared again; an ordinary product
  /// refuses a signed request and a generic one a purchase without.
  @Test func declarationsFollowTheProductsTypes() async throws {
    let served = try await served(["set advanced-commerce \(Self.product) subscription"])
    let lines = [
      ("set advanced-commerce socialfeed.monthly one-time", "of type autoRenewable"),
      ("buy \(Self.product)", "bought with a request your server signs"),
      ("buy socialfeed.monthly advanced-commerce=a.b.c", "no Advanced Commerce product"),
      ("set advanced-commerce \(Self.product) one-time", "of type autoRenewable"),
    ]
    await expectRefused(served, lines)
    _ = await served.call(
      "POST", "/storekeeper/v1/commands", body: "set advanced-commerce \(Self.product) off\n")
    #expect(served.host.session.catalog.product(Self.product)?.isAvailable == false)
    _ = await served.call(
      "POST", "/storekeeper/v1/commands",
      body: "set advanced-commerce \(Self.product) subscription\n")
    #expect(served.host.session.catalog.product(Self.product)?.isAvailable == true)
    #expect(served.host.session.commerceKind(ofProduct: Self.product) == .subscription)
  }

  @Test func aBadSignedRequestIsRefusedNamingWhyAndNothingIsJournaled() async throws {
    let served = try await served(["set advanced-commerce \(Self.product) subscription"])
    let good = try Self.signed(Self.create(), nonce: 1)
    var tampered = Array(good)
    tampered[tampered.count - 6] = tampered[tampered.count - 6] == "A" ? "B" : "A"
    let cases = [
      (String(tampered), "does not verify"),
      (
        try Self.signed(
          Self.create(), at: Instant(milliseconds: start.milliseconds - 7 * 86_400_000)),
        "more than 24 hours"
      ),
      (try Self.signed(Self.create(2, price: -5)), "0 or more"),
      (
        try Self.signed(#"{"operation":"CREATE_SUBSCRIPTION","version":"1"}"#),
        "requestInfo is missing"
      ),
      (try Self.signed(Self.create(3), bundle: "com.example.other"), "bid"),
    ]
    for (jws, words) in cases {
      let lines = served.host.journaled.timeline.count
      let answer = await served.call(
        "POST", "/storekeeper/v1/commands", body: "buy \(Self.product) advanced-commerce=\(jws)\n")
      #expect(answer.text.contains(words), "\(words): \(answer.text)")
      #expect(served.host.journaled.timeline.count == lines)
    }
    let bought = await served.call(
      "POST", "/storekeeper/v1/commands", body: "buy \(Self.product) advanced-commerce=\(good)\n")
    #expect(bought.status == 200, "\(bought.text)")
    _ = await served.call("POST", "/storekeeper/v1/commands", body: "expire \(Self.product)\n")
    let reused = await served.call(
      "POST", "/storekeeper/v1/commands", body: "buy \(Self.product) advanced-commerce=\(good)\n")
    #expect(reused.text.contains("already used"), "a nonce is good once: \(reused.text)")
  }
}
