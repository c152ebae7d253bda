import ArgumentParser
import Foundation
import StoreCommands
import StoreConfiguration
import StoreSigning
import StoreSimulation

/// `storekeeper run CONFIG [SCRIPT|-]`: applies a script and prints the events as JSON lines.
struct Run: ParsableCommand {
  static let configuration = CommandConfiguration(
    abstract: "Apply a script of commands to a session and print its events as JSON lines.",
    discussion: """
      Each line of the script is a command (buy, advance, refund …; see the README). Events go to \
      stdout as JSON lines; messages for people go to stderr. The first command that cannot be \
      applied stops the run with exit status 1, after printing its error event.

      With --notifications DIR and/or --notify-url URL, every App Store Server Notification V2 \
      the session causes is signed and written as a file and/or POSTed (in order, retried with \
      backoff); the run waits for the POSTs and exits with status 1 if one could not be delivered.

      The commands:
      """ + Verb.all.map { "\n  \($0.synopsis)\n      \($0.summary)" }.joined()
  )

  @Argument(help: "The .storekit configuration.", completion: .file(extensions: ["storekit"]))
  var configurationPath: String

  @Argument(help: "The script to apply, or - for standard input.")
  var script: String = "-"

  @Option(help: "Apply to this journal (created when missing); accepted commands are appended.")
  var journal: String?

  @Flag(help: "With --journal: move the existing journal aside (it is kept) and start a new one.")
  var fresh = false

  @Option(
    help:
      "A new session's start instant (ISO-8601); default: now. An existing journal keeps its own.")
  var start: String?

  @Option(help: "Override the configuration's time rate (name or raw value).")
  var rate: String?

  @Flag(help: "Apply the remaining commands after one fails (exit status 1 if any failed).")
  var keepGoing = false

  @Option(help: "The most events one command may cause.")
  var maxEvents = 1_000_000

  @OptionGroup var signing: SigningOptions

  func validate() throws {
    if fresh && journal == nil { throw ValidationError("--fresh needs --journal.") }
    if let start, Instant(iso8601: start) == nil {
      throw ValidationError(
        "--start must be ISO-8601, such as 2026-11-22T02:00:00Z (got \"\(start)\").")
    }
    _ = try LiveSessionOptions.timeRate(rate)
    if maxEvents < 1 { throw ValidationError("--max-events must be at least 1.") }
  }

  func run() throws {
    var options = SessionOptions()
    options.maximumEventsPerVerb = maxEvents
    if let journal, start != nil, !fresh, FileManager.default.fileExists(atPath: journal) {
      printError(
        "storekeeper: --start applies to a new session; \(journal) exists (add --fresh)"
          .sanitizedForTerminal)
      throw ExitCode(64)
    }
    if fresh, let journal { try SessionOpening.setAside(journal) }
    // Signed output carries each purchase's receipts, as SK1 hands them over.
    options.receiptsOnPurchase = signing.sign || signing.chain
    var journaled = try SessionOpening.open(
      configurationPath: configurationPath, journalPath: journal,
      start: start.flatMap(Instant.init(iso8601:)), options: options)
    journaled.bundleID = signing.journaledBundleID
    let prepared = try signing.prepare()
    let signing = self.signing
    let receiptSigner = OnDemand { try prepared.signer ?? signing.makeSigner() }
    let output = EventOutput(
      signer: prepared.eventSigner, receipts: receiptSigner, environment: prepared.environment,
      journal: journaled.journal)
    let pipeline = prepared.pipeline(journaled)
    var failures = 0
    try SessionOpening.exitingOnError { () throws(CommandError) in
      try LiveSessionOptions.apply(rate: rate, to: &journaled)
    }
    let interactive = script == "-"
    let lines = try ScriptLines(path: script)
    var lineNumber = 0
    while let text = lines.next() {
      lineNumber += 1
      var failure: CommandError?
      var events: [StoreEvent] = []
      do throws(CommandError) {
        guard let command = try Command.parse(text) else { continue }
        try journaled.apply(command) { event in
          output.add(event)
          if pipeline != nil { events.append(event) }
        }
      } catch {
        failure = error
      }
      try output.raiseFailure()
      var notificationFailed = false
      for (notification, file) in pipeline?.process(events, session: journaled.session) ?? [] {
        switch file {
        case .success(let name): output.add(notification, file: name)
        case .failure(let error):
          try output.flush()
          printError("storekeeper: \(error)".sanitizedForTerminal)
          notificationFailed = true
        }
      }
      if notificationFailed {
        failures += 1
        break
      }
      if var located = failure {
        located.line = lineNumber
        if located.command == nil { located.command = text.trimmingCharacters(in: .whitespaces) }
        output.addError(located, time: journaled.session.now)
        try output.flush()
        printError("storekeeper: \(located)".sanitizedForTerminal)
        failures += 1
        if !keepGoing { break }
        continue
      }
      if interactive || (journaled.journal?.hasPending ?? false) && lineNumber % 512 == 0 {
        try output.flush()
      }
    }
    try output.flush()
    if let pipeline {
      let left = pipeline.delivery.waitUntilIdle(timeout: 60)
      for result in pipeline.delivery.takeResults() {
        printError("storekeeper: \(result)".sanitizedForTerminal)
        if !result.delivered { failures += 1 }
      }
      if left > 0 {
        printError("storekeeper: \(left) notifications not POSTed after waiting 60 s")
        failures += 1
      }
    }
    if failures > 0 { throw ExitCode(1) }
  }
}

