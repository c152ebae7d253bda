import Foundation
import StoreCommands
import StoreConfiguration
import StoreSimulation
import StoreTestSupport
import Testing

@testable import StoreSigning

/// Promotional offer and introductory-offer eligibility signatures, checked by the engine as
/// StoreKit checks them: a valid one buys, each single-component tampering fails the purchase
/// with StoreKit's error, as an event.
@Suite struct OfferSignatureTests {
  static let product = "socialfeed.monthly"
  static let offer = "socialfeed.monthly.loyalty"
  static let nonce = "8b2b0a4e-3f61-4d2b-9a5e-2f6c1d7e9a10"
  let keyPair = OfferSigner.generateKeyPair()

  /// FoodTruck with a key pair, subscribed to the yearly plan (a promotional offer needs a
  /// subscriber).
  func subscriber() throws -> Session {
    var configuration = foodTruck()
    configuration.subscriptionOffersKeyPair = keyPair
    var session = Session(configuration: configuration, start: start)
    try session.buy("socialfeed.yearly") { _ in }
    return session
  }

  func signer() throws -> OfferSigner { try OfferSigner(keyPair) }

  /// A StoreKit 1 signature, each part overridable.
  func v1(
    key: String? = nil, product: String = product, offer: String = offer,
    token: String? = nil, bundle: String = Signer.defaultBundleID, nonce: String = nonce,
    timestamp: Int64 = start.milliseconds
  ) throws -> OfferSignature {
    .v1(
      keyID: key ?? keyPair.id, nonce: nonce, timestamp: timestamp,
      signature: try signer().signV1(
        bundleID: bundle, productID: product, offerID: offer, appAccountToken: token,
        nonce: nonce, timestamp: timestamp))
  }

  /// The purchase result of buying the offer with `signature` (and `token`).
  func outcome(
    _ session: inout Session, _ signature: OfferSignature?, token: String? = nil,
    intro: String? = nil, product: String = product, offer: OfferSelection? = .promotional(offer)
  ) throws -> PurchaseResult {
    var options = PurchaseOptions(offer: offer, appAccountToken: token)
    options.offerSignature = signature
    options.introductoryEligibility = intro
    var results: [PurchaseResult] = []
    try session.buy(product, options) { event in
      if case .purchaseResult(let result) = event.kind { results.append(result) }
    }
    return try #require(results.last)
  }

  @Test func aValidStoreKit1SignatureBuysAndItsNonceIsGoodOnce() throws {
    var session = try subscriber()
    let token = "6F1C3E2A-1B2C-4D5E-8F90-0A1B2C3D4E5F"
    let signature = try v1(token: token)
    #expect(try outcome(&session, signature, token: token).outcome == .success)
    let again = try outcome(&session, signature, token: token)
    #expect(again.error == .purchase(.invalidOfferSignature))
    #expect(again.detail?.contains("already used") == true)
  }

  @Test func eachTamperedComponentFailsWithStoreKitsError() throws {
    let day: Int64 = 86_400_000
    let token = "6f1c3e2a-1b2c-4d5e-8f90-0a1b2c3d4e5f"
    let cases: [(String, OfferSignature, PurchaseErrorCode, String)] = [
      ("key id", try v1(key: "00000000"), .invalidOfferSignature, "key id"),
      ("product", try v1(product: "socialfeed.yearly"), .invalidOfferSignature, "does not verify"),
      ("offer", try v1(offer: "other"), .invalidOfferSignature, "does not verify"),
      ("bundle id", try v1(bundle: "com.other.app"), .invalidOfferSignature, "does not verify"),
      (
        "token", try v1(token: "00000000-0000-4000-8000-000000000000"), .invalidOfferSignature,
        "does not verify"
      ),
      (
        "stale", try v1(timestamp: start.milliseconds - day - 1), .invalidOfferSignature, "24 hours"
      ),
      (
        "bytes",
        .v1(keyID: keyPair.id, nonce: Self.nonce, timestamp: start.milliseconds, signature: "AAAA"),
        .invalidOfferSignature, "not base64 of a DER"
      ),
      (
        "missing",
        .v1(keyID: keyPair.id, nonce: "", timestamp: start.milliseconds, signature: "x"),
        .missingOfferParameters, "no nonce"
      ),
    ]
    for (name, signature, error, words) in cases {
      var session = try subscriber()
      let result = try outcome(&session, signature, token: token)
      #expect(result.outcome == .failed, "\(name)")
      #expect(result.error == .purchase(error), "\(name): \(String(describing: result.error))")
      #expect(result.detail?.contains(words) == true, "\(name): \(result.detail ?? "")")
    }
  }

  @Test func aSignatureGoesStaleAsTheSimulatedClockPasses24Hours() throws {
    var session = try subscriber()
    let signature = try v1()
    try session.advance(to: start.adding(milliseconds: 86_400_000 + 1_000)) { _ in }
    #expect(try outcome(&session, signature).error == .purchase(.invalidOfferSignature))
  }

  @Test func aConfigurationWithoutAKeyPairCannotCheckASignature() throws {
    var configuration = foodTruck()
    configuration.subscriptionOffersKeyPair = nil
    var session = Session(configuration: configuration, start: start)
    try session.buy("socialfeed.yearly") { _ in }
    let result = try outcome(&session, try v1())
    #expect(result.error == .purchase(.invalidOfferSignature))
    #expect(result.detail?.contains("keys generate") == true)
  }

