#if canImport(StoreKit)
  import StoreKit
#else
  import StorekeeperKit
#endif
#if canImport(CryptoKit)
  import CryptoKit
#else
  import Crypto
#endif

/// The app receipt's fields the app checks and uses.
public struct AppReceipt: Sendable {
  /// An in-app purchase the receipt lists.
  public struct Purchase: Sendable, Equatable {
    public var productID: String
    public var transactionID: String
    public var originalTransactionID: String
    public var quantity: Int
  }

  public var bundleID: String
  public var appVersion: String
  public var purchases: [Purchase]
}

/// Why a receipt is not to be trusted.
public enum ReceiptValidationError: Error, Equatable {
  /// There is no receipt at `Bundle.main.appStoreReceiptURL` (ask for one with
  /// `SKReceiptRefreshRequest`).
  case missing
  /// It is not a PKCS#7 receipt.
  case malformed
  /// It was not signed with the certificate the app trusts.
  case untrustedCertificate
  /// Its signature does not verify.
  case invalidSignature
  /// It is another app's.
  case wrongBundle(String)
  /// It was issued for another device.
  case wrongDevice
}

/// Local receipt validation, the way Apple's "Validating receipts locally" describes it: read
/// the receipt at `Bundle.main.appStoreReceiptURL`, check that the certificate the app trusts
/// signed it, that the bundle id is the app's and that the hash is this device's, then read its
/// in-app purchases.
public enum ReceiptValidator {
  public static func validate(
    trusting certificate: Data, bundleID: String, deviceIdentifier: UUID
  ) throws -> AppReceipt {
    guard let url = Bundle.main.appStoreReceiptURL, let data = try? Data(contentsOf: url) else {
      throw ReceiptValidationError.missing
    }
    do {
      let signed = try SignedReceipt(Array(data))
      guard signed.certificate == Array(certificate) else {
        throw ReceiptValidationError.untrustedCertificate
      }
      guard try signed.signatureIsValid() else { throw ReceiptValidationError.invalidSignature }
      return try read(signed.payload, bundleID: bundleID, deviceIdentifier: deviceIdentifier)
    } catch is DER.Malformed {
      throw ReceiptValidationError.malformed
    }
  }

  /// The receipt's attributes: checked, then read.
  private static func read(
    _ payload: ArraySlice<UInt8>, bundleID: String, deviceIdentifier: UUID
  ) throws -> AppReceipt {
    var receipt = AppReceipt(bundleID: "", appVersion: "", purchases: [])
    var bundleValue: ArraySlice<UInt8> = []
    var opaque: ArraySlice<UInt8> = []
    var hash: ArraySlice<UInt8> = []
    for (type, value) in try attributes(payload) {
      switch type {
      case 2:
        bundleValue = value.content
        receipt.bundleID = try value.children().first?.text ?? ""
      case 3: receipt.appVersion = try value.children().first?.text ?? ""
      case 4: opaque = value.content
      case 5: hash = value.content
      case 17: receipt.purchases.append(try purchase(value.content))
      default: continue
      }
    }
    guard receipt.bundleID == bundleID else {
      throw ReceiptValidationError.wrongBundle(receipt.bundleID)
    }
    let device = withUnsafeBytes(of: deviceIdentifier.uuid) { Array($0) }
    let computed = Insecure.SHA1.hash(data: device + Array(opaque) + Array(bundleValue))
    // The hash is over the bundle id's DER value (its UTF8String), as the receipt holds it.
    guard Array(computed) == Array(hash) else { throw ReceiptValidationError.wrongDevice }
    return receipt
  }

  /// The (type, value) attributes of a receipt SET; `value` is the OCTET STRING element.
  private static func attributes(_ set: ArraySlice<UInt8>) throws -> [(Int, DERElement)] {
    guard let root = try DER.elements(set).first, root.tag == 0x31 else { throw DER.Malformed() }
    return try root.children().map { attribute in
      let fields = try attribute.children()
      guard fields.count == 3 else { throw DER.Malformed() }
      return (fields[0].integer, fields[2])
    }
  }

  private static func purchase(_ set: ArraySlice<UInt8>) throws -> AppReceipt.Purchase {
    var purchase = AppReceipt.Purchase(
      productID: "", transactionID: "", originalTransactionID: "", quantity: 0)
    for (type, value) in try attributes(set) {
      let inner = try value.children().first
      switch type {
      case 1701: purchase.quantity = inner?.integer ?? 0
      case 1702: purchase.productID = inner?.text ?? ""
      case 1703: purchase.transactionID = inner?.text ?? ""
      case 1705: purchase.originalTransactionID = inner?.text ?? ""
      default: continue
      }
    }
    return purchase
  }
}

/// A PKCS#7 (CMS) SignedData receipt: its payload, its signer's certificate and signature.
struct SignedReceipt {
  let payload: ArraySlice<UInt8>
  let certificate: [UInt8]
  let signedAttributes: ArraySlice<UInt8>?
  let signature: ArraySlice<UInt8>

  init(_ bytes: [UInt8]) throws {
    guard let contentInfo = try DER.elements(bytes[...]).first,
      let explicit = try contentInfo.children().dropFirst().first,
      let signedData = try explicit.children().first
    else { throw DER.Malformed() }
    let parts = try signedData.children()
    guard parts.count >= 4,
      let wrapper = try parts[2].children().dropFirst().first,
      let content = try wrapper.children().first,
      let certificates = parts.first(where: { $0.tag == 0xA0 }),
      let certificate = try certificates.children().first,
      let signerInfos = parts.last, let signer = try signerInfos.children().first
    else { throw DER.Malformed() }
    payload = content.content
    self.certificate = Array(certificate.whole)
    let fields = try signer.children()
    signedAttributes = fields.first { $0.tag == 0xA0 }?.whole
    guard let signature = fields.last, signature.tag == 0x04 else { throw DER.Malformed() }
    self.signature = signature.content
  }

  /// Whether the signer's key signed the signed attributes (or, without any, the payload).
  func signatureIsValid() throws -> Bool {
    let key = try P256.Signing.PublicKey(derRepresentation: try subjectPublicKeyInfo())
    guard let signature = try? P256.Signing.ECDSASignature(derRepresentation: signature) else {
      return false
    }
    var signed = Array(signedAttributes ?? payload)
    if signedAttributes != nil { signed[0] = 0x31 }  // signed as a SET, stored as [0]
    return key.isValidSignature(signature, for: signed)
  }

  /// The certificate's SubjectPublicKeyInfo.
  private func subjectPublicKeyInfo() throws -> [UInt8] {
    guard let certificate = try DER.elements(certificate[...]).first,
      let tbs = try certificate.children().first
    else { throw DER.Malformed() }
    let fields = try tbs.children()
    let index = fields.first?.tag == 0xA0 ? 6 : 5
    guard fields.count > index else { throw DER.Malformed() }
    return Array(fields[index].whole)
  }
}
