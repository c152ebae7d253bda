import Crypto
import Foundation
import StoreConfiguration
import StoreJSON

/// A promotional offer's signature as the app hands it to StoreKit, made by the app's server
/// with the configuration's `subscriptionOffersKeyPair`.
public enum OfferSignature: Equatable, Sendable {
  /// StoreKit 1's `SKPaymentDiscount` and StoreKit 2's original
  /// `promotionalOffer(offerID:keyID:nonce:signature:timestamp:)`: ECDSA P-256 / SHA-256 over
  /// bundle id, key id, product, offer, app account token (lowercased, may be empty), nonce
  /// (lowercased) and timestamp (ms), joined with U+2063; the DER signature in base64.
  case v1(keyID: String, nonce: String, timestamp: Int64, signature: String)
  /// StoreKit 2's `promotionalOffer(_:compactJWS:)`: an ES256 JWS, header `kid`, claims `bid`,
  /// `aud` `promotional-offer`, `iat`, `nonce`, `productId`, `offerIdentifier`.
  case jws(String)

  /// The text StoreKit 1 signatures sign.
  public static func v1Message(
    bundleID: String, keyID: String, productID: String, offerID: String,
    appAccountToken: String?, nonce: String, timestamp: Int64
  ) -> String {
    signedText([
      bundleID, keyID, productID, offerID, (appAccountToken ?? "").lowercased(),
      nonce.lowercased(), String(timestamp),
    ])
  }

  /// The seven parts joined as StoreKit 1 signatures join them (U+2063), taken as given.
  public static func signedText(_ parts: [String]) -> String {
    parts.joined(separator: "\u{2063}")
  }

  /// The same signature with one character of its signature part changed (what a proxy or a
  /// copy-and-paste does to it).
  public var tampered: OfferSignature {
    func flip(_ text: String) -> String {
      var characters = Array(text)
      guard let index = characters.indices.dropLast(4).last else { return text + "A" }
      characters[index] = characters[index] == "A" ? "B" : "A"
      return String(characters)
    }
    switch self {
    case .v1(let key, let nonce, let timestamp, let signature):
      return .v1(keyID: key, nonce: nonce, timestamp: timestamp, signature: flip(signature))
    case .jws(let compact): return .jws(flip(compact))
    }
  }

  /// The timestamp of a signature given without one (`missingOfferParameters`).
  public static let missingTimestamp = Int64.min

  /// How long a signature stays valid after its timestamp ("Generating a signature for
  /// promotional offers": the timestamp keeps the offer active for 24 hours).
  public static let lifetime: Int64 = 24 * 3_600_000
}

extension OfferKeyPair {
  /// The P-256 key of `privateKey` (base64 PKCS#8 DER, as Xcode writes it); `nil` when it is
  /// not one.
  public var signingKey: P256.Signing.PrivateKey? {
    Data(base64Encoded: privateKey).flatMap { try? P256.Signing.PrivateKey(derRepresentation: $0) }
  }
}

/// Why StoreKit refuses a signed offer: the first component that does not check out.
public struct OfferSignatureRefusal: Error, Equatable, Sendable, CustomStringConvertible {
  /// The error the purchase fails with.
  public var error: SimulatedError
  /// What did not match, for a person (`the key id "X" is not the configuration's "5F0CA1F0"`).
  public var description: String
  /// The signature's time (its timestamp, or a JWS's `iat`) when that is what was refused:
  /// more than a day from the moment it was judged at.
  public var staleTime: Instant?
}

/// Checks promotional offer and introductory-offer eligibility signatures against a
/// configuration's key, the way StoreKit does, at a given (simulated) instant.
public struct OfferSignatureCheck: Sendable {
  /// The configuration's key pair.
  public let keyPair: OfferKeyPair?
  /// The app's bundle id.
  public let bundleID: String
  /// The moment signatures are judged at; `nil` leaves their age alone (a linter checking how a
  /// signature is made, not when it is used).
  public let now: Instant?

  /// A check.
  public init(keyPair: OfferKeyPair?, bundleID: String, now: Instant?) {
    self.keyPair = keyPair
    self.bundleID = bundleID
    self.now = now
  }

  /// The public key of the configuration's private key, or why there is none.
  func publicKey() throws(OfferSignatureRefusal) -> P256.Signing.PublicKey {
    guard let keyPair else {
      throw refusal(
        .invalidOfferSignature,
        "the configuration has no subscriptionOffersKeyPair to check signatures with "
          + "(storekeeper keys generate adds one)")
    }
    guard let key = keyPair.signingKey else {
      throw refusal(
        .invalidOfferSignature,
        "the configuration's subscriptionOffersKeyPair.privateKey is not a base64 P-256 key")
    }
    return key.publicKey
  }

