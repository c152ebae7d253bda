import Foundation
import StoreCommands
import StoreConfiguration
import StoreJSON
import StoreSimulation
import StoreTestSupport
import Testing
import X509

@testable import StoreSigning

let start = Instant(iso8601: "2026-11-22T02:00:00Z")!

func foodTruck() -> StoreKitConfiguration {
  StoreKitConfiguration.load(
    contentsOf: packageRoot.appendingPathComponent("Configs/FoodTruck.storekit").path
  ).configuration!
}

func temporaryFolder() throws -> String {
  let path = NSTemporaryDirectory() + "signing-test-\(UUID().uuidString)"
  try FileManager.default.createDirectory(atPath: path, withIntermediateDirectories: true)
  return path
}

@Suite struct SigningTests {
  /// A value that could not be signed is handed over unsigned: its payload readable, its
  /// signature never valid, never an empty string.
  @Test func anUnsignedValueKeepsItsPayloadAndNeverVerifies() throws {
    let signer = Signer(identity: try SigningIdentity.makeSelfSigned(), environment: .xcode)
    let payload = signer.appTransactionPayload(signedDate: Instant(milliseconds: 1_000))
    let jws = signer.unsigned(payload: payload)
    #expect(jws.split(separator: ".", omittingEmptySubsequences: false).count == 3)
    let decoded = try JWS.decode(jws)
    #expect(decoded.payload == payload)
    #expect(!decoded.signatureIsValid)
    #expect(try JWS.decode(try signer.sign(payload: payload)).signatureIsValid)
  }

