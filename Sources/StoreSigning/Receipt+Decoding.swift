import Crypto
import Foundation
import StoreJSON
import StoreSimulation
import SwiftASN1
import X509

extension Receipt {
  /// A receipt taken apart: its fields under Apple's names, its certificates, and whether its
  /// signature holds against its own signing certificate.
  public struct Decoded: Sendable {
    /// The ASN.1 type of each field name the receipt holds (`quantity` → 1701), for those who
    /// read receipts by number.
    public var fieldTypes: [String: Int] {
      guard case .object(let app) = fields else { return [:] }
      var names = app.members.map(\.key)
      if case .array(let records)? = app["in_app"] {
        for case .object(let record) in records { names += record.members.map(\.key) }
      }
      return Receipt.fieldTypes.filter { names.contains($0.key) }
    }

    /// The fields, in Apple's JSON names (`bundle_id`, `in_app` …; `opaque_value` and
    /// `sha1_hash`, which have none, in hex).
    public var fields: JSONValue
    /// The certificates' subjects, signer first.
    public var certificateSubjects: [String]
    /// Whether the CMS signature verifies with the certificate it names.
    public var signatureIsValid: Bool
    /// Whether the SHA-1 hash matches the device identifier given (`nil` when none was).
    public var hashMatches: Bool?
  }

  /// App receipt fields by type: Apple's JSON name and how the value is encoded.
  private static let appNames: [Int: (String, ValueKind)] = [
    Field.bundleID: ("bundle_id", .text), Field.appVersion: ("application_version", .text),
    Field.opaqueValue: ("opaque_value", .bytes), Field.sha1Hash: ("sha1_hash", .bytes),
    Field.creationDate: ("receipt_creation_date", .text),
    Field.originalAppVersion: ("original_application_version", .text),
    Field.expirationDate: ("expiration_date", .text),
  ]

  /// In-app fields by type.
  private static let inAppNames: [Int: (String, ValueKind)] = [
    InAppField.quantity: ("quantity", .integer), InAppField.productID: ("product_id", .text),
    InAppField.transactionID: ("transaction_id", .text),
    InAppField.purchaseDate: ("purchase_date", .text),
    InAppField.originalTransactionID: ("original_transaction_id", .text),
    InAppField.originalPurchaseDate: ("original_purchase_date", .text),
    InAppField.subscriptionExpirationDate: ("expires_date", .text),
    InAppField.webOrderLineItemID: ("web_order_line_item_id", .integer),
    InAppField.cancellationDate: ("cancellation_date", .text),
    InAppField.isTrialPeriod: ("is_trial_period", .integer),
    InAppField.isInIntroOfferPeriod: ("is_in_intro_offer_period", .integer),
    InAppField.promotionalOfferID: ("promotional_offer_id", .text),
  ]

  private enum ValueKind { case text, integer, bytes }

  /// Decodes a receipt: DER or BER (Xcode writes indefinite lengths), or its base64.
  ///
  /// - Parameter deviceID: a device identifier (UUID) to check the SHA-1 hash with.
  /// - Throws: ``SigningError`` saying what is not a receipt.
  public static func decode(
    _ input: [UInt8], deviceID: String? = nil
  ) throws(SigningError)
    -> Decoded
  {
    var bytes = input
    if bytes.first != 0x30,
      let data = Data(
        base64Encoded: String(decoding: input, as: UTF8.self).trimmingCharacters(
          in: .whitespacesAndNewlines))
    {
      bytes = Array(data)
    }
    let signed: SignedContent
    do {
      signed = try signedContent(bytes)
    } catch let error as SigningError {
      throw error
    } catch {
      throw SigningError("not a receipt: not a PKCS#7 SignedData (\(error))")
    }
    let (content, certificates) = (signed.content, signed.certificates)
    var app = JSONObject()
    var inApps: [JSONValue] = []
    var hashInputs: (opaque: [UInt8], hash: [UInt8], bundle: [UInt8]) = ([], [], [])
    do {
      for (type, value) in try attributes(content) {
        if type == Field.inAppPurchase {
          inApps.append(.object(try inAppRecord(value)))
          continue
        }
        switch type {
        case Field.opaqueValue: hashInputs.opaque = value
        case Field.sha1Hash: hashInputs.hash = value
        case Field.bundleID: hashInputs.bundle = value
        default: break
        }
        let (name, kind) = appNames[type] ?? ("type_\(type)", .bytes)
        app[name] = try decodeValue(value, kind)
      }
    } catch {
      throw SigningError("not a receipt: its content is not Apple's receipt ASN.1 (\(error))")
    }
    app["in_app"] = .array(inApps)
    var hashMatches: Bool?
    if let deviceID {
      let device = try deviceBytes(deviceID)
      let expected = Array(
        Insecure.SHA1.hash(data: device + hashInputs.opaque + hashInputs.bundle))
      hashMatches = expected == hashInputs.hash
    }
    return Decoded(
      fields: .object(app), certificateSubjects: certificates.map { $0.subject.description },
      signatureIsValid: verify(signed), hashMatches: hashMatches)
  }

