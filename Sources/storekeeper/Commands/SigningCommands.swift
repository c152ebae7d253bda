import ArgumentParser
import Foundation
import StoreCommands
import StoreDelivery
import StoreJSON
import StoreSigning
import StoreSimulation
import StoreUtilities

/// `storekeeper certificate`: the signing certificate, for a server to pin or trust.
struct CertificateCommand: ParsableCommand {
  static let configuration = CommandConfiguration(
    commandName: "certificate",
    abstract: "Print the certificate Storekeeper signs with (PEM).",
    discussion: """
      Without options: the self-signed certificate of the Xcode-style signatures (x5c[0] of every \
      JWS). --root: the local root of the --chain signatures, for a server that verifies in \
      Sandbox mode (Apple's App Store Server Library: SignedDataVerifier with this root).
      """)

  @Flag(help: "Print the local root certificate of the three-certificate chain.")
  var root = false

  @Flag(help: "Print the whole chain (leaf, intermediate, root).")
  var chain = false

  @Flag(help: "Write the certificate as DER bytes instead of PEM (with --root or alone).")
  var der = false

  func validate() throws {
    if der && chain {
      throw ValidationError("--der writes one certificate; use it without --chain.")
    }
  }

  func run() throws {
    let identity: SigningIdentity
    do {
      identity = try SigningIdentity.load(in: try SigningOptions.keyFolder(), chain: root || chain)
    } catch {
      printError("storekeeper: cannot prepare the signing keys: \(error)")
      throw ExitCode(1)
    }
    if der {
      try StandardStreams.writeOut(root ? identity.chain.last ?? [] : identity.chain[0])
      return
    }
    try StandardStreams.printOut(
      root ? identity.rootPEM : identity.chainPEM.joined(separator: "\n"))
  }
}

/// `storekeeper decode JWS|-`: any compact JWS as JSON, with its signature checked.
struct Decode: ParsableCommand {
  static let configuration = CommandConfiguration(
    abstract: "Decode a compact JWS or an app receipt (ours or Apple's) and check its signature.",
    discussion: """
      A JWS is checked against x5c[0]. A receipt (PKCS#7, base64 or DER) prints every field \
      with Apple's names (in_app: quantity 1701, product_id 1702, transaction_id 1703 … \
      promotional_offer_id 1721) and is checked against its own signing certificate; \
      --device-id checks its SHA-1 hash. Whether that certificate is to be trusted is \
      openssl's to say: openssl cms -verify -inform DER -CAfile <(storekeeper certificate).
      """)

  @Argument(help: "The JWS or base64 receipt, or - to read either (or a DER receipt) from stdin.")
  var jws: String

  @Option(
    help: ArgumentHelp(
      "For a receipt: check its SHA-1 hash with this device identifier.", valueName: "uuid"))
  var deviceId: String?

  func run() throws {
    var bytes = Array(jws.utf8)
    if jws == "-" { bytes = Array(FileHandle.standardInput.readDataToEndOfFile()) }
    let text = String(decoding: bytes, as: UTF8.self)
    let trimmed = text.trimmingCharacters(in: .whitespacesAndNewlines)
    // A receipt is DER (a SEQUENCE) or its base64; a JWS starts with a base64url `{"`.
    if bytes.first == 0x30 || !(trimmed.hasPrefix("eyJ") || trimmed.contains("signedPayload")) {
      try decodeReceipt(bytes)
      return
    }
    let decoded: JWS.Decoded
    do {
      decoded = try JWS.decode(jwsOrNotificationBody: text)
    } catch {
      printError("storekeeper: \(error)")
      throw ExitCode(1)
    }
    let result = JSONValue.object(
      JSONObject([
        JSONMember("header", decoded.header),
        JSONMember("payload", decoded.payload),
        JSONMember("signature", .string(decoded.signatureIsValid ? "valid" : "invalid")),
        JSONMember("certificates", .array(decoded.certificateSubjects.map { .string($0) })),
      ]))
    try StandardStreams.printOut(
      String(
        decoding: JSONWriter.xcodeFormatted(JSONDocument(root: result, trailingWhitespace: "")),
        as: UTF8.self))
    printError(
      decoded.signatureIsValid ? "signature: valid (checked with x5c[0])" : "signature: INVALID")
    if !decoded.signatureIsValid { throw ExitCode(1) }
  }