/// Events on their way to standard output, encoded as JSON lines. Write-ahead: the journal is
/// committed (one `fsync` for everything queued) before any buffered event is written, so what
/// was printed is on disk. A command that causes millions of events streams them out while it
/// runs, a megabyte at a time.
final class EventOutput {
  private var encoder: EventEncoder
  private let journal: Journal?
  private var buffer = ByteWriter(capacity: EventOutput.batchSize + EventOutput.batchSize / 4)
  /// A failure while streaming from inside a command; raised by ``raiseFailure()``. Nothing
  /// more is written after one.
  private var failure: (any Error)?

  /// The most bytes held before they are written.
  static let batchSize = 1 << 20

  /// Output for events; with a signer, transactions and renewal infos carry
  /// `jwsRepresentation`; `receipts` signs the receipts of `receipt` events (made when the
  /// first is needed).
  init(
    signer: Signer? = nil, receipts: OnDemand<Signer>? = nil, environment: String = "Xcode",
    journal: Journal?
  ) {
    self.journal = journal
    let receiptFields: EventEncoder.ReceiptDecoration = { contents in
      (try? receipts?.value)?.receiptFields(contents) ?? []
    }
    guard let signer else {
      encoder = EventEncoder(environment: environment, receipts: receiptFields)
      return
    }
    let decorate: EventEncoder.Decoration = { decorated, time in
      let jws: String? =
        switch decorated {
        case .transaction(let transaction): try? signer.sign(transaction, signedDate: time)
        case .renewalInfo(let status): try? signer.sign(status, signedDate: time)
        }
      return jws.map { [("jwsRepresentation", $0)] } ?? []
    }
    encoder = EventEncoder(environment: environment, decorate: decorate, receipts: receiptFields)
  }

  func add(_ notification: ServerNotification, file: String?) {
    append(
      encoder.notificationLine(
        time: notification.time, type: notification.type, subtype: notification.subtype,
        uuid: notification.uuid, file: file))
  }

  /// Adds an event; a full batch is committed and written at once.
  func add(_ event: StoreEvent) {
    guard failure == nil else { return }
    encoder.append(event, to: &buffer)
    if buffer.count >= Self.batchSize {
      do {
        try flush()
      } catch {
        failure = error
      }
    }
  }

  func addError(_ error: CommandError, time: Instant) {
    append(encoder.errorLine(error, time: time))
  }

  private func append(_ line: String) {
    buffer.append(line)
    buffer.append(0x0A)
  }

  /// Raises what went wrong while streaming, if anything.
  func raiseFailure() throws {
    if let failure { throw failure }
  }

  /// Commits the journal, then writes what waits.
  ///
  /// - Throws: ``OutputFailure`` for standard output; `ExitCode(1)` (after saying why) for
  ///   the journal.
  func flush() throws {
    try raiseFailure()
    try SessionOpening.exitingOnError { () throws(CommandError) in try journal?.commit() }
    guard buffer.count > 0 else { return }
    try StandardStreams.writeOut(&buffer)
  }
}

/// The lines of a script file or of standard input, read as they come.
final class ScriptLines {
  private let handle: UnsafeMutablePointer<FILE>?
  private let ownsHandle: Bool

  init(path: String) throws {
    if path == "-" {
      handle = fdopen(STDIN_FILENO, "r")
      ownsHandle = false
    } else {
      var isDirectory: ObjCBool = false
      guard FileManager.default.fileExists(atPath: path, isDirectory: &isDirectory),
        !isDirectory.boolValue,
        let file = fopen(path, "r")
      else {
        printError("storekeeper: cannot read the script \(path)".sanitizedForTerminal)
        throw ExitCode(1)
      }
      handle = file
      ownsHandle = true
    }
  }

  deinit { if ownsHandle, let handle { fclose(handle) } }

  func next() -> String? {
    var line: UnsafeMutablePointer<CChar>?
    var capacity = 0
    defer { free(line) }
    guard getline(&line, &capacity, handle) >= 0, let line else { return nil }
    let bytes = UnsafeRawBufferPointer(start: line, count: strlen(line))
    return Command.scriptLines(Array(bytes)).first ?? ""
  }
}
