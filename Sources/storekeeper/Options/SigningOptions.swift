import ArgumentParser
import Foundation
import StoreCommands
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
  /// folder) is told with exit status 1. `whenFull`: a script waits when it is full, a server
  /// while the backend keeps answering, a front end that must not block drops the oldest.
  ///
  /// - Parameters:
  ///   - layout: a file per notification, or one JSON-lines file (a population's).
  ///   - keepsHistory: `false` when nothing asks for the notifications again (a population).
  func outbox(
    whenFull: NotificationOutbox.WhenFull, layout: NotificationOutbox.FileLayout = .numbered,
    keepsHistory: Bool = true
  ) throws -> NotificationOutbox? {
    guard notifications != nil || notifyUrl != nil else { return nil }
    do throws(DeliveryError) {
      return try NotificationOutbox(
        url: notifyUrl, directory: notifications, policy: RetryPolicy(notifyRetries) ?? .apple,
        whenFull: whenFull, trusting: notifyCa, layout: layout, keepsHistory: keepsHistory)
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
    try exiting { () throws(CommandError) in
      try JournalLocation.folder() + "/signing"
    }
  }

  /// The signer, with keys made once and reused.
  /// Makes `host`'s `retention show` call the real-time URL, signing with `signer` (made when
  /// first needed) and trusting `--notify-ca`.
  func attachRetention(to host: CommandHost, signer: OnDemand<Signer>) throws {
    host.retentionCaller = try retentionCaller(signer: signer)
  }

  /// The caller of the real-time URL, signing with `signer` and trusting `--notify-ca`.
  ///
  /// - Throws: ``DeliveryError`` naming `--notify-ca`'s file when it holds no certificate.
  func retentionCaller(signer: OnDemand<Signer>) throws -> RealtimeRetention {
    try RealtimeRetention(signer: signer, bundleID: journaledBundleID, trusting: notifyCa)
  }

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
  /// - Parameters:
  ///   - delivers: `false` when something else delivers the notifications (the inspector's
  ///     `--serve`).
  ///   - layout, keepsHistory: as ``outbox(whenFull:layout:keepsHistory:)`` takes them.
  func prepare(
    whenFull: NotificationOutbox.WhenFull = .wait, delivers: Bool = true,
    layout: NotificationOutbox.FileLayout = .numbered, keepsHistory: Bool = true
  ) throws -> PreparedSigning {
    guard needsSigner else {
      return PreparedSigning(signer: nil, outbox: nil, signsEvents: false)
    }
    let outbox =
      delivers
      ? try outbox(whenFull: whenFull, layout: layout, keepsHistory: keepsHistory) : nil
    return PreparedSigning(signer: try makeSigner(), outbox: outbox, signsEvents: sign || chain)
  }
}
