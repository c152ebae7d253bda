import ArgumentParser
import Foundation
import StoreCommands
import StoreConfiguration
import StoreDelivery
import StorePopulation
import StoreSimulation
import StoreUtilities

/// `storekeeper simulate CONFIG --customers N --months M --seed S`: a population of customers
/// living their lives by a behaviour model, with their notifications and journal.
struct Simulate: ParsableCommand {
  static let configuration = CommandConfiguration(
    abstract: "Simulate a population of customers by a seeded behaviour model.",
    discussion: """
      N customers arrive over the first month, each buys an auto-renewable subscription, and \
      they live M months by the behaviour model (docs/simulate.md: intro offers and their \
      conversion, cancellations, plan changes, billing failures and recovery, refunds, price \
      increases, family sharing). The same seed makes the same journal and notifications \
      (only the ECDSA signatures differ). --shard i/n runs the customers numbered i modulo n: \
      n shards together make exactly the customers and notifications of one run. A progress \
      line goes to stderr at each month's end; the summary to stdout. --notifications DIR \
      gets one JSON-lines file (notifications.jsonl, or notifications-shard-i-of-n.jsonl), \
      each line a body as the App Store POSTs it; --notification-files writes a numbered \
      file each instead. The journal and that file are named only when the run ends: a run \
      stopped by Ctrl-C removes what it wrote, and one killed outright leaves NAME.partial.
      """)

  @Argument(help: "The .storekit configuration.", completion: .file(extensions: ["storekit"]))
  var configurationPath: String

  @Option(help: "How many customers.")
  var customers = 100

  @Option(help: "How many months they live after the first arrives.")
  var months = 12

  @Option(help: "The seed of every customer's random stream.")
  var seed: UInt64 = 1

  @Option(help: "A behaviour model (JSON; docs/simulate.md) to change the defaults.")
  var model: String?

  @Option(help: "Run shard i of n (1 ≤ i ≤ n): the customers numbered i modulo n.")
  var shard: String?

  @Option(help: "The population's start (ISO-8601).")
  var start = "2026-01-01T00:00:00Z"

  @Option(help: "Write the session's journal here (a new file; open it with the inspector).")
  var journal: String?

  @Flag(
    help: "Write each notification as a numbered file in --notifications, not one JSON-lines file.")
  var notificationFiles = false

  @Option(help: "The summary's format: text or json.")
  var format = "text"

  @OptionGroup var signing: SigningOptions

  func validate() throws {
    guard (1...Customer.maximumNumber).contains(customers) else {
      throw ValidationError(
        "--customers must be 1 to \(Customer.maximumNumber) (got \(customers)).")
    }
    guard (1...1200).contains(months) else {
      throw ValidationError("--months must be 1 to 1200 (got \(months)).")
    }
    if let shard, Shard(parsing: shard) == nil {
      throw ValidationError(
        "--shard must be i/n with 1 ≤ i ≤ n, such as 1/4 (got \"\(shard.prefix(40))\").")
    }
    guard let begins = Instant(iso8601: start) else {
      throw ValidationError("--start must be ISO-8601, such as 2026-01-01T00:00:00Z.")
    }
    let ends = CommandDuration(months: Int64(months)).after(begins)
    guard ends <= .latest else {
      throw ValidationError(
        "--start \(start) with --months \(months) ends at \(ends.iso8601), past "
          + "\(Instant.latest.iso8601), the latest instant a session reaches: start earlier or "
          + "simulate fewer months.")
    }
    guard ["text", "json"].contains(format) else {
      throw ValidationError("--format must be text or json (got \"\(format.prefix(40))\").")
    }
    if let obstacle = output.obstacle() { throw ValidationError(obstacle + ".") }
  }

  /// What the run writes, named at its end.
  var output: SimulateOutput {
    SimulateOutput(
      journal: journal, folder: signing.notifications,
      linesName: notificationFiles ? nil : SimulateOutput.linesName(shard: shard))
  }

