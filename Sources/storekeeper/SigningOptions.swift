import ArgumentParser
import Foundation
import StoreCommands
import StoreConfiguration
import StoreDelivery
import StoreSigning
import StoreSimulation

/// The options shared by the commands that sign or send server notifications.
struct SigningOptions: ParsableArguments {
  enum EnvironmentChoice: String, ExpressibleByArgument, CaseIterable {
    case xcode = "Xcode"
    case localTesting = "LocalTesting"
  }

  @Flag(help: "Add jwsRepresentation (a signed JWS) to every transaction and renewal info.")
  var sign = false

  @Flag(help: "Sign with a three-certificate chain from a local root, environment Sandbox.")
  var chain = false

  @Option(help: "The payloads' environment: Xcode or LocalTesting (ignored with --chain).")
  var environment: EnvironmentChoice = .xcode

  @Option(help: "The app's bundle id in signed payloads.")
  var bundleId = Signer.defaultBundleID

  @Option(help: "Write each App Store Server Notification V2 as a file in this folder.")
  var notifications: String?

  @Option(help: "POST each App Store Server Notification V2 to this http(s):// URL.")
  var notifyUrl: String?

  @Option(
    help: ArgumentHelp(
      "Trust the CA certificates in this PEM file (besides the system's) for an https "
        + "--notify-url.", valueName: "file.pem"))
  var notifyCa: String?

  @Option(
    help: ArgumentHelp(
      "The device identifier receipts' SHA-1 hash is computed with; default: one derived from "
        + "the bundle id.", valueName: "uuid"))
  var deviceId: String?

  @Option(
    help: ArgumentHelp(
      "When a failed notification is POSTed again, in simulated time: apple (1, 12, 24, 48 and "
        + "72 hours later), none, or waits such as 10s,1m,1h.", valueName: "policy"))
  var notifyRetries = "apple"

  func validate() throws {
    if let deviceId {
      do throws(SigningError) {
        _ = try Receipt.deviceBytes(deviceId)
      } catch {
        throw ValidationError(error.description)
      }
    }
    if let notifyUrl {
      do throws(DeliveryError) {
        _ = try WebhookURL(notifyUrl)
      } catch {
        throw ValidationError(error.description)
      }
    }
    if RetryPolicy(notifyRetries) == nil {
      throw ValidationError(
        "--notify-retries must be apple, none, or waits such as 10s,1m,1h (got \"\(notifyRetries)\")."
      )
    }
  }

  /// The outbox notifications go through, when they go anywhere; a problem (URL, CA file,
  /// folder) is told with exit status 1. A script waits when it is full; a front end that must
  /// not block drops the oldest.
  func outbox(interactive: Bool) throws -> NotificationOutbox? {
    guard notifications != nil || notifyUrl != nil else { return nil }
    do throws(DeliveryError) {
      return try NotificationOutbox(
        url: notifyUrl, directory: notifications, policy: RetryPolicy(notifyRetries) ?? .apple,
        whenFull: interactive ? .dropOldest : .wait, trusting: notifyCa)
    } catch {
      printError("storekeeper: \(error)".sanitizedForTerminal)
      throw ExitCode(1)
    }
  }

  /// The bundle id signed purchases are journaled with (`nil`: the default's).
  var journaledBundleID: String? { bundleId == Signer.defaultBundleID ? nil : bundleId }

  /// Whether anything needs a signer.
  var needsSigner: Bool { sign || chain || notifications != nil || notifyUrl != nil }

  /// The folder holding the signing keys: `$XDG_STATE_HOME/storekeeper/signing`.
  static func keyFolder() throws -> String {
    try SessionOpening.exitingOnError { () throws(CommandError) in
      try JournalLocation.folder() + "/signing"
    }
  }