  @Test func aSignedTransactionVerifiesAndATamperedOneDoesNot() throws {
    let signer = Signer(identity: try SigningIdentity.makeSelfSigned(), environment: .xcode)
    var session = Session(configuration: foodTruck(), start: start)
    var events: [StoreEvent] = []
    try session.buy("socialfeed.monthly") { events.append($0) }
    let transaction = try #require(session.transaction(0))
    let jws = try signer.sign(transaction, signedDate: start)
    let decoded = try JWS.decode(jws)
    #expect(decoded.signatureIsValid)
    #expect(
      decoded.certificateSubjects == ["O=StoreKit Testing in Xcode,CN=StoreKit Testing in Xcode"])
    guard case .object(let header) = decoded.header else { return }
    #expect(header["alg"] == .string("ES256"))
    #expect(header["kid"] == .string("Apple_Xcode_Key"))
    #expect(header["typ"] == .string("JWT"))
    let parts = jws.split(separator: ".")
    #expect(JWS.fromBase64URL(parts[2])?.count == 64)
    var payload = String(decoding: JWS.fromBase64URL(parts[1])!, as: UTF8.self)
    payload = payload.replacingOccurrences(of: "\"price\":990", with: "\"price\":1")
    let tampered = "\(parts[0]).\(JWS.base64URL(Array(payload.utf8))).\(parts[2])"
    #expect(try JWS.decode(tampered).signatureIsValid == false)
  }

  @Test func transactionPayloadsUseApplesKeysAndEncodings() throws {
    let signer = Signer(
      identity: try SigningIdentity.makeSelfSigned(), environment: .localTesting,
      bundleID: "com.example.food")
    var session = Session(configuration: foodTruck(), start: start)
    try session.buy("socialfeed.monthly") { _ in }
    try session.refund(0, reason: .developerIssue) { _ in }
    let payload = signer.transactionPayload(try #require(session.transaction(0)), signedDate: start)
    guard case .object(let object) = payload else { return }
    #expect(object["transactionId"] == .string("0"))
    #expect(object["originalTransactionId"] == .string("0"))
    #expect(object["bundleId"] == .string("com.example.food"))
    #expect(object["productId"] == .string("socialfeed.monthly"))
    #expect(object["subscriptionGroupIdentifier"] == .string("5F0CA1F0"))
    #expect(object["purchaseDate"] == .number(JSONNumber(text: "1795312800000")))
    #expect(object["expiresDate"] == .number(JSONNumber(text: "1795312830000")))
    #expect(object["type"] == .string("Auto-Renewable Subscription"))
    #expect(object["inAppOwnershipType"] == .string("PURCHASED"))
    #expect(object["price"] == .number(JSONNumber(text: "990")))
    #expect(object["currency"] == .string("USD"))
    #expect(object["storefront"] == .string("USA"))
    #expect(object["storefrontId"] == .string("143441"))
    #expect(object["transactionReason"] == .string("PURCHASE"))
    #expect(object["environment"] == .string("LocalTesting"))
    #expect(object["offerType"] == .number(JSONNumber(1)))
    #expect(object["offerDiscountType"] == .string("PAY_AS_YOU_GO"))
    #expect(object["offerPeriod"] == .string("P3M"))
    #expect(object["revocationReason"] == .number(JSONNumber(1)))
    #expect(object["revocationDate"] == .number(JSONNumber(text: "1795312800000")))
  }

  /// The device's JWS carries device verification; Apple's server payloads (notifications,
  /// the App Store Server API) never do, nor does a server's app transaction carry requestDate.
  @Test func onlyTheDevicesPayloadsCarryDeviceFields() throws {
    let signer = Signer(identity: try SigningIdentity.makeSelfSigned(), environment: .xcode)
    var session = Session(configuration: foodTruck(), start: start)
    try session.buy("socialfeed.monthly") { _ in }
    let transaction = try #require(session.transaction(0))
    func keys(_ jws: String) throws -> Set<String> {
      guard case .object(let payload) = try JWS.decode(jws).payload else { return [] }
      return Set(payload.keys)
    }
    let device = try keys(signer.sign(transaction, signedDate: start))
    let server = try keys(signer.sign(transaction, signedDate: start, for: .server))
    #expect(device.isSuperset(of: ["deviceVerification", "deviceVerificationNonce"]))
    #expect(server.isDisjoint(with: ["deviceVerification", "deviceVerificationNonce"]))
    #expect(device.subtracting(server) == ["deviceVerification", "deviceVerificationNonce"])
    let app = try keys(signer.signAppTransaction(signedDate: start))
    let serverApp = try keys(signer.signAppTransaction(signedDate: start, for: .server))
    #expect(app.isSuperset(of: ["requestDate", "deviceVerification", "deviceVerificationNonce"]))
    #expect(
      serverApp.isDisjoint(with: ["requestDate", "deviceVerification", "deviceVerificationNonce"]))
    // Renewal info: the device's JWS carries them as Xcode's does, a server's does not.
    let status = try #require(session.subscriptionStatuses().first)
    let renewal = try keys(signer.sign(status, signedDate: start))
    let serverRenewal = try keys(signer.sign(status, signedDate: start, for: .server))
    let deviceOnly = renewal.subtracting(serverRenewal)
    #expect(deviceOnly == ["deviceVerification", "deviceVerificationNonce"])
  }

  @Test func renewalPayloadsCarryIntentsAndRetryState() throws {
    let signer = Signer(identity: try SigningIdentity.makeSelfSigned(), environment: .xcode)
    var session = Session(configuration: foodTruck(), start: start)
    session.updateSettings {
      $0.shouldEnterBillingRetryOnRenewal = true
      $0.billingGracePeriodIsEnabled = true
    }
    try session.buy("socialfeed.premium.monthly") { _ in }
    try session.advanceToNextEvent { _ in }
    let status = try #require(session.status(forGroup: "5F0CA1F0"))
    guard case .object(let object) = signer.renewalPayload(status, signedDate: start) else {
      return
    }
    #expect(object["expirationIntent"] == .number(JSONNumber(2)))
    #expect(object["isInBillingRetryPeriod"] == .bool(true))
    #expect(object["gracePeriodExpiresDate"] == .number(JSONNumber(text: "1795312845000")))
    #expect(object["autoRenewStatus"] == .number(JSONNumber(1)))
    #expect(object["autoRenewProductId"] == .string("socialfeed.premium.monthly"))
  }

  @Test func keysAreMadeOnceAndKeptPrivate() throws {
    let folder = try temporaryFolder()
    defer { try? FileManager.default.removeItem(atPath: folder) }
    let first = try SigningIdentity.load(in: folder, chain: false)
    let second = try SigningIdentity.load(in: folder, chain: false)
    #expect(first.chainPEM == second.chainPEM)
    #expect(first.signingKey.rawRepresentation == second.signingKey.rawRepresentation)
    let mode =
      try FileManager.default.attributesOfItem(atPath: folder + "/xcode-key.pem")[.posixPermissions]
      as? Int
    #expect(mode == 0o600)
    let certificate = try Certificate(pemEncoded: first.chainPEM[0])
    #expect(certificate.notValidBefore <= Date(timeIntervalSince1970: 946_684_800))
    #expect(certificate.notValidAfter >= Date(timeIntervalSince1970: 4_102_444_800))
  }

  @Test func theChainCarriesApplesMarkerExtensions() throws {
    let identity = try SigningIdentity.makeChain()
    #expect(identity.chain.count == 3)
    let certificates = try identity.chainPEM.map { try Certificate(pemEncoded: $0) }
    #expect(certificates[0].extensions[oid: SigningIdentity.leafMarker] != nil)
    #expect(certificates[1].extensions[oid: SigningIdentity.intermediateMarker] != nil)
    #expect(certificates[0].issuer == certificates[1].subject)
    #expect(certificates[1].issuer == certificates[2].subject)
    #expect(certificates[2].issuer == certificates[2].subject)
    let signer = Signer(identity: identity, environment: .sandbox)
    let jws = try signer.signAppTransaction(signedDate: start)
    #expect(try JWS.decode(jws).signatureIsValid)
  }

  @Test func stableUUIDsLookLikeVersion4() {
    let uuid = stableUUID("x")
    #expect(uuid == stableUUID("x"))
    #expect(uuid != stableUUID("y"))
    #expect(uuid.count == 36)
    #expect(Array(uuid)[14] == "4")
  }
}

