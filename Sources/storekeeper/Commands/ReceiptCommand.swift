import ArgumentParser
import Foundation
import StoreCommands
import StoreSigning
import StoreSimulation
import StoreUtilities

/// `storekeeper receipt`: the session's app receipt, signed as the local test environment signs
/// it.
struct ReceiptCommand: ParsableCommand {
  static let configuration = CommandConfiguration(
    commandName: "receipt",
    abstract: "Write the session's app receipt (PKCS#7, Apple's receipt ASN.1), signed.",
    discussion: """
      The receipt lists what Apple's receipts list at that moment: consumables until they are \
      finished, every non-consumable and subscription transaction (refunded ones with their \
      cancellation date). It is signed by the certificate storekeeper certificate prints (with \
      --chain, by a leaf under storekeeper certificate --root), so that \
      openssl cms -verify -inform DER -CAfile <that certificate> checks it. Its SHA-1 hash is \
      computed with --device-id (default: one derived from the bundle id, told on standard \
      error). The session is read, not changed.
      """)

  @Argument(help: "The .storekit configuration.", completion: .file(extensions: ["storekit"]))
  var configurationPath = "Configs/FoodTruck.storekit"

  @Option(help: "The journal to read; default: the configuration's own.")
  var journal: String?

  @Option(
    help:
      "The moment (ISO-8601): any of the session's history (the journal replayed to it) or later; default: the session's last instant."
  )
  var at: String?

  @OptionGroup var device: DeviceOptions

  @Flag(help: "Write DER (default: base64 and a newline).")
  var der = false

  @Flag(help: "Write base64 (the default).")
  var base64 = false

  @OptionGroup var signing: SigningOptions

  func validate() throws {
    if der && base64 { throw ValidationError("Give --der or --base64, not both.") }
    if let at, Instant(iso8601: at) == nil {
      throw ValidationError(
        "--at must be ISO-8601, such as 2026-11-22T02:00:00Z (got \"\(at)\").")
    }
  }

  func run() throws {
    let path = try journalToRead(journal, for: configurationPath)
    // Read, never opened for writing: no lock taken, nothing appended or set aside.
    let report = { (text: String) in printError("storekeeper: \(text)".sanitizedForTerminal) }
    let read = try exiting { () throws(CommandError) in
      try Journal.read(at: path, report: report)
    }
    let at = at.flatMap(Instant.init(iso8601:))
    var session: Session
    if let read {
      session = try exiting { () throws(CommandError) in
        var journaled = try JournaledSession(replaying: read)
        // A moment of the session's history: the journal replayed to it.
        if let at, at < journaled.session.now { return try journaled.session(at: at) }
        return journaled.session
      }
    } else if journal != nil {
      printError("storekeeper: no journal at \(path)".sanitizedForTerminal)
      throw ExitCode(1)
    } else {
      let (configuration, _) = try loadConfiguration(configurationPath)
      session = Session(configuration: configuration, start: at ?? wallClock)
    }
    if let at, at > session.now {
      try exiting { () throws(CommandError) in
        do throws(SessionError) {
          try session.advance(to: at) { _ in }
        } catch {
          throw CommandError(error)
        }
      }
    }
    let view = session.view(of: try device.account(in: session, journal: path))
    let signer = try signing.makeSigner()
    let receipt: [UInt8]
    do {
      receipt = try signer.receipt(view.receiptContents())
    } catch {
      printError("storekeeper: cannot sign the receipt: \(error)")
      throw ExitCode(1)
    }
    if signing.deviceId == nil {
      printError("storekeeper: SHA-1 hash computed with device identifier \(signer.deviceID)")
    }
    if der {
      try StandardStreams.writeOut(receipt)
    } else {
      try StandardStreams.printOut(Data(receipt).base64EncodedString())
    }
  }
}