  private func decodeReceipt(_ bytes: [UInt8]) throws {
    let decoded: Receipt.Decoded
    do throws(SigningError) {
      decoded = try Receipt.decode(bytes, deviceID: deviceId)
    } catch {
      printError("storekeeper: \(error)".sanitizedForTerminal)
      throw ExitCode(1)
    }
    var members = [
      JSONMember("receipt", decoded.fields),
      JSONMember("signature", .string(decoded.signatureIsValid ? "valid" : "invalid")),
      JSONMember("certificates", .array(decoded.certificateSubjects.map { .string($0) })),
    ]
    let types = decoded.fieldTypes.sorted { $0.value < $1.value }.map {
      JSONMember($0.key, .number(JSONNumber(text: String($0.value))))
    }
    members.append(JSONMember("fieldTypes", .object(JSONObject(types))))
    if let matches = decoded.hashMatches {
      members.append(JSONMember("sha1_hash", .string(matches ? "matches" : "does not match")))
    }
    try StandardStreams.printOut(
      String(
        decoding: JSONWriter.xcodeFormatted(
          JSONDocument(root: .object(JSONObject(members)), trailingWhitespace: "")),
        as: UTF8.self))
    printError(
      decoded.signatureIsValid
        ? "signature: valid (checked with the receipt's signing certificate)"
        : "signature: INVALID")
    if decoded.hashMatches == false {
      printError("sha1_hash: does not match --device-id \(deviceId ?? "")".sanitizedForTerminal)
    }
    if !decoded.signatureIsValid || decoded.hashMatches == false { throw ExitCode(1) }
  }
}

/// `storekeeper app-transaction`: the app transaction's JWS.
struct AppTransactionCommand: ParsableCommand {
  static let configuration = CommandConfiguration(
    commandName: "app-transaction",
    abstract: "Print a signed app transaction (AppTransaction.shared).")

  @OptionGroup var signing: SigningOptions

  func run() throws {
    try StandardStreams.printOut(
      try signing.makeSigner().signAppTransaction(signedDate: wallClock))
  }
}

/// `storekeeper notify test`: a TEST notification.
struct Notify: ParsableCommand {
  static let configuration = CommandConfiguration(
    abstract: "Send server notifications.", subcommands: [NotifyTest.self])
}

struct NotifyTest: ParsableCommand {
  static let configuration = CommandConfiguration(
    commandName: "test",
    abstract: "Send a TEST notification to --notify-url and/or --notifications.")

  @OptionGroup var signing: SigningOptions

  func validate() throws {
    if signing.notifications == nil && signing.notifyUrl == nil {
      throw ValidationError("Give --notify-url URL and/or --notifications DIR.")
    }
  }

  func run() throws {
    let signer = try signing.makeSigner()
    guard let outbox = try signing.outbox(whenFull: .wait) else { return }
    let now = wallClock
    let notification = ServerNotification.test(
      at: now,
      uuid: nameBasedUUID(signer.notificationNamespace(session: "test") + "|\(now.milliseconds)"))
    let signed = try signer.signedPayload(notification)
    var failed = false
    let added = outbox.add(notification, signedPayload: signed, now: now)
    if let file = added.file { try StandardStreams.printOut("wrote \(file)".sanitizedForTerminal) }
    if let error = added.error {
      printError("storekeeper: \(error)".sanitizedForTerminal)
      failed = true
    }
    outbox.drain()
    for line in outbox.takeLines() {
      try StandardStreams.printOut(line.text.sanitizedForTerminal)
    }
    if !outbox.undelivered.isEmpty { failed = true }
    if failed { throw ExitCode(1) }
  }
}
