import ArgumentParser
import Foundation
import StoreCommands
import StoreJSON
import StoreSimulation
import StoreTerminal
import StoreUtilities

/// `storekeeper customers CONFIG`: every customer of a session (a population's), where their
/// subscription stands and what they paid, as a table, JSON lines or CSV.
struct Customers: ParsableCommand {
  static let configuration = CommandConfiguration(
    abstract: "List a session's customers.",
    discussion: """
      Reads the configuration's journal (or --journal FILE) without changing it. One line per \
      customer: name, storefront, product, status (subscribed, expired, inBillingRetryPeriod, \
      inGracePeriod, revoked, or none), since when, renewals, revenue by currency (charges less \
      refunds) and transactions. The filter: name:, status: (by prefix), product:, storefront:; \
      terms are ANDed, a comma ORs values, ! negates, bare words match any of them.
      """
  )

  @Argument(help: "The .storekit configuration.", completion: .file(extensions: ["storekit"]))
  var configurationPath: String

  @Option(help: "The journal to read; default: the configuration's own.")
  var journal: String?

  @Option(help: "Keep only matching customers, e.g. \"status:inBilling storefront:JPN\".")
  var filter: String?

  @Option(help: "Only this customer.")
  var customer: String?

  @Option(help: "table (default on a terminal), json (JSON lines, default otherwise) or csv.")
  var format: Transactions.OutputFormat?

  func validate() throws {
    guard let filter else { return }
    do throws(TransactionFilter.ParseError) {
      _ = try CustomerFilter(parsing: filter)
    } catch {
      throw ValidationError("--filter: \(error.message)")
    }
  }

  func run() throws {
    let path = try journalToRead(journal, for: configurationPath)
    let (configuration, bytes) = try loadConfiguration(configurationPath)
    // From the snapshot beside the journal when it matches (every customer's transactions and
    // standing), else replayed and the snapshot saved.
    let ledgers = try exiting { () throws(CommandError) in
      try SessionOpening.ledgers(
        configuration: configuration, bytes: bytes, configurationPath: configurationPath,
        journalPath: path, now: wallClock
      ) { printError("storekeeper: \($0)".sanitizedForTerminal) }
    }
    var summaries = ledgers.map { $0.customerSummary() }
    if let customer {
      guard let found = summaries.first(where: { $0.customer.name == customer }) else {
        let error = Session.noCustomer(
          named: customer, among: summaries.compactMap(\.customer.name))
        printError(
          "storekeeper: --customer \(customer) in \(path): \(error.message)".sanitizedForTerminal)
        throw ExitCode(1)
      }
      summaries = [found]
    } else if summaries.first?.transactions == 0 {
      // The session's own customer, when it bought nothing (a population's, a journal not made).
      summaries.removeFirst()
    }
    let kept = try CustomerFilter(parsing: filter ?? "")
    summaries = summaries.filter(kept.matches)
    switch format ?? (isatty(STDOUT_FILENO) == 1 ? .table : .json) {
    case .table: try StandardStreams.writeOut(Array(CustomerListing.table(summaries).utf8))
    case .json: try write(summaries.map(CustomerListing.jsonLine))
    case .csv: try write([CustomerListing.csvHeader] + summaries.map(CustomerListing.csvLine))
    }
  }

  private func write(_ lines: [String]) throws {
    var output = ByteWriter(capacity: 1 << 20 + 1 << 16)
    for line in lines {
      output.append(line)
      if output.count >= 1 << 20 { try StandardStreams.writeOut(&output) }
    }
    try StandardStreams.writeOut(&output)
  }
}
