import Crypto
import Foundation
import SwiftASN1
import X509

/// The keys and certificates Storekeeper signs with: one self-signed P-256 certificate like Xcode's
/// ("StoreKit Testing in Xcode"), or a three-certificate chain from a local root whose
/// intermediate and leaf carry Apple's marker extensions, for servers that verify for real.
///
/// Generated once per state folder and reused; certificates are valid from 2000 to 2100 so that
/// verifiers checking at a payload's `signedDate` accept any simulated time.
public struct SigningIdentity: Sendable {
  /// The key that signs payloads.
  public let signingKey: P256.Signing.PrivateKey
  /// The `x5c` chain, leaf first, DER-encoded.
  public let chain: [[UInt8]]
  /// The chain as PEM, leaf first.
  public let chainPEM: [String]
  /// The base64url JWS header every signature with this identity carries, and the dot after
  /// it (made once).
  let jwsHeaderBytes: [UInt8]
  /// SHA-256 having read ``jwsHeaderBytes``: every signing input starts with them.
  let headerHash: SHA256
  /// The root certificate's PEM (the last of the chain; the leaf itself when self-signed).
  public var rootPEM: String { chainPEM.last ?? "" }
  /// Whether this is the three-certificate chain.
  public var isChain: Bool { chain.count > 1 }

  /// Apple's marker extension on the WWDR intermediate certificate.
  public static let intermediateMarker: ASN1ObjectIdentifier = [1, 2, 840, 113635, 100, 6, 2, 1]
  /// Apple's marker extension on the App Store receipt-signing leaf certificate.
  public static let leafMarker: ASN1ObjectIdentifier = [1, 2, 840, 113635, 100, 6, 11, 1]

  static let validity: (Date, Date) = (
    Date(timeIntervalSince1970: 946_684_800),  // 2000-01-01
    Date(timeIntervalSince1970: 4_102_444_800)  // 2100-01-01
  )

  /// The identity stored in `folder` (created with mode 0700/0600 when missing).
  public static func load(in folder: String, chain: Bool) throws -> SigningIdentity {
    try FileManager.default.createDirectory(
      atPath: folder, withIntermediateDirectories: true, attributes: [.posixPermissions: 0o700])
    let names = chain ? ["chain-leaf", "chain-intermediate", "chain-root"] : ["xcode"]
    let keyPath = folder + "/\(names[0])-key.pem"
    let certificatePaths = names.map { folder + "/\($0).pem" }
    if FileManager.default.fileExists(atPath: keyPath),
      certificatePaths.allSatisfy({ FileManager.default.fileExists(atPath: $0) })
    {
      let key = try P256.Signing.PrivateKey(
        pemRepresentation: String(contentsOfFile: keyPath, encoding: .utf8))
      let pems = try certificatePaths.map { try String(contentsOfFile: $0, encoding: .utf8) }
      return try SigningIdentity(signingKey: key, chainPEM: pems)
    }
    let identity = chain ? try makeChain() : try makeSelfSigned()
    try write(identity.signingKey.pemRepresentation, to: keyPath, mode: 0o600)
    for (path, pem) in zip(certificatePaths, identity.chainPEM) {
      try write(pem, to: path, mode: 0o644)
    }
    return identity
  }

  init(signingKey: P256.Signing.PrivateKey, chainPEM: [String]) throws {
    self.signingKey = signingKey
    self.chainPEM = chainPEM
    self.chain = try chainPEM.map { pem in
      var serializer = DER.Serializer()
      try serializer.serialize(try Certificate(pemEncoded: pem))
      return serializer.serializedBytes
    }
    jwsHeaderBytes = Array((JWS.header(chain: chain) + ".").utf8)
    var hash = SHA256()
    hash.update(data: jwsHeaderBytes)
    headerHash = hash
  }

  private static func write(_ text: String, to path: String, mode: Int) throws {
    guard
      FileManager.default.createFile(
        atPath: path, contents: Data(text.utf8), attributes: [.posixPermissions: mode])
    else { throw SigningError("cannot write \(path)") }
  }

  private static func name(_ common: String) throws -> DistinguishedName {
    try DistinguishedName {
      CommonName(common)
      OrganizationName(common)
    }
  }

  private static func keyIdentifier(_ key: P256.Signing.PublicKey) -> ArraySlice<UInt8> {
    ArraySlice(Insecure.SHA1.hash(data: key.x963Representation))
  }