  /// A transaction's in-app purchase record as a receipt holds it, decoded back (Apple's
  /// names, the type numbers beside them in ``fieldTypes``).
  public static func record(of transaction: Transaction) -> JSONObject {
    (try? inAppRecord(inApp(transaction))) ?? JSONObject()
  }

  /// The app receipt's own fields as a receipt made now for `bundleID` holds them (what
  /// ``payload(_:purchases:bundleID:deviceID:)`` writes, without the bytes and the records).
  public static func appFields(bundleID: String, creationDate: Instant) -> JSONObject {
    var app = JSONObject()
    app["bundle_id"] = .string(bundleID)
    app["application_version"] = .string(appVersion)
    app["original_application_version"] = .string(appVersion)
    app["receipt_creation_date"] = .string(date(creationDate))
    return app
  }

  /// The type number of each field name (`bundle_id` → 2, `quantity` → 1701).
  public static let fieldTypes: [String: Int] = Dictionary(
    uniqueKeysWithValues: (appNames.merging(inAppNames) { $1 }).map { ($0.value.0, $0.key) }
      + [("in_app", Field.inAppPurchase)])

  private static func inAppRecord(_ set: [UInt8]) throws -> JSONObject {
    var record = JSONObject()
    for (type, value) in try attributes(set).sorted(by: { $0.0 < $1.0 }) {
      let (name, kind) = inAppNames[type] ?? ("type_\(type)", .bytes)
      record[name] = try decodeValue(value, kind)
    }
    return record
  }

  /// What a CMS SignedData holds that decoding and checking it need, parsed once.
  private struct SignedContent {
    var content: [UInt8]
    var certificates: [Certificate]
    /// The first `SignerInfo`'s parts, if any.
    var signer: [ASN1Node]
  }

  /// The attached content, the certificates and the signer of a CMS SignedData.
  private static func signedContent(_ bytes: [UInt8]) throws -> SignedContent {
    let root = try BER.parse(bytes)
    let info = try children(root)
    guard info.count == 2, let explicit = try children(info[1]).first else {
      throw SigningError("not a receipt: a ContentInfo has a type and a content")
    }
    let signedData = try children(explicit)
    guard signedData.count >= 4 else {
      throw SigningError("not a receipt: the SignedData is incomplete")
    }
    let encapsulated = try children(signedData[2])
    guard encapsulated.count == 2, let octets = try children(encapsulated[1]).first else {
      throw SigningError("not a receipt: the SignedData carries no content")
    }
    var certificates: [Certificate] = []
    for node in signedData[3...]
    where node.identifier.tagClass == .contextSpecific && node.identifier.tagNumber == 0 {
      for certificate in try children(node) {
        certificates.append(try Certificate(derEncoded: Array(certificate.encodedBytes)))
      }
    }
    let signer = (signedData.last.flatMap { try? children($0).first }).flatMap {
      try? children($0)
    }
    return SignedContent(
      content: try primitiveBytes(octets), certificates: certificates, signer: signer ?? [])
  }

