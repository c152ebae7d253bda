public import Crypto
public import Foundation

/// A value StoreKit hands the app with the JWS it came as, and whether that JWS verified
/// (StoreKit's `VerificationResult`).
@frozen public enum VerificationResult<SignedType> {
  /// The JWS did not verify: the value as it says, and why.
  case unverified(SignedType, VerificationResult<SignedType>.VerificationError)
  /// The JWS verified.
  case verified(SignedType)

  /// Why a JWS did not verify.
  public enum VerificationError: Error, Equatable, Hashable, Sendable, LocalizedError {
    /// A certificate of the chain was revoked.
    case revokedCertificate
    /// The chain does not lead to a trusted root.
    case invalidCertificateChain
    /// The device verification does not match this device.
    case invalidDeviceVerification
    /// The JWS is not well-formed.
    case invalidEncoding
    /// The signature does not verify.
    case invalidSignature
    /// A required field is missing.
    case missingRequiredProperties

    /// What went wrong.
    public var errorDescription: String? {
      switch self {
      case .revokedCertificate: "A certificate in the chain was revoked."
      case .invalidCertificateChain: "The certificate chain is not valid."
      case .invalidDeviceVerification: "The device verification does not match this device."
      case .invalidEncoding: "The signed value is not encoded correctly."
      case .invalidSignature: "The signature is not valid."
      case .missingRequiredProperties: "A required property is missing."
      }
    }
  }

  /// The value when it verified.
  ///
  /// - Throws: the ``VerificationError`` when it did not.
  public var payloadValue: SignedType {
    get throws {
      switch self {
      case .verified(let value): return value
      case .unverified(_, let error): throw error
      }
    }
  }

  /// The value, verified or not.
  public var unsafePayloadValue: SignedType {
    switch self {
    case .verified(let value), .unverified(let value, _): value
    }
  }
}

extension VerificationResult: Equatable where SignedType: Equatable {}
extension VerificationResult: Hashable where SignedType: Hashable {}
extension VerificationResult: Sendable where SignedType: Sendable {}

extension VerificationResult: CustomDebugStringConvertible
where SignedType: CustomDebugStringConvertible {
  /// The value's description, and whether it verified.
  public var debugDescription: String {
    switch self {
    case .verified(let value): "verified: \(value.debugDescription)"
    case .unverified(let value, let error): "unverified (\(error)): \(value.debugDescription)"
    }
  }
}

/// What StoreKit signs — `Transaction`, `Product.SubscriptionInfo.RenewalInfo`,
/// `AppTransaction` — seen through its ``VerificationResult``: StoreKit declares the JWS
/// accessors on each of the three; here they come with this protocol, which only those three
/// adopt.
public protocol StoreKitSignedValue: Sendable {
  /// When the App Store signed it.
  var signedDate: Date { get }
  /// The device verification hash.
  var deviceVerification: Data { get }
  /// The nonce of the device verification.
  var deviceVerificationNonce: UUID { get }
  /// The compact JWS it came as (use ``VerificationResult/jwsRepresentation``).
  var _jwsRepresentation: String { get }
}

extension VerificationResult where SignedType: StoreKitSignedValue {
  /// The compact JWS (`header.payload.signature`).
  public var jwsRepresentation: String { unsafePayloadValue._jwsRepresentation }
  /// The JWS header, decoded from base64url.
  public var headerData: Data { part(0) }
  /// The JWS payload (the JSON), decoded from base64url.
  public var payloadData: Data { part(1) }
  /// The signature's 64 bytes (r and s).
  public var signatureData: Data { part(2) }
  /// The ES256 signature over the header and payload, as CryptoKit reads it.
  public var signature: P256.Signing.ECDSASignature {
    (try? P256.Signing.ECDSASignature(rawRepresentation: signatureData))
      ?? (try! P256.Signing.ECDSASignature(rawRepresentation: Data(count: 64)))
  }
  /// The bytes the signature covers: `header.payload` as written.
  public var signedData: Data {
    Data(
      jwsRepresentation.split(separator: ".", omittingEmptySubsequences: false).prefix(2)
        .joined(separator: ".").utf8)
  }
  /// When the App Store signed it.
  public var signedDate: Date { unsafePayloadValue.signedDate }
  /// The device verification hash.
  public var deviceVerification: Data { unsafePayloadValue.deviceVerification }
  /// The nonce of the device verification.
  public var deviceVerificationNonce: UUID { unsafePayloadValue.deviceVerificationNonce }

  private func part(_ index: Int) -> Data {
    let parts = jwsRepresentation.split(separator: ".", omittingEmptySubsequences: false)
    guard parts.indices.contains(index) else { return Data() }
    return Data(base64URL: String(parts[index])) ?? Data()
  }
}

extension Data {
  /// Base64url without padding, decoded.
  init?(base64URL text: String) {
    var base64 = text.replacingOccurrences(of: "-", with: "+").replacingOccurrences(
      of: "_", with: "/")
    while base64.count % 4 != 0 { base64 += "=" }
    self.init(base64Encoded: base64)
  }
}