@Suite struct Base64URLTests {
  @Test func encodesWithoutPaddingAndRoundTrips() {
    #expect(JWS.base64URL(Array("f".utf8)) == "Zg")
    #expect(JWS.base64URL(Array("fo".utf8)) == "Zm8")
    #expect(JWS.base64URL(Array("foo".utf8)) == "Zm9v")
    #expect(JWS.base64URL([0xFB, 0xFF, 0xBF]) == "-_-_")
    for length in 0..<40 {
      let bytes = (0..<length).map { UInt8(truncatingIfNeeded: $0 &* 97 &+ 13) }
      let expected = Data(bytes).base64EncodedString().replacingOccurrences(of: "+", with: "-")
        .replacingOccurrences(of: "/", with: "_").replacingOccurrences(of: "=", with: "")
      #expect(JWS.base64URL(bytes) == expected)
      #expect(JWS.fromBase64URL(Substring(expected)) == bytes)
    }
  }

  /// Three bytes are encoded as two 12-bit lookups: every 12-bit value, at each length's tail.
  @Test func everyTwelveBitValueEncodesAsFoundationDoes() {
    var bytes: [UInt8] = []
    for value in 0..<4096 {
      // Each value once as the first 12 bits of a triple, once as the last.
      bytes += [
        UInt8(value >> 4), UInt8(value & 0xF) << 4 | UInt8(value >> 8), UInt8(value & 0xFF),
      ]
    }
    for cut in 0..<3 {
      let slice = Array(bytes.dropLast(cut))
      let expected = Data(slice).base64EncodedString().replacingOccurrences(of: "+", with: "-")
        .replacingOccurrences(of: "/", with: "_").replacingOccurrences(of: "=", with: "")
      #expect(JWS.base64URL(slice) == expected)
    }
  }
}