  @Test func aJWSOfferBuysAndItsClaimsAreChecked() throws {
    let signer = try signer()
    let seconds = start.milliseconds / 1000
    func jws(
      product: String = Self.product, offer: String = Self.offer,
      bundle: String = Signer.defaultBundleID, nonce: String = UUID().uuidString,
      iat: Int64 = seconds, by other: OfferSigner? = nil
    ) throws -> OfferSignature {
      .jws(
        try (other ?? signer).promotionalJWS(
          bundleID: bundle, productID: product, offerID: offer, transactionID: "0", nonce: nonce,
          issuedAt: iat, issuer: "issuer"))
    }
    var session = try subscriber()
    #expect(try outcome(&session, try jws()).outcome == .success)
    let stranger = try OfferSigner(
      OfferKeyPair(id: keyPair.id, privateKey: OfferSigner.generateKeyPair().privateKey))
    let intro = OfferSignature.jws(
      try signer.introductoryEligibilityJWS(
        bundleID: Signer.defaultBundleID, productID: Self.product, allowed: true,
        transactionID: "0", nonce: UUID().uuidString, issuedAt: seconds, issuer: "issuer"))
    let cases: [(String, OfferSignature, PurchaseErrorCode, String)] = [
      (
        "offer", try jws(offer: "socialfeed.monthly.other"), .invalidOfferIdentifier,
        "offerIdentifier"
      ),
      ("product", try jws(product: "socialfeed.yearly"), .invalidOfferSignature, "productId"),
      ("bundle", try jws(bundle: "com.other.app"), .invalidOfferSignature, "bid"),
      ("stale", try jws(iat: seconds - 86_401), .invalidOfferSignature, "24 hours"),
      ("key", try jws(by: stranger), .invalidOfferSignature, "does not verify"),
      ("audience", intro, .invalidOfferSignature, "aud"),
      ("garbage", .jws("a.b.c"), .invalidOfferSignature, "not a compact JWS"),
    ]
    for (name, signature, error, words) in cases {
      var session = try subscriber()
      let result = try outcome(&session, signature)
      #expect(result.error == .purchase(error), "\(name): \(String(describing: result.error))")
      #expect(result.detail?.contains(words) == true, "\(name): \(result.detail ?? "")")
    }
  }

  @Test func anIntroductoryEligibilityJWSOverridesTheSessionsEligibility() throws {
    let signer = try signer()
    func eligibility(_ allowed: Bool, product: String = "socialfeed.yearly") throws -> String {
      try signer.introductoryEligibilityJWS(
        bundleID: Signer.defaultBundleID, productID: product, allowed: allowed,
        transactionID: "0", nonce: UUID().uuidString, issuedAt: start.milliseconds / 1000,
        issuer: "issuer")
    }
    var configuration = foodTruck()
    configuration.subscriptionOffersKeyPair = keyPair
    // A new customer, eligible, told no: no free week.
    var fresh = Session(configuration: configuration, start: start)
    let refused = try outcome(
      &fresh, nil, intro: try eligibility(false), product: "socialfeed.yearly", offer: nil)
    #expect(refused.outcome == .success)
    #expect(fresh.transaction(0)?.offer == nil)
    // A past subscriber, not eligible, told yes: the free week.
    var past = try subscriber()
    try past.advance(to: start.adding(milliseconds: 3_600_000)) { _ in }
    try Command.parse("expire socialfeed.yearly")!.apply(to: &past) { _ in }
    let allowed = try outcome(
      &past, nil, intro: try eligibility(true), product: "socialfeed.yearly", offer: .introductory)
    #expect(allowed.outcome == .success)
    #expect(past.transaction(try #require(allowed.transactionID))?.offer?.type == .introductory)
    var wrong = Session(configuration: configuration, start: start)
    let mismatched = try outcome(
      &wrong, nil, intro: try eligibility(true, product: "socialfeed.monthly"),
      product: "socialfeed.yearly", offer: nil)
    #expect(mismatched.error == .purchase(.invalidOfferSignature))
  }

  @Test func aSignedBuyIsJournaledWithItsBundleIDAndReadsBack() throws {
    let text =
      "buy socialfeed.monthly offer=promo:socialfeed.monthly.loyalty key=AB12CD34 "
      + "nonce=\(Self.nonce) timestamp=1795000000000 signature=MEUCIQ+/== intro-jws=a.b.c"
    let command = try #require(try Command.parse(text))
    var configuration = foodTruck()
    configuration.subscriptionOffersKeyPair = keyPair
    var journaled = JournaledSession(
      session: Session(configuration: configuration, start: start), journal: nil)
    journaled.bundleID = "com.example.food"
    try journaled.apply(command) { _ in }
    let recorded = try #require(journaled.timeline.last)
    #expect("\(recorded)".contains("bundle=com.example.food"))
    #expect(try Command.parse(command.description)?.description == command.description)
    #expect(command.description.contains("signature=MEUCIQ+/=="))
    #expect(throws: CommandError.self) { try Command.parse("buy socialfeed.monthly jws=a.b.c") }
  }
}