  /// Whether a base64 DER signature verifies over `message` with the configuration's key.
  public func verifies(signature: String, over message: String) -> Bool {
    guard let key = try? publicKey(), let der = Data(base64Encoded: signature),
      let parsed = try? P256.Signing.ECDSASignature(derRepresentation: der)
    else { return false }
    return key.isValidSignature(parsed, for: Data(message.utf8))
  }

  /// Checks a promotional offer's signature; the nonce it used, to be spent.
  ///
  /// - Parameter spent: nonces already used (lowercased).
  public func checkPromotional(
    _ signature: OfferSignature, productID: String, offerID: String, appAccountToken: String?,
    spent: Set<String>
  ) throws(OfferSignatureRefusal) -> String {
    let key = try publicKey()
    switch signature {
    case .v1(let keyID, let nonce, let timestamp, let text):
      let missing = [
        keyID.isEmpty ? "key" : nil, nonce.isEmpty ? "nonce" : nil,
        timestamp == OfferSignature.missingTimestamp ? "timestamp" : nil,
        text.isEmpty ? "signature" : nil,
      ].compactMap { $0 }
      guard missing.isEmpty else {
        throw refusal(
          .missingOfferParameters, "the signature has no " + missing.joined(separator: ", "))
      }
      try checkKeyID(keyID)
      guard UUID(uuidString: nonce) != nil else {
        throw refusal(.missingOfferParameters, "the nonce \"\(nonce)\" is not a UUID")
      }
      try checkFresh(timestamp, what: "timestamp")
      guard let der = Data(base64Encoded: text),
        let parsed = try? P256.Signing.ECDSASignature(derRepresentation: der)
      else {
        throw refusal(
          .invalidOfferSignature, "the signature is not base64 of a DER ECDSA signature")
      }
      let message = OfferSignature.v1Message(
        bundleID: bundleID, keyID: keyID, productID: productID, offerID: offerID,
        appAccountToken: appAccountToken, nonce: nonce, timestamp: timestamp)
      guard key.isValidSignature(parsed, for: Data(message.utf8)) else {
        throw refusal(
          .invalidOfferSignature,
          "the signature does not verify over bundle id \(bundleID), key id \(keyID), product "
            + "\(productID), offer \(offerID), app account token "
            + "\"\((appAccountToken ?? "").lowercased())\", nonce \(nonce.lowercased()), "
            + "timestamp \(timestamp)")
      }
      try checkUnspent(nonce, spent)
      return nonce.lowercased()
    case .jws(let compact):
      let claims = try verifiedClaims(compact, key: key, audience: "promotional-offer")
      try expect(claims, "productId", productID, .invalidOfferSignature)
      try expect(claims, "offerIdentifier", offerID, .invalidOfferIdentifier)
      let nonce = try nonceClaim(claims)
      try checkUnspent(nonce, spent)
      return nonce
    }
  }

  /// Checks an introductory-offer eligibility JWS; whether it allows the offer, and its nonce.
  public func checkIntroductoryEligibility(
    _ compact: String, productID: String, spent: Set<String>
  ) throws(OfferSignatureRefusal) -> (allowed: Bool, nonce: String) {
    let claims = try verifiedClaims(
      compact, key: try publicKey(), audience: "introductory-offer-eligibility")
    try expect(claims, "productId", productID, .invalidOfferSignature)
    guard case .bool(let allowed)? = claims["allowIntroductoryOffer"] else {
      throw refusal(.missingOfferParameters, "the JWS has no allowIntroductoryOffer claim")
    }
    let nonce = try nonceClaim(claims)
    try checkUnspent(nonce, spent)
    return (allowed, nonce)
  }

  /// Checks an Advanced Commerce in-app request's JWS (`aud` `advanced-commerce-api`) exactly as
  /// promotional-offer V2 signatures are checked; its `request` claim (base64 of the request's
  /// JSON) and its nonce, to be spent.
  public func checkAdvancedCommerce(
    _ compact: String, spent: Set<String>
  ) throws(OfferSignatureRefusal) -> (request: String, nonce: String) {
    let claims = try verifiedClaims(
      compact, key: try publicKey(), audience: Self.advancedCommerceAudience)
    guard case .string(let request)? = claims["request"], !request.isEmpty else {
      throw refusal(.missingOfferParameters, "the JWS has no request claim")
    }
    let nonce = try nonceClaim(claims)
    try checkUnspent(nonce, spent)
    return (request, nonce)
  }