  func run() throws {
    let output = self.output
    if let obstacle = output.obstacle() {
      printError("storekeeper: \(obstacle)".sanitizedForTerminal)
      throw ExitCode(64)
    }
    let began = Date()
    let (configuration, bytes) = try loadConfiguration(configurationPath)
    var population = PopulationOptions(customers: customers, months: months, seed: seed)
    population.shard = shard.flatMap(Shard.init(parsing:)) ?? .whole
    if let model { population.model = try loadModel(model, configuration: configuration) }
    var options = SessionOptions()
    // The population steps the clock renewal by renewal: no step needs a budget.
    options.maximumEventsPerVerb = .max
    let instant = Instant(iso8601: start)!
    let identity = "population \(seed) \(instant.milliseconds) \(customers)"
    var journaled = try exiting { () throws(CommandError) in
      try SessionOpening.open(
        configuration: configuration, bytes: bytes, configurationPath: configurationPath,
        journalPath: output.partialJournal, start: instant, now: instant, options: options,
        identity: identity
      ) { printError("storekeeper: \($0)".sanitizedForTerminal) }
    }
    journaled.bundleID = signing.journaledBundleID
    journaled.keepsHistory = false
    let prepared = try signing.prepare(
      layout: output.linesName.map { .lines($0) } ?? .numbered, keepsHistory: false)
    try exiting { () throws(CommandError) in try output.begin(prepared.outbox) }
    let host = CommandHost(journaled, commitsEachCommand: false)
    let sender = prepared.attachSender(to: host)
    // Each command causes a notification or two: they are signed a chunk at a time, on every core.
    sender?.batchesAcrossCommands = true
    // A notification that cannot be signed, or whose file cannot be written, is told once,
    // counted, and makes the exit status 1.
    var unwritten = 0
    sender?.listen { sent in
      guard let error = sent.error else { return }
      if unwritten == 0 { printError("storekeeper: \(error)".sanitizedForTerminal) }
      unwritten += 1
    }
    let summary = try exiting { () throws(CommandError) in
      try Population(options: population, host: host, sender: sender).run { progress in
        let seconds = String(format: "%.1f", Date().timeIntervalSince(began))
        printError(
          "simulate: month \(progress.month) of \(progress.months) "
            + "(\(progress.now.iso8601.prefix(10))): \(progress.arrived) customers, "
            + "\(progress.notifications) notifications, \(seconds) s")
      }
    }
    try exiting { () throws(CommandError) in try host.flush() }
    let undelivered = sender.map { reportDeliveries($0.outbox) } ?? 0
    try finish(output, prepared.outbox)
    try StandardStreams.writeOut(Array((format == "json" ? summary.json : summary.text).utf8))
    if unwritten > 0 {
      printError(
        "storekeeper: \(unwritten) of \(summary.notificationCount) notifications could not be "
          + "signed or written to --notifications \(signing.notifications ?? "")"
          .sanitizedForTerminal)
    }
    if undelivered > 0 || unwritten > 0 { throw ExitCode(1) }
  }

  /// Names what the run wrote; a problem is told with exit status 1.
  private func finish(_ output: SimulateOutput, _ outbox: NotificationOutbox?) throws {
    do {
      try output.finish(outbox)
    } catch {
      printError("storekeeper: \(error)".sanitizedForTerminal)
      throw ExitCode(1)
    }
  }

  /// The model file, read and checked; a problem is told with its JSON path (exit status 1).
  private func loadModel(
    _ path: String, configuration: StoreKitConfiguration
  ) throws -> BehaviourModel {
    guard let data = FileManager.default.contents(atPath: path) else {
      printError("storekeeper: --model \(path): cannot read the file".sanitizedForTerminal)
      throw ExitCode(1)
    }
    do throws(BehaviourModel.Problem) {
      return try BehaviourModel(json: Array(data), catalog: Catalog(configuration))
    } catch {
      printError("storekeeper: \(path): \(error)".sanitizedForTerminal)
      throw ExitCode(1)
    }
  }
}
