import Crypto
import Foundation
import StoreSimulation
@_spi(CMS) import X509

/// App receipts as the local test environment issues them ("Validating receipts locally",
/// "Receipt Fields"): a PKCS#7 (CMS) SignedData, DER, whose attached content is Apple's
/// receipt ASN.1 — a SET of `ReceiptAttribute ::= SEQUENCE { type INTEGER, version INTEGER,
/// value OCTET STRING }`, each value a DER UTF8String, IA5String (RFC 3339 dates) or INTEGER.
public enum Receipt {
  /// App receipt attribute types.
  public enum Field {
    /// UTF8String.
    public static let bundleID = 2
    /// UTF8String (`CFBundleVersion`).
    public static let appVersion = 3
    /// Bytes.
    public static let opaqueValue = 4
    /// 20 bytes: SHA-1 of the device identifier, the opaque value and the bundle id's value.
    public static let sha1Hash = 5
    /// IA5String.
    public static let creationDate = 12
    /// A SET of in-app attributes, one per purchase.
    public static let inAppPurchase = 17
    /// UTF8String.
    public static let originalAppVersion = 19
    /// IA5String (volume purchase receipts only: never made here).
    public static let expirationDate = 21
  }

  /// In-app purchase attribute types.
  public enum InAppField {
    /// INTEGER.
    public static let quantity = 1701
    /// UTF8String.
    public static let productID = 1702
    /// UTF8String.
    public static let transactionID = 1703
    /// IA5String.
    public static let purchaseDate = 1704
    /// UTF8String.
    public static let originalTransactionID = 1705
    /// IA5String.
    public static let originalPurchaseDate = 1706
    /// IA5String (auto-renewable subscriptions).
    public static let subscriptionExpirationDate = 1708
    /// INTEGER (auto-renewable subscriptions).
    public static let webOrderLineItemID = 1711
    /// IA5String (refunded transactions).
    public static let cancellationDate = 1712
    /// INTEGER: 1 in a free trial.
    public static let isTrialPeriod = 1713
    /// INTEGER: 1 in a paid introductory offer period.
    public static let isInIntroOfferPeriod = 1719
    /// UTF8String.
    public static let promotionalOfferID = 1721
  }

  /// The app and original app version the receipts carry (the app transaction's too).
  public static let appVersion = "1"

  /// The receipt's ASN.1 payload (unsigned).
  ///
  /// - Parameters:
  ///   - purchases: the in-app records; `contents.purchases` for the app receipt.
  ///   - deviceID: the device identifier's 16 bytes the SHA-1 hash is computed with.
  public static func payload(
    _ contents: ReceiptContents, purchases: [Transaction], bundleID: String, deviceID: [UInt8]
  ) -> [UInt8] {
    let bundleValue = ReceiptDER.utf8(bundleID)
    let opaque = Array(
      SHA256.hash(
        data: Data("opaque \(bundleID) \(contents.creationDate.milliseconds)".utf8)
      ).prefix(16))
    let hash = Array(Insecure.SHA1.hash(data: deviceID + opaque + bundleValue))
    var attributes = [
      attribute(Field.bundleID, bundleValue),
      attribute(Field.appVersion, ReceiptDER.utf8(appVersion)),
      attribute(Field.opaqueValue, opaque),
      attribute(Field.sha1Hash, hash),
      attribute(Field.creationDate, ReceiptDER.ia5(date(contents.creationDate))),
      attribute(Field.originalAppVersion, ReceiptDER.utf8(appVersion)),
    ]
    for purchase in purchases {
      attributes.append(attribute(Field.inAppPurchase, inApp(purchase)))
    }
    return ReceiptDER.set(attributes)
  }