  /// The signer, with keys made once and reused.
  func makeSigner() throws -> Signer {
    do {
      let identity = try SigningIdentity.load(in: try Self.keyFolder(), chain: chain)
      let environment: Signer.Environment =
        chain ? .sandbox : (self.environment == .xcode ? .xcode : .localTesting)
      var signer = Signer(identity: identity, environment: environment, bundleID: bundleId)
      if let deviceId { signer.deviceID = deviceId.uppercased() }
      return signer
    } catch let error as ExitCode {
      throw error
    } catch {
      printError("storekeeper: cannot prepare the signing keys: \(error)")
      throw ExitCode(1)
    }
  }

  /// The signer and the outbox these options ask for, made before any session so that a
  /// problem (keys, URL) is reported while the terminal is still plain.
  ///
  /// - Parameter delivers: `false` when something else delivers the notifications (the
  ///   inspector's `--serve`).
  func prepare(interactive: Bool = false, delivers: Bool = true) throws -> PreparedSigning {
    guard needsSigner else {
      return PreparedSigning(signer: nil, outbox: nil, signsEvents: false)
    }
    return PreparedSigning(
      signer: try makeSigner(), outbox: delivers ? try outbox(interactive: interactive) : nil,
      signsEvents: sign || chain)
  }
}

/// What `SigningOptions` prepared: a signer when anything is signed, an outbox when
/// notifications were asked for.
struct PreparedSigning {
  let signer: Signer?
  let outbox: NotificationOutbox?
  /// Whether transactions and renewal infos carry `jwsRepresentation` (--sign, --chain).
  let signsEvents: Bool

  /// The signer of `jwsRepresentation`s, if they are wanted.
  var eventSigner: Signer? { signsEvents ? signer : nil }

  /// The sender of the session's notifications, from its state on.
  func sender(_ journaled: JournaledSession) -> NotificationSender? {
    guard let signer, let outbox else { return nil }
    return NotificationSender(
      signer: signer, outbox: outbox, session: journaled.session, identity: journaled.identity)
  }

  /// The environment transactions report in the event stream: the signer's, else StoreKit's.
  var environment: String { signer?.environment.rawValue ?? "Xcode" }

  /// The events' encoder: with `jwsRepresentation` when signing, and `receipt` events signed
  /// by `receipts` (made when the first is needed).
  func encoder(receipts: OnDemand<Signer>?) -> EventEncoder {
    let receiptFields: EventEncoder.ReceiptDecoration = { contents in
      (try? receipts?.value)?.receiptFields(contents) ?? []
    }
    guard let signer = eventSigner else {
      return EventEncoder(environment: environment, receipts: receiptFields)
    }
    let decorate: EventEncoder.Decoration = { decorated, time in
      let jws: String? =
        switch decorated {
        case .transaction(let transaction): try? signer.sign(transaction, signedDate: time)
        case .renewalInfo(let status): try? signer.sign(status, signedDate: time)
        }
      return jws.map { [("jwsRepresentation", $0)] } ?? []
    }
    return EventEncoder(environment: environment, decorate: decorate, receipts: receiptFields)
  }
}

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
      try signing.makeSigner().signAppTransaction(signedDate: SessionOpening.wallClock))
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
    guard let outbox = try signing.outbox(interactive: false) else { return }
    let now = SessionOpening.wallClock
    let notification = ServerNotification.test(
      at: now,
      uuid: nameBasedUUID(signer.notificationNamespace(session: "test") + "|\(now.milliseconds)"))
    let signed = try signer.signedNotification(notification)
    var failed = false
    let added = outbox.add(
      notification, body: signed.body, signedPayload: signed.payload, now: now)
    if let file = added.file { try StandardStreams.printOut("wrote \(file)".sanitizedForTerminal) }
    if let error = added.error {
      printError("storekeeper: \(error)".sanitizedForTerminal)
      failed = true
    }
    outbox.drain()
    for line in outbox.takeLines() {
      try StandardStreams.printOut(line.text.sanitizedForTerminal)
    }
    if outbox.posts && !outbox.history.allSatisfy(\.isDelivered) { failed = true }
    if failed { throw ExitCode(1) }
  }
}