  /// One self-signed certificate, as Xcode's environment signs with.
  package static func makeSelfSigned() throws -> SigningIdentity {
    let key = P256.Signing.PrivateKey()
    let subject = try name("StoreKit Testing in Xcode")
    let certificate = try Certificate(
      version: .v3, serialNumber: Certificate.SerialNumber(bytes: [1]),
      publicKey: .init(key.publicKey), notValidBefore: validity.0, notValidAfter: validity.1,
      issuer: subject, subject: subject, signatureAlgorithm: .ecdsaWithSHA256,
      extensions: try Certificate.Extensions {
        Critical(BasicConstraints.isCertificateAuthority(maxPathLength: 0))
        KeyUsage(digitalSignature: true)
        SubjectAlternativeNames([.rfc822Name("StoreKit Testing in Xcode")])
        SubjectKeyIdentifier(keyIdentifier: keyIdentifier(key.publicKey))
      },
      issuerPrivateKey: .init(key))
    return try SigningIdentity(
      signingKey: key, chainPEM: [try certificate.serializeAsPEM().pemString])
  }

  /// A root, an intermediate with Apple's WWDR marker and a leaf with the App Store marker.
  static func makeChain() throws -> SigningIdentity {
    let rootKey = P256.Signing.PrivateKey()
    let intermediateKey = P256.Signing.PrivateKey()
    let leafKey = P256.Signing.PrivateKey()
    let rootName = try name("Storekeeper Local Root CA")
    let intermediateName = try name("Storekeeper Local Intermediate CA")
    let leafName = try name("Storekeeper Local App Store Signing")
    let marker: [UInt8] = [0x05, 0x00]  // DER NULL
    let root = try Certificate(
      version: .v3, serialNumber: Certificate.SerialNumber(bytes: [1]),
      publicKey: .init(rootKey.publicKey), notValidBefore: validity.0, notValidAfter: validity.1,
      issuer: rootName, subject: rootName, signatureAlgorithm: .ecdsaWithSHA256,
      extensions: try Certificate.Extensions {
        Critical(BasicConstraints.isCertificateAuthority(maxPathLength: nil))
        Critical(KeyUsage(keyCertSign: true, cRLSign: true))
        SubjectKeyIdentifier(keyIdentifier: keyIdentifier(rootKey.publicKey))
      },
      issuerPrivateKey: .init(rootKey))
    let intermediate = try Certificate(
      version: .v3, serialNumber: Certificate.SerialNumber(bytes: [2]),
      publicKey: .init(intermediateKey.publicKey), notValidBefore: validity.0,
      notValidAfter: validity.1,
      issuer: rootName, subject: intermediateName, signatureAlgorithm: .ecdsaWithSHA256,
      extensions: try Certificate.Extensions {
        Critical(BasicConstraints.isCertificateAuthority(maxPathLength: 0))
        Critical(KeyUsage(keyCertSign: true, cRLSign: true))
        SubjectKeyIdentifier(keyIdentifier: keyIdentifier(intermediateKey.publicKey))
        AuthorityKeyIdentifier(keyIdentifier: keyIdentifier(rootKey.publicKey))
        Certificate.Extension(oid: intermediateMarker, critical: false, value: marker[...])
      },
      issuerPrivateKey: .init(rootKey))
    let leaf = try Certificate(
      version: .v3, serialNumber: Certificate.SerialNumber(bytes: [3]),
      publicKey: .init(leafKey.publicKey), notValidBefore: validity.0, notValidAfter: validity.1,
      issuer: intermediateName, subject: leafName, signatureAlgorithm: .ecdsaWithSHA256,
      extensions: try Certificate.Extensions {
        Critical(BasicConstraints.notCertificateAuthority)
        Critical(KeyUsage(digitalSignature: true))
        SubjectKeyIdentifier(keyIdentifier: keyIdentifier(leafKey.publicKey))
        AuthorityKeyIdentifier(keyIdentifier: keyIdentifier(intermediateKey.publicKey))
        Certificate.Extension(oid: leafMarker, critical: false, value: marker[...])
      },
      issuerPrivateKey: .init(intermediateKey))
    return try SigningIdentity(
      signingKey: leafKey,
      chainPEM: [leaf, intermediate, root].map { try $0.serializeAsPEM().pemString })
  }
}

/// A signing or verification problem, for a person.
public struct SigningError: Error, CustomStringConvertible, Sendable {
  /// What went wrong.
  public var description: String

  /// An error that says `description`.
  public init(_ description: String) { self.description = description }
}

/// An App Store Connect API key as App Store Connect hands it out (`AuthKey_<id>.p8`): a P-256
/// private key, PKCS#8, PEM. `serve --api-key` and `token --api-key` read one.
public enum APIKeyFile {
  /// A new key's PEM text.
  public static func generate() -> String { P256.Signing.PrivateKey().pemRepresentation + "\n" }
}