  /// The in-app purchase record of one transaction.
  static func inApp(_ t: Transaction) -> [UInt8] {
    var fields = [
      attribute(InAppField.quantity, ReceiptDER.integer(Int64(t.purchasedQuantity))),
      attribute(InAppField.productID, ReceiptDER.utf8(t.productID)),
      attribute(InAppField.transactionID, ReceiptDER.utf8(String(t.id))),
      attribute(InAppField.purchaseDate, ReceiptDER.ia5(date(t.purchaseDate))),
      attribute(InAppField.originalTransactionID, ReceiptDER.utf8(String(t.originalID))),
      attribute(InAppField.originalPurchaseDate, ReceiptDER.ia5(date(t.originalPurchaseDate))),
    ]
    if t.productType == .autoRenewable {
      if let expiration = t.expirationDate {
        fields.append(
          attribute(InAppField.subscriptionExpirationDate, ReceiptDER.ia5(date(expiration))))
      }
      let line = t.webOrderLineItemID.flatMap { Int64($0) } ?? Int64(truncatingIfNeeded: t.id)
      fields.append(attribute(InAppField.webOrderLineItemID, ReceiptDER.integer(line)))
      let offer = t.offer
      let trial = offer?.paymentMode == .freeTrial
      let intro = offer?.type == .introductory && !trial
      fields.append(attribute(InAppField.isTrialPeriod, ReceiptDER.integer(trial ? 1 : 0)))
      fields.append(attribute(InAppField.isInIntroOfferPeriod, ReceiptDER.integer(intro ? 1 : 0)))
      if offer?.type == .promotional, let id = offer?.id {
        fields.append(attribute(InAppField.promotionalOfferID, ReceiptDER.utf8(id)))
      }
    }
    if let revoked = t.revocationDate {
      fields.append(attribute(InAppField.cancellationDate, ReceiptDER.ia5(date(revoked))))
    }
    return ReceiptDER.set(fields)
  }

  /// `ReceiptAttribute`: version 1, the value in an OCTET STRING.
  private static func attribute(_ type: Int, _ value: [UInt8]) -> [UInt8] {
    ReceiptDER.sequence([
      ReceiptDER.integer(Int64(type)), ReceiptDER.integer(1), ReceiptDER.octetString(value),
    ])
  }

  /// Apple's receipt dates: RFC 3339 in UTC, to the second (`2026-11-22T02:00:00Z`).
  public static func date(_ instant: Instant) -> String {
    let text = instant.iso8601
    guard let dot = text.firstIndex(of: ".") else { return text }
    return String(text[..<dot]) + "Z"
  }

  /// A device identifier's 16 bytes from its UUID text.
  ///
  /// - Throws: ``SigningError`` when the text is not a UUID.
  public static func deviceBytes(_ uuid: String) throws(SigningError) -> [UInt8] {
    guard let parsed = UUID(uuidString: uuid) else {
      throw SigningError(
        "--device-id \(uuid): not a UUID (such as 3F2504E0-4F89-41D3-9A0C-0305E82C3301)")
    }
    return withUnsafeBytes(of: parsed.uuid) { Array($0) }
  }
}

extension Signer {
  /// The app receipt: signed CMS, DER.
  ///
  /// Signed with the identity's leaf; with the chain, the intermediate rides along so that
  /// `openssl cms -verify -CAfile root.pem` finds its way to the root.
  public func receipt(_ contents: ReceiptContents) throws -> [UInt8] {
    let payload = Receipt.payload(
      contents, purchases: contents.purchases, bundleID: bundleID,
      deviceID: try Receipt.deviceBytes(deviceID))
    let certificates = try identity.chain.map { try Certificate(derEncoded: $0) }
    return try CMS.sign(
      payload, signatureAlgorithm: .ecdsaWithSHA256,
      additionalIntermediateCertificates: Array(certificates.dropFirst().dropLast()),
      certificate: certificates[0], privateKey: Certificate.PrivateKey(identity.signingKey),
      signingTime: Date(timeIntervalSince1970: Double(contents.creationDate.milliseconds) / 1000),
      detached: false)
  }
}

extension Signer {
  /// A `receipt` event's fields: the app receipt (`receipt`) and, for a purchase, its own
  /// (`transactionReceipt`), in base64; nothing that could not be signed.
  public func receiptFields(_ contents: ReceiptContents) -> [(String, String)] {
    var fields: [(String, String)] = []
    if let receipt = try? receipt(contents) {
      fields.append(("receipt", Data(receipt).base64EncodedString()))
    }
    if let purchase = contents.purchase, let own = try? transactionReceipt(purchase) {
      fields.append(("transactionReceipt", own))
    }
    return fields
  }

