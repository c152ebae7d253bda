import Crypto
import Foundation
import StoreConfiguration
import StoreJSON
import StoreSimulation

/// Makes what an app's server makes for promotional offers, with a configuration's
/// `subscriptionOffersKeyPair`: the StoreKit 1 signature and the JWS formats of Apple's
/// `PromotionalOfferSignatureCreator`, `PromotionalOfferV2SignatureCreator` and
/// `IntroductoryOfferEligibilitySignatureCreator`.
public struct OfferSigner: Sendable {
  /// The key pair it signs with: App Store Connect's key id and its P-256 private key.
  public let keyPair: OfferKeyPair
  private let key: P256.Signing.PrivateKey

  /// A signer for a configuration's key pair.
  ///
  /// - Throws: ``SigningError`` when there is none or its key is not a P-256 key.
  public init(_ keyPair: OfferKeyPair?) throws(SigningError) {
    guard let keyPair else {
      throw SigningError(
        "the configuration has no subscriptionOffersKeyPair; add one with storekeeper keys generate"
      )
    }
    guard let key = keyPair.signingKey else {
      throw SigningError(
        "subscriptionOffersKeyPair.privateKey is not base64 of a P-256 key (PKCS#8 DER)")
    }
    self.keyPair = keyPair
    self.key = key
  }

  /// A new key pair as Xcode makes one: an 8-hex-digit id and a PKCS#8 P-256 key in base64.
  public static func generateKeyPair() -> OfferKeyPair {
    let key = P256.Signing.PrivateKey()
    let id = SHA256.hash(data: key.publicKey.derRepresentation).prefix(4)
      .map { String(format: "%02X", $0) }.joined()
    return OfferKeyPair(id: id, privateKey: key.derRepresentation.base64EncodedString())
  }

  /// The StoreKit 1 signature: base64 of the DER ECDSA signature over
  /// ``OfferSignature/v1Message(bundleID:keyID:productID:offerID:appAccountToken:nonce:timestamp:)``.
  public func signV1(
    bundleID: String, productID: String, offerID: String, appAccountToken: String?,
    nonce: String, timestamp: Int64
  ) throws -> String {
    let message = OfferSignature.v1Message(
      bundleID: bundleID, keyID: keyPair.id, productID: productID, offerID: offerID,
      appAccountToken: appAccountToken, nonce: nonce, timestamp: timestamp)
    return try key.signature(for: Data(message.utf8)).derRepresentation.base64EncodedString()
  }

  /// A promotional offer JWS (`aud` `promotional-offer`).
  public func promotionalJWS(
    bundleID: String, productID: String, offerID: String, transactionID: String?,
    nonce: String, issuedAt: Int64, issuer: String
  ) throws -> String {
    var claims = JSONObject()
    claims["productId"] = .string(productID)
    claims["offerIdentifier"] = .string(offerID)
    if let transactionID { claims["transactionId"] = .string(transactionID) }
    return try jws(
      claims, audience: "promotional-offer", bundleID: bundleID, nonce: nonce,
      issuedAt: issuedAt, issuer: issuer)
  }

  /// An introductory-offer eligibility JWS (`aud` `introductory-offer-eligibility`).
  public func introductoryEligibilityJWS(
    bundleID: String, productID: String, allowed: Bool, transactionID: String, nonce: String,
    issuedAt: Int64, issuer: String
  ) throws -> String {
    var claims = JSONObject()
    claims["productId"] = .string(productID)
    claims["allowIntroductoryOffer"] = .bool(allowed)
    claims["transactionId"] = .string(transactionID)
    return try jws(
      claims, audience: "introductory-offer-eligibility", bundleID: bundleID, nonce: nonce,
      issuedAt: issuedAt, issuer: issuer)
  }

  /// An Advanced Commerce in-app request JWS (`aud` `advanced-commerce-api`), as Apple's
  /// `AdvancedCommerceAPIInAppSignatureCreator` makes it: the request's JSON (UTF-8) in
  /// standard base64 in the `request` claim.
  public func advancedCommerceJWS(
    request json: String, bundleID: String, nonce: String, issuedAt: Int64, issuer: String
  ) throws -> String {
    var claims = JSONObject()
    claims["request"] = .string(Data(json.utf8).base64EncodedString())
    return try jws(
      claims, audience: OfferSignatureCheck.advancedCommerceAudience, bundleID: bundleID,
      nonce: nonce, issuedAt: issuedAt, issuer: issuer)
  }

  /// Claims signed as Apple's `JWSSignatureCreator` signs them: ES256, header `kid`, and `bid`,
  /// `iss`, `aud`, `iat` (seconds), `nonce`.
  private func jws(
    _ specific: JSONObject, audience: String, bundleID: String, nonce: String, issuedAt: Int64,
    issuer: String
  ) throws -> String {
    var claims = specific
    claims["bid"] = .string(bundleID)
    claims["iss"] = .string(issuer)
    claims["aud"] = .string(audience)
    claims["iat"] = .number(JSONNumber(text: String(issuedAt)))
    claims["nonce"] = .string(nonce.lowercased())
    var header = JSONObject()
    header["alg"] = .string("ES256")
    header["kid"] = .string(keyPair.id)
    header["typ"] = .string("JWT")
    let signingInput =
      JWS.base64URL(Array(JSONWriter.compact(.object(header)).utf8)) + "."
      + JWS.base64URL(Array(JSONWriter.compact(.object(claims)).utf8))
    let signature = try key.signature(for: Data(signingInput.utf8))
    return signingInput + "." + JWS.base64URL(Array(signature.rawRepresentation))
  }
}
