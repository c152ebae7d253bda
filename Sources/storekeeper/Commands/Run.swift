import ArgumentParser
import Foundation
import StoreCommands
import StoreDelivery
import StoreSigning
import StoreSimulation
import StoreUtilities

/// `storekeeper run CONFIG [SCRIPT|-]`: applies a script and prints the events as JSON lines.
struct Run: AsyncParsableCommand {
  static let configuration = CommandConfiguration(
    abstract: "Apply a script of commands to a session and print its events as JSON lines.",
    discussion: """
      Each line of the script is a command (buy, advance, refund …; listed below and in docs/command-language.md). Events go to \
      stdout as JSON lines; messages for people go to stderr. The first command that cannot be \
      applied stops the run with exit status 1, after printing its error event.

      With --notifications DIR and/or --notify-url URL, every App Store Server Notification V2 \
      the session causes is signed and written as a file and/or POSTed (in order, one at a time, \
      a failure retried on Apple's schedule in simulated time, or --notify-retries); the run \
      waits for the POSTs due and exits with status 1 if a notification was not delivered.

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

  @OptionGroup var device: DeviceOptions

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

  /// The session the script applies to: the journal's (set aside first with `--fresh`), or a
  /// new one from `--start`, at `--rate`.
  private func openJournaled() throws -> JournaledSession {
    var options = SessionOptions()
    options.maximumEventsPerVerb = maxEvents
    if let journal, start != nil, !fresh, FileManager.default.fileExists(atPath: journal) {
      printError(
        "storekeeper: --start applies to a new session; \(journal) exists (add --fresh)"
          .sanitizedForTerminal)
      throw ExitCode(64)
    }
    if fresh, let journal { try setAside(journal) }
    // Signed output carries each purchase's receipts, as SK1 hands them over.
    options.receiptsOnPurchase = signing.sign || signing.chain
    var journaled = try openSession(
      configurationPath: configurationPath, journalPath: journal,
      start: start.flatMap(Instant.init(iso8601:)), options: options)
    journaled.bundleID = signing.journaledBundleID
    try exiting { () throws(CommandError) in
      try LiveSessionOptions.apply(rate: rate, to: &journaled)
    }
    return journaled
  }

  func run() async throws {
    let journaled = try openJournaled()
    let prepared = try signing.prepare()
    let signing = self.signing
    let made = prepared.signer
    let receipts = OnDemand { try made ?? signing.makeSigner() }
    // A script's lines share the journal's commits: events are printed a megabyte at a time,
    // each after the journal holds what explains it (the host sees to it).
    let host = CommandHost(journaled, commitsEachCommand: false)
    try signing.attachRetention(to: host, signer: receipts)
    let lines = EventLines(encoder: prepared.encoder(receipts: receipts)) {
      try StandardStreams.writeOut(&$0)
    }
    let filter = DeviceFilter(customer: device.customer, member: device.member)
    lines.device = filter
    var notificationFailed = false
    let sender = prepared.attachSender(to: host)
    if let sender {
      sender.listen { sent in
        if let error = sent.error {
          printError("storekeeper: \(error)".sanitizedForTerminal)
          notificationFailed = true
          return
        }
        let notification = sent.notification
        guard filter.shows(notificationAbout: notification.owner) else { return }
        lines.notification(
          time: notification.time, type: notification.type, subtype: notification.subtype,
          uuid: notification.uuid, file: sent.file, customer: notification.customer.name)
      }
    }
    host.attach(lines)
    let interactive = script == "-"
    let path = script
    let script = try exiting { () throws(CommandError) in try ScriptReader(path: path) }
    let afterLine = { (outcome: CommandOutcome) throws -> Bool in
      if let failure = lines.failure { throw failure }
      if let error = outcome.error {
        try flush(host, lines)
        printError("storekeeper: \(error)".sanitizedForTerminal)
      } else if interactive {
        try flush(host, lines)
      }
      return !notificationFailed
    }
    let loop = ScriptLoop(keepsGoing: keepGoing)
    var end = try loop.run(script.next, on: host, afterLine: afterLine)
    // A `retention show` asks the developer's server first: what came before is out, then the
    // call is awaited and the line applied with its answer.
    while case .waiting(let wait) = end {
      try flush(host, lines)
      let exchange = await wait.call.exchange()
      end = try loop.resume(wait, with: exchange, script.next, on: host, afterLine: afterLine)
    }
    var failures = 0
    switch end {
    case .journalFailed(let error): try fail(error, lines)
    case .finished(let count): failures = count
    case .refused: failures = 1
    case .halted(let count): failures = count + 1  // a notification could not be sent
    case .stopped, .waiting: break
    }
    try flush(host, lines)
    if let outbox = sender?.outbox { failures += reportDeliveries(outbox) }
    if failures > 0 { throw ExitCode(1) }
  }

  /// Commits the journal and prints what waits.
  private func flush(_ host: CommandHost, _ lines: EventLines) throws {
    do throws(CommandError) { try host.flush() } catch { try fail(error, lines) }
    if let failure = lines.failure { throw failure }
  }

  /// Ends the run on a publishing error: output that could not be written ends it as output
  /// failures do (a reader that went away, quietly), anything else is told, status 1.
  private func fail(_ error: CommandError, _ lines: EventLines) throws -> Never {
    if let failure = lines.failure { throw failure }
    printError("storekeeper: \(error)".sanitizedForTerminal)
    throw ExitCode(1)
  }
}