  /// `SKPaymentTransaction.transactionReceipt` (deprecated since iOS 7, still what older
  /// backends read): base64 of an old-style property list whose `purchase-info` is base64 of
  /// another, holding `transaction-id`, `product-id`, dates … as Apple's servers wrote them.
  /// Its `signature` is base64 of an ECDSA (P-256, SHA-256) signature over the `purchase-info`
  /// text by the identity's key, where Apple put a proprietary blob.
  public func transactionReceipt(_ t: Transaction) throws -> String {
    func line(_ key: String, _ value: String) -> String { "\t\"\(key)\" = \"\(value)\";\n" }
    func date(_ instant: Instant) -> String {
      Receipt.date(instant).replacingOccurrences(of: "T", with: " ")
        .replacingOccurrences(of: "Z", with: " Etc/GMT")
    }
    var info = "{\n"
    info += line("original-purchase-date-ms", String(t.originalPurchaseDate.milliseconds))
    info += line("original-transaction-id", String(t.originalID))
    info += line("bvrs", Receipt.appVersion)
    info += line("transaction-id", String(t.id))
    info += line("quantity", String(t.purchasedQuantity))
    info += line("original-purchase-date", date(t.originalPurchaseDate))
    info += line("product-id", t.productID)
    info += line("purchase-date-ms", String(t.purchaseDate.milliseconds))
    info += line("purchase-date", date(t.purchaseDate))
    if let expiration = t.expirationDate, t.productType == .autoRenewable {
      info += line("expires-date", String(expiration.milliseconds))
      info += line("web-order-line-item-id", t.webOrderLineItemID ?? String(t.id))
    }
    info += line("bid", bundleID)
    info += "}"
    let purchaseInfo = Data(info.utf8).base64EncodedString()
    let signature = try identity.signingKey.signature(for: Data(purchaseInfo.utf8))
    var outer = "{\n"
    outer += line("signature", signature.derRepresentation.base64EncodedString())
    outer += line("purchase-info", purchaseInfo)
    outer += line("environment", environment == .xcode ? "Xcode" : environment.rawValue)
    outer += line("pod", "100")
    outer += line("signing-status", "0")
    outer += "}"
    return Data(outer.utf8).base64EncodedString()
  }
}

/// The few DER encodings a receipt needs (written by hand: the values nest in OCTET STRINGs).
enum ReceiptDER {
  static func tlv(_ tag: UInt8, _ content: [UInt8]) -> [UInt8] {
    var out: [UInt8] = [tag]
    if content.count < 0x80 {
      out.append(UInt8(content.count))
    } else {
      var length = content.count
      var bytes: [UInt8] = []
      while length > 0 {
        bytes.insert(UInt8(length & 0xFF), at: 0)
        length >>= 8
      }
      out.append(0x80 | UInt8(bytes.count))
      out += bytes
    }
    return out + content
  }

  /// The shortest two's-complement big-endian form.
  static func integer(_ value: Int64) -> [UInt8] {
    var bytes = withUnsafeBytes(of: value.bigEndian) { Array($0) }
    while bytes.count > 1
      && ((bytes[0] == 0 && bytes[1] & 0x80 == 0) || (bytes[0] == 0xFF && bytes[1] & 0x80 != 0))
    {
      bytes.removeFirst()
    }
    return tlv(0x02, bytes)
  }

  static func utf8(_ text: String) -> [UInt8] { tlv(0x0C, Array(text.utf8)) }
  static func ia5(_ text: String) -> [UInt8] { tlv(0x16, Array(text.utf8)) }
  static func octetString(_ bytes: [UInt8]) -> [UInt8] { tlv(0x04, bytes) }
  static func sequence(_ elements: [[UInt8]]) -> [UInt8] { tlv(0x30, elements.flatMap { $0 }) }
  /// A SET OF, its elements in DER's order (by their encodings).
  static func set(_ elements: [[UInt8]]) -> [UInt8] {
    tlv(0x31, elements.sorted { $0.lexicographicallyPrecedes($1) }.flatMap { $0 })
  }
}
