import Crypto
import Foundation
import StoreJSON
import X509

/// Compact JWS (ES256) as StoreKit and the App Store produce it: a header with `alg`, `kid`,
/// `typ` and an `x5c` chain, a JSON payload, and the raw 64-byte P-256 signature.
public enum JWS {
  /// Signs a JSON payload with an identity.
  public static func sign(payload: [UInt8], with identity: SigningIdentity) throws -> String {
    try payload.withUnsafeBufferPointer { try sign(payload: $0, with: identity) }
  }

  /// Signs a JSON payload with an identity, written into the JWS's one buffer as it is encoded:
  /// the header's share of the SHA-256 is the identity's, worked out once.
  public static func sign(
    payload: UnsafeBufferPointer<UInt8>, with identity: SigningIdentity
  ) throws -> String {
    let header = identity.jwsHeaderBytes
    let payloadCount = Base64URL.encodedCount(payload.count)
    let total = header.count + payloadCount + 1 + Base64URL.encodedCount(64)
    return try String(unsafeUninitializedCapacity: total) { output in
      let base = output.baseAddress!
      header.withUnsafeBufferPointer { base.update(from: $0.baseAddress!, count: $0.count) }
      Base64URL.encode(UnsafeRawBufferPointer(payload), into: base + header.count)
      var hash = identity.headerHash
      hash.update(
        bufferPointer: UnsafeRawBufferPointer(start: base + header.count, count: payloadCount))
      let signature = try identity.signingKey.signature(for: hash.finalize())
      base[header.count + payloadCount] = UInt8(ascii: ".")
      let written = signature.rawRepresentation.withUnsafeBytes {
        Base64URL.encode($0, into: base + header.count + payloadCount + 1)
      }
      return header.count + payloadCount + 1 + written
    }
  }

  /// The JWS of a payload with the identity's header and no signature: what a value that could
  /// not be signed is handed over as (its fields readable, never verifying), never an empty
  /// string.
  public static func unsigned(payload: [UInt8], header identity: SigningIdentity) -> String {
    String(decoding: identity.jwsHeaderBytes, as: UTF8.self) + base64URL(payload) + "."
  }

  /// The base64url header for a chain, leaf first: `alg`, `kid`, `typ` and `x5c`.
  static func header(chain: [[UInt8]]) -> String {
    let header = JSONValue.object(
      JSONObject([
        JSONMember("alg", .string("ES256")),
        JSONMember("kid", .string(chain.count > 1 ? "Storekeeper_Local_Key" : "Apple_Xcode_Key")),
        JSONMember("typ", .string("JWT")),
        JSONMember("x5c", .array(chain.map { .string(Data($0).base64EncodedString()) })),
      ]))
    return base64URL(Array(JSONWriter.compact(header).utf8))
  }

  /// What ``decode(_:)`` found.
  public struct Decoded: Sendable {
    /// The header, as JSON.
    public var header: JSONValue
    /// The payload, as JSON.
    public var payload: JSONValue
    /// Whether the signature verifies with the public key of `x5c[0]`.
    public var signatureIsValid: Bool
    /// The subjects of the `x5c` certificates, leaf first.
    public var certificateSubjects: [String]
  }

  /// Decodes a compact JWS, or the body of a server notification (`{"signedPayload": "…"}`),
  /// and checks its signature.
  ///
  /// - Throws: ``SigningError`` as ``decode(_:)`` does.
  public static func decode(jwsOrNotificationBody text: String) throws -> Decoded {
    if let parsed = try? JSONParser.parse(Array(text.utf8)).root, case .object(let object) = parsed,
      case .string(let inner)? = object["signedPayload"]
    {
      return try decode(inner)
    }
    return try decode(text)
  }

  /// Decodes a compact JWS and checks its signature against its `x5c[0]` certificate.
  ///
  /// - Throws: ``SigningError`` when it is not a compact JWS with a P-256 `x5c` certificate.
  public static func decode(_ text: String) throws -> Decoded {
    let parts = text.trimmingCharacters(in: .whitespacesAndNewlines).split(
      separator: ".", omittingEmptySubsequences: false)
    guard parts.count == 3 else {
      throw SigningError("not a compact JWS: expected three base64url parts separated by dots")
    }
    let names = ["header", "payload", "signature"]
    let decoded = parts.map(fromBase64URL)
    if let bad = decoded.firstIndex(where: { $0 == nil }) {
      let standard = parts[bad].contains { $0 == "+" || $0 == "/" || $0 == "=" }
      throw SigningError(
        "not a compact JWS: the \(names[bad]) is not base64url"
          + (standard
            ? " (it uses standard base64's + / or =; JWS uses - and _ without padding)" : ""))
    }
    let headerBytes = decoded[0]!
    let payloadBytes = decoded[1]!
    let signature = decoded[2]!
    guard let header = try? JSONParser.parse(headerBytes).root,
      let payload = try? JSONParser.parse(payloadBytes).root
    else { throw SigningError("the JWS header or payload is not JSON") }
    guard case .object(let headerObject) = header, case .array(let chain)? = headerObject["x5c"],
      case .string(let leafText)? = chain.first, let leafDER = Data(base64Encoded: leafText)
    else { throw SigningError("the JWS header has no x5c certificate to check the signature with") }
    let certificates = chain.compactMap { value -> Certificate? in
      guard case .string(let text) = value, let der = Data(base64Encoded: text) else { return nil }
      return try? Certificate(derEncoded: [UInt8](der))
    }
    guard let leaf = try? Certificate(derEncoded: [UInt8](leafDER)),
      let key = P256.Signing.PublicKey(leaf.publicKey)
    else { throw SigningError("x5c[0] is not a P-256 certificate") }
    let input = Data(parts[0].utf8 + [UInt8(ascii: ".")] + parts[1].utf8)
    let valid =
      (try? P256.Signing.ECDSASignature(rawRepresentation: signature)).map {
        key.isValidSignature($0, for: input)
      } ?? false
    return Decoded(
      header: header, payload: payload, signatureIsValid: valid,
      certificateSubjects: certificates.map { $0.subject.description })
  }

  /// Base64url without padding (RFC 7515 §2).
  public static func base64URL(_ bytes: [UInt8]) -> String {
    bytes.withUnsafeBytes { Base64URL.encode($0) }
  }

  /// Decodes strict base64url: only `A–Z a–z 0–9 - _`, no padding (RFC 7515 §2); `nil` for
  /// anything else, standard base64's `+ / =` included.
  public static func fromBase64URL(_ text: Substring) -> [UInt8]? { Base64URL.decode(text) }
}
