import Crypto
import Foundation
import StoreTestSupport
import StorekeeperKit
import StorekeeperKitTest
import Testing

/// The Advanced Commerce API through StoreKit's: `AdvancedCommerceProduct(id:)` and
/// `purchase(compactJWS:options:)` with a request signed as the app's server signs it, the
/// transaction's and the renewal info's `advancedCommerceInfo`, and `InvalidRequestError`.
@Suite struct AdvancedCommerceAPITests {
  static let news = "com.example.news"

  /// A request signed with the configuration's in-app key, as Apple's
  /// `AdvancedCommerceAPIInAppSignatureCreator` makes it.
  static func signed(_ request: String, at date: Date) throws -> String {
    let text = try String(
      contentsOf: packageRoot.appendingPathComponent("Configs/FoodTruck.storekit"),
      encoding: .utf8)
    let keyPair = try #require(
      text.firstMatch(
        of: /"subscriptionOffersKeyPair" : \{\s*"id" : "([0-9A-F]+)",\s*"privateKey" : "([^"]+)"/))
    let key = try P256.Signing.PrivateKey(
      derRepresentation: try #require(Data(base64Encoded: String(keyPair.output.2))))
    func part(_ object: [String: Any]) throws -> String {
      try JSONSerialization.data(withJSONObject: object, options: .sortedKeys)
        .base64EncodedString().replacingOccurrences(of: "+", with: "-")
        .replacingOccurrences(of: "/", with: "_").replacingOccurrences(of: "=", with: "")
    }
    let header = try part(["alg": "ES256", "kid": String(keyPair.output.1), "typ": "JWT"])
    let claims = try part([
      "iss": "issuer", "bid": "com.example.storekeeper", "aud": "advanced-commerce-api",
      "iat": Int(date.timeIntervalSince1970), "nonce": UUID().uuidString.lowercased(),
      "request": Data(request.utf8).base64EncodedString(),
    ])
    let signature = try key.signature(for: Data("\(header).\(claims)".utf8)).rawRepresentation
      .base64EncodedString().replacingOccurrences(of: "+", with: "-")
      .replacingOccurrences(of: "/", with: "_").replacingOccurrences(of: "=", with: "")
    return "\(header).\(claims).\(signature)"
  }

  static let create =
    #"{"operation":"CREATE_SUBSCRIPTION","version":"1","requestInfo":{"requestReferenceId":"#
    + #""6f1c3e2a-1b2c-4d5e-8f90-0a1b2c3d4e5f"},"currency":"USD","taxCode":"C003-00-1","#
    + #""period":"P1M","descriptors":{"description":"All the news","displayName":"News+"},"#
    + #""items":[{"SKU":"daily","description":"Daily","displayName":"Daily","price":4990},"#
    + #"{"SKU":"sports","description":"Sports","displayName":"Sports","price":1990,"offer":"#
    + #"{"period":"P1M","periodCount":1,"price":990,"reason":"ACQUISITION"}}]}"#

  @Test func aSignedRequestBuysASubscriptionOfItems() async throws {
    let session = try makeSession()
    try session.perform("set advanced-commerce \(Self.news) subscription")
    try await session.bind {
      let product = try await AdvancedCommerceProduct(id: Self.news)
      #expect(product.type == .autoRenewable)
      let result = try await product.purchase(
        compactJWS: try Self.signed(Self.create, at: session.now))
      guard case .success(let verification) = result else {
        Issue.record("not bought: \(result)")
        return
      }
      let transaction = try verification.payloadValue
      #expect(transaction.price == Decimal(string: "5.98"))
      let info = try #require(transaction.advancedCommerceInfo)
      #expect(info.displayName == "News+")
      #expect(info.period == .monthly)
      #expect(info.requestReferenceID == "6f1c3e2a-1b2c-4d5e-8f90-0a1b2c3d4e5f")
      #expect(info.items.map(\.details.sku) == ["daily", "sports"])
      #expect(info.items[1].details.offer?.reason == .acquisition)
      #expect(info.items[0].details.price == Decimal(string: "4.99"))
      let status = try #require(try await transaction.subscriptionStatus)
      let renewal = try status.renewalInfo.payloadValue
      let renews = try #require(renewal.advancedCommerceInfo)
      #expect(!renews.consistencyToken.isEmpty)
      #expect(renews.items.count == 2)
      #expect(renewal.renewalPrice == Decimal(string: "6.98"), "the offer was for one period")
    }
  }

  @Test func aRefusedRequestThrowsInvalidRequestErrorWithApplesCode() async throws {
    let session = try makeSession()
    try session.perform("set advanced-commerce \(Self.news) subscription")
    try await session.bind {
      let product = try await AdvancedCommerceProduct(id: Self.news)
      let old = session.now.addingTimeInterval(-7 * 86_400)
      do {
        _ = try await product.purchase(compactJWS: try Self.signed(Self.create, at: old))
        Issue.record("a week-old request was bought")
      } catch let error as InvalidRequestError {
        #expect(error.code == 4_000_174)
        #expect(error.message.contains("24 hours"), "\(error.message)")
      }
      #expect(await Transaction.latest(for: Self.news) == nil, "nothing was made")
      await #expect(throws: StoreKitError.self) {
        _ = try await AdvancedCommerceProduct(id: "socialfeed.monthly")
      }
    }
  }
}
