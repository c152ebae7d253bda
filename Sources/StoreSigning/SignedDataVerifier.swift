import Crypto
import Foundation
import StoreJSON
import SwiftASN1
import X509

/// Verifies signed data as Apple's App Store Server Library's `SignedDataVerifier` does: a
/// compact ES256 JWS whose `x5c` holds a leaf and an intermediate certificate (and a root),
/// the leaf marked as Apple's App Store signing certificate (OID 1.2.840.113635.100.6.11.1), the
/// intermediate as Apple's WWDR intermediate (1.2.840.113635.100.6.2.1), the intermediate
/// signed by one of the trusted roots, each valid at the payload's `signedDate` (its
/// `receiptCreationDate`, else now), and the JWS signed by the leaf.
public struct SignedDataVerifier: Sendable {
  /// The trusted roots (DER).
  public let roots: [Certificate]

  /// A verifier trusting `roots` (DER, as Apple's `.cer` files are, or PEM).
  ///
  /// - Throws: ``SigningError`` saying which root is not a certificate.
  public init(roots: [[UInt8]]) throws {
    self.roots = try roots.enumerated().map { index, bytes in
      if let der = try? Certificate(derEncoded: bytes) { return der }
      if let text = String(bytes: bytes, encoding: .utf8),
        let pem = try? Certificate(pemEncoded: text)
      {
        return pem
      }
      throw SigningError("root \(index + 1) is not a DER or PEM certificate")
    }
  }

  /// The payload of `jws`, verified.
  ///
  /// - Throws: ``SigningError`` naming what failed: the JWS's form, the chain's length or
  ///   markers, a certificate's validity, the root, the signature.
  public func verify(_ jws: String, now: Date = Date()) throws -> JSONObject {
    let decoded = try JWS.decode(jws)
    guard case .object(let header) = decoded.header, header["alg"] == .string("ES256") else {
      throw SigningError("the JWS's alg is not ES256")
    }
    guard case .object(let payload) = decoded.payload else {
      throw SigningError("the JWS's payload is not a JSON object")
    }
    guard case .array(let x5c)? = header["x5c"], x5c.count >= 2 else {
      throw SigningError("the JWS's x5c holds fewer than a leaf and an intermediate certificate")
    }
    let chain = try x5c.prefix(2).map { value -> Certificate in
      guard case .string(let text) = value, let der = Data(base64Encoded: text),
        let certificate = try? Certificate(derEncoded: [UInt8](der))
      else { throw SigningError("an x5c entry is not a base64 DER certificate") }
      return certificate
    }
    let (leaf, intermediate) = (chain[0], chain[1])
    guard Self.has(SigningIdentity.leafMarker, leaf) else {
      throw SigningError("x5c[0] is not marked as an App Store signing certificate")
    }
    guard Self.has(SigningIdentity.intermediateMarker, intermediate) else {
      throw SigningError("x5c[1] is not marked as Apple's intermediate certificate")
    }
    let date = Self.effectiveDate(payload) ?? now
    for (certificate, name) in [(leaf, "x5c[0]"), (intermediate, "x5c[1]")]
    where !(certificate.notValidBefore...certificate.notValidAfter).contains(date) {
      throw SigningError("\(name) is not valid at \(date) (the payload's signedDate)")
    }
    guard intermediate.publicKey.isValidSignature(leaf.signature, for: leaf) else {
      throw SigningError("x5c[0] is not signed by x5c[1]")
    }
    guard
      roots.contains(where: { root in
        root.subject == intermediate.issuer
          && root.publicKey.isValidSignature(intermediate.signature, for: intermediate)
      })
    else {
      throw SigningError("the chain does not lead to a trusted root (--root)")
    }
    guard decoded.signatureIsValid else {
      throw SigningError("the JWS's signature does not verify with x5c[0]")
    }
    return payload
  }

  private static func has(_ oid: ASN1ObjectIdentifier, _ certificate: Certificate) -> Bool {
    certificate.extensions.contains { $0.oid == oid }
  }

  /// `signedDate` (or a receipt's `receiptCreationDate`), milliseconds since 1970.
  private static func effectiveDate(_ payload: JSONObject) -> Date? {
    for key in ["signedDate", "receiptCreationDate"] {
      if case .number(let number)? = payload[key], let milliseconds = Double(number.text) {
        return Date(timeIntervalSince1970: milliseconds / 1000)
      }
    }
    return nil
  }
}