  /// `(type, value)` of each `ReceiptAttribute` in a SET.
  private static func attributes(_ bytes: [UInt8]) throws -> [(Int, [UInt8])] {
    try children(try BER.parse(bytes)).map { node in
      let parts = try children(node)
      guard parts.count == 3 else { throw SigningError("an attribute is not type, version, value") }
      return (try Int(berEncoded: parts[0]), try primitiveBytes(parts[2]))
    }
  }

  private static func decodeValue(_ value: [UInt8], _ kind: ValueKind) throws -> JSONValue {
    switch kind {
    case .bytes: return .string(value.map { String(format: "%02x", $0) }.joined())
    case .integer:
      return .number(JSONNumber(text: String(try Int(berEncoded: try BER.parse(value)))))
    case .text:
      guard !value.isEmpty else { return .string("") }
      return .string(String(decoding: try primitiveBytes(try BER.parse(value)), as: UTF8.self))
    }
  }

  private static func children(_ node: ASN1Node) throws -> [ASN1Node] {
    guard case .constructed(let nodes) = node.content else {
      throw SigningError("expected a constructed value")
    }
    return Array(nodes)
  }

  /// A primitive's bytes, or a constructed (BER) string's pieces joined.
  private static func primitiveBytes(_ node: ASN1Node) throws -> [UInt8] {
    switch node.content {
    case .primitive(let bytes): return Array(bytes)
    case .constructed(let nodes): return try nodes.flatMap { try primitiveBytes($0) }
    }
  }

  /// Whether the signature verifies with the receipt's own signing certificate (trusted as
  /// given: `openssl cms -verify` against `storekeeper certificate` checks the trust). With
  /// signed attributes (Apple's receipts, ours), the message digest must be the content's.
  private static func verify(_ signed: SignedContent) -> Bool {
    let (content, certificates, parts) = (signed.content, signed.certificates, signed.signer)
    guard parts.count >= 5 else { return false }
    var index = 3
    var signedBytes = content
    var digestAttribute: [UInt8]?
    if parts[3].identifier.tagClass == .contextSpecific, parts[3].identifier.tagNumber == 0 {
      // The SET OF attributes is signed with its universal tag.
      signedBytes = [0x31] + Array(parts[3].encodedBytes.dropFirst())
      for attribute in (try? children(parts[3])) ?? [] {
        guard let pair = try? children(attribute), pair.count == 2,
          let oid = try? ASN1ObjectIdentifier(derEncoded: pair[0]),
          oid == [1, 2, 840, 113_549, 1, 9, 4],
          let value = try? children(pair[1]).first
        else { continue }
        digestAttribute = try? primitiveBytes(value)
      }
      index = 4
    }
    guard parts.count > index + 1,
      let digestOID = try? children(parts[2]).first.map({ try ASN1ObjectIdentifier(derEncoded: $0) }
      ),
      let algorithmOID = try? children(parts[index]).first.map({
        try ASN1ObjectIdentifier(derEncoded: $0)
      }),
      let signature = try? primitiveBytes(parts[index + 1])
    else { return false }
    let sha1 = digestOID == [1, 3, 14, 3, 2, 26]
    if let digestAttribute {
      let digest =
        sha1 ? Array(Insecure.SHA1.hash(data: content)) : Array(SHA256.hash(data: content))
      guard digest == digestAttribute else { return false }
    }
    let algorithm: Certificate.SignatureAlgorithm
    switch algorithmOID {
    case [1, 2, 840, 10045, 4, 3, 2]: algorithm = .ecdsaWithSHA256
    case [1, 2, 840, 10045, 4, 3, 3]: algorithm = .ecdsaWithSHA384
    case [1, 2, 840, 113_549, 1, 1, 11]: algorithm = .sha256WithRSAEncryption
    case [1, 2, 840, 113_549, 1, 1, 5]: algorithm = .sha1WithRSAEncryption
    case [1, 2, 840, 113_549, 1, 1, 1]:
      algorithm = sha1 ? .sha1WithRSAEncryption : .sha256WithRSAEncryption
    default: return false
    }
    return certificates.contains {
      $0.publicKey.isValidSignature(signature, for: signedBytes, signatureAlgorithm: algorithm)
    }
  }
}
