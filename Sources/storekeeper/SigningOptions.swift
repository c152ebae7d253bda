import ArgumentParser
import Foundation
import StoreCommands
import StoreConfiguration
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

  @Option(help: "POST each App Store Server Notification V2 to this http:// URL.")
  var notifyUrl: String?

  /// Whether anything needs a signer.
  var needsSigner: Bool { sign || chain || notifications != nil || notifyUrl != nil }

  /// The folder holding the signing keys: `$XDG_STATE_HOME/storekeeper/signing`.
  static func keyFolder() throws -> String {
    do throws(CommandError) {
      return try JournalLocation.folder() + "/signing"
    } catch {
      printError("storekeeper: \(error)".sanitizedForTerminal)
      throw ExitCode(1)
    }
  }

  /// The signer, with keys made once and reused.
  func makeSigner() throws -> Signer {
    do {
      let identity = try SigningIdentity.load(in: try Self.keyFolder(), chain: chain)
      let environment: Signer.Environment =
        chain ? .sandbox : (self.environment == .xcode ? .xcode : .localTesting)
      return Signer(identity: identity, environment: environment, bundleID: bundleId)
    } catch let error as ExitCode {
      throw error
    } catch {
      printError("storekeeper: cannot prepare the signing keys: \(error)")
      throw ExitCode(1)
    }
  }

  /// The notification pipeline, when notifications were asked for.
  func makeNotifications(signer: Signer?, session: Session) throws -> NotificationPipeline? {
    guard notifications != nil || notifyUrl != nil, let signer else { return nil }
    do {
      let delivery = try NotificationDelivery(directory: notifications, url: notifyUrl)
      return NotificationPipeline(
        signer: signer, delivery: delivery, mapper: NotificationMapper(session: session))
    } catch {
      printError("storekeeper: \(error)")
      throw ExitCode(64)
    }
  }
}

/// Events in, signed notifications out (to files and the webhook), lines for the event stream.
final class NotificationPipeline: @unchecked Sendable {
  let signer: Signer
  let delivery: NotificationDelivery
  var mapper: NotificationMapper

  init(signer: Signer, delivery: NotificationDelivery, mapper: NotificationMapper) {
    self.signer = signer
    self.delivery = delivery
    self.mapper = mapper
  }

  /// Maps, signs and delivers the notifications of `events`; returns their `notification`
  /// event lines (and lines for problems).
  func process(
    _ events: [StoreEvent], session: Session
  ) -> [(time: Instant, type: String, subtype: String?, uuid: String, file: String?)] {
    var lines: [(Instant, String, String?, String, String?)] = []
    for notification in mapper.notifications(for: events, in: session) {
      guard let body = try? signer.signedBody(notification, session: session) else { continue }
      let file = delivery.deliver(name: notification.name, body: body)
      lines.append(
        (notification.time, notification.type, notification.subtype, notification.uuid, file))
    }
    return lines
  }
}

/// `storekeeper certificate`: the signing certificate, for a server to pin or trust.
struct CertificateCommand: ParsableCommand {
  static let configuration = CommandConfiguration(
    commandName: "certificate",
    abstract: "Print the certificate Storekeeper signs with (PEM).",
    discussion: """
      Without options: the self-signed certificate of the Xcode-style signatures (x5c[0] of every
      JWS). --root: the local root of the --chain signatures, for a server that verifies in
      Sandbox mode (Apple's App Store Server Library: SignedDataVerifier with this root).
      """)

  @Flag(help: "Print the local root certificate of the three-certificate chain.")
  var root = false

  @Flag(help: "Print the whole chain (leaf, intermediate, root).")
  var chain = false

  func run() throws {
    let identity: SigningIdentity
    do {
      identity = try SigningIdentity.load(in: try SigningOptions.keyFolder(), chain: root || chain)
    } catch {
      printError("storekeeper: cannot prepare the signing keys: \(error)")
      throw ExitCode(1)
    }
    let text = root ? identity.rootPEM : identity.chainPEM.joined(separator: "\n")
    print(text)
  }
}

/// `storekeeper decode JWS|-`: any compact JWS as JSON, with its signature checked.
struct Decode: ParsableCommand {
  static let configuration = CommandConfiguration(
    abstract: "Decode a compact JWS (ours or Apple's) and check its signature against x5c[0].")

  @Argument(help: "The JWS, or - to read it from standard input.")
  var jws: String

  func run() throws {
    var text = jws
    if jws == "-" {
      text = String(decoding: FileHandle.standardInput.readDataToEndOfFile(), as: UTF8.self)
    }
    // A notification body {"signedPayload": "…"} is accepted too.
    if let parsed = try? JSONParser.parse(Array(text.utf8)).root, case .object(let object) = parsed,
      case .string(let inner)? = object["signedPayload"]
    {
      text = inner
    }
    let decoded: JWS.Decoded
    do {
      decoded = try JWS.decode(text)
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
    print(
      String(
        decoding: JSONWriter.xcodeFormatted(JSONDocument(root: result, trailingWhitespace: "")),
        as: UTF8.self))
    printError(
      decoded.signatureIsValid ? "signature: valid (checked with x5c[0])" : "signature: INVALID")
    if !decoded.signatureIsValid { throw ExitCode(1) }
  }
}

/// `storekeeper app-transaction`: the app transaction's JWS.
struct AppTransactionCommand: ParsableCommand {
  static let configuration = CommandConfiguration(
    commandName: "app-transaction",
    abstract: "Print a signed app transaction (AppTransaction.shared).")

  @OptionGroup var signing: SigningOptions

  func run() throws {
    print(try signing.makeSigner().signAppTransaction(signedDate: SessionOpening.wallClock))
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
    let delivery: NotificationDelivery
    do {
      delivery = try NotificationDelivery(directory: signing.notifications, url: signing.notifyUrl)
    } catch {
      printError("storekeeper: \(error)")
      throw ExitCode(64)
    }
    let body = try signer.testBody(at: SessionOpening.wallClock)
    if let file = delivery.deliver(name: "TEST", body: body) { print("wrote \(file)") }
    delivery.waitUntilIdle(timeout: 20)
    var failed = false
    for line in delivery.takeResults() {
      print(line)
      failed = failed || !line.contains("→ 2")
    }
    if failed { throw ExitCode(1) }
  }
}