  /// The `aud` of Advanced Commerce in-app requests.
  public static let advancedCommerceAudience = "advanced-commerce-api"

  /// The claims of a compact JWS signed with `key` for `audience`, for this app, not stale.
  private func verifiedClaims(
    _ compact: String, key: P256.Signing.PublicKey, audience: String
  )
    throws(OfferSignatureRefusal) -> JSONObject
  {
    let parts = compact.trimmingCharacters(in: .whitespacesAndNewlines).split(
      separator: ".", omittingEmptySubsequences: false)
    guard parts.count == 3, let headerBytes = Base64URL.decode(parts[0]),
      let payloadBytes = Base64URL.decode(parts[1]), let signature = Base64URL.decode(parts[2]),
      case .object(let header)? = try? JSONParser.parse(headerBytes).root,
      case .object(let claims)? = try? JSONParser.parse(payloadBytes).root
    else {
      throw refusal(.invalidOfferSignature, "not a compact JWS (three base64url parts of JSON)")
    }
    guard header["alg"] == .string("ES256") else {
      throw refusal(.invalidOfferSignature, "the JWS's alg is not ES256")
    }
    guard case .string(let kid)? = header["kid"] else {
      throw refusal(.missingOfferParameters, "the JWS header has no kid")
    }
    try checkKeyID(kid)
    guard let raw = try? P256.Signing.ECDSASignature(rawRepresentation: signature),
      key.isValidSignature(raw, for: Data((parts[0] + "." + parts[1]).utf8))
    else {
      throw refusal(
        .invalidOfferSignature, "the JWS's signature does not verify with key \(kid)")
    }
    try expect(claims, "aud", audience, .invalidOfferSignature)
    try expect(claims, "bid", bundleID, .invalidOfferSignature)
    guard case .number(let iat)? = claims["iat"], let seconds = Double(iat.text) else {
      throw refusal(.missingOfferParameters, "the JWS has no iat claim")
    }
    try checkFresh(Int64(seconds * 1000), what: "iat")
    return claims
  }

  private func checkKeyID(_ keyID: String) throws(OfferSignatureRefusal) {
    let expected = keyPair?.id ?? ""
    guard keyID == expected else {
      throw refusal(
        .invalidOfferSignature,
        "the key id \"\(keyID)\" is not the configuration's \"\(expected)\"")
    }
  }

  private func checkFresh(_ milliseconds: Int64, what: String) throws(OfferSignatureRefusal) {
    guard let now else { return }
    let age = now.milliseconds - milliseconds
    guard abs(age) <= OfferSignature.lifetime else {
      let when = Instant(milliseconds: milliseconds)
      var stale = refusal(
        .invalidOfferSignature,
        "the \(what) \(what == "iat" ? milliseconds / 1000 : milliseconds) (\(when.iso8601)) is "
          + "more than 24 hours "
          + (age > 0 ? "before" : "after") + " now (\(now.iso8601))")
      stale.staleTime = when
      throw stale
    }
  }

  private func checkUnspent(_ nonce: String, _ spent: Set<String>) throws(OfferSignatureRefusal) {
    guard !spent.contains(nonce.lowercased()) else {
      throw refusal(
        .invalidOfferSignature, "the nonce \(nonce.lowercased()) was already used")
    }
  }

  private func nonceClaim(_ claims: JSONObject) throws(OfferSignatureRefusal) -> String {
    guard case .string(let nonce)? = claims["nonce"], UUID(uuidString: nonce) != nil else {
      throw refusal(.missingOfferParameters, "the JWS has no nonce claim (a UUID)")
    }
    return nonce.lowercased()
  }

  private func expect(
    _ claims: JSONObject, _ name: String, _ value: String, _ error: PurchaseErrorCode
  ) throws(OfferSignatureRefusal) {
    guard claims[name] == .string(value) else {
      let given: String =
        if case .string(let text)? = claims[name] { "\"\(text)\"" } else { "missing" }
      throw refusal(error, "the JWS's \(name) is \(given), not \"\(value)\"")
    }
  }

  private func refusal(_ code: PurchaseErrorCode, _ why: String) -> OfferSignatureRefusal {
    OfferSignatureRefusal(error: .purchase(code), description: why)
  }
}
