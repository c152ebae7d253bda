import ArgumentParser
import Foundation
import StoreCommands
import StoreConfiguration
import StoreJSON
import StoreSimulation
import StoreTerminal
import StoreUtilities

/// `storekeeper transactions CONFIG`: the session's transactions, filtered, as a table, JSON
/// lines or CSV.
struct Transactions: ParsableCommand {
  static let configuration = CommandConfiguration(
    abstract: "List a session's transactions.",
    discussion: """
      Reads the configuration's journal (or --journal FILE) without changing it. The filter \
      language: product:, state:, type:, offer:, id:, original:, after:, before:, on:, date:A..B; \
      terms are ANDed, a comma ORs values, ! negates, bare words match id, product, type or state; \
      states and types match by prefix; dates are UTC: 2026-11-23, 11-23, "11-23 14:05", today, \
      yesterday, 7d, this-month (relative to the session's clock).
      """
  )

  enum OutputFormat: String, ExpressibleByArgument, CaseIterable {
    case table, json, csv
  }

  @Argument(help: "The .storekit configuration.", completion: .file(extensions: ["storekit"]))
  var configurationPath: String

  @Option(help: "The journal to read; default: the configuration's own.")
  var journal: String?

  @Option(help: "Keep only matching transactions, e.g. \"product:socialfeed after:2026-11-01\".")
  var filter: String?

  @Option(help: "table (default on a terminal), json (JSON lines, default otherwise) or csv.")
  var format: OutputFormat?

  @OptionGroup var device: DeviceOptions

  func validate() throws {
    if let filter {
      do throws(TransactionFilter.ParseError) {
        _ = try TransactionFilter(parsing: filter)
      } catch {
        throw ValidationError("--filter: \(error.message)")
      }
    }
  }

  func run() throws {
    let path = try journalToRead(journal, for: configurationPath)
    // The filter's customer:<name> picks a customer's store as --customer does.
    var device = self.device
    if device.customer == nil {
      device.customer = try? TransactionFilter(parsing: filter ?? "").customer
    }
    let ledgers = try chosenLedgers(journal: path, device: device)
    let ledger = ledgers[0]
    let compiled = try TransactionFilter(parsing: filter ?? "").compiled(
      for: ledger.catalog, now: ledger.now)
    // Whose each row is, when the listing holds more than one customer's.
    let names = ledgers.count > 1 || ledger.owner.customer.name != nil
    let chosen = format ?? (isatty(STDOUT_FILENO) == 1 ? .table : .json)
    guard chosen != .table else {
      var rows: [LedgerRow] = []
      var customers: [String] = []
      for ledger in ledgers {
        for row in (0..<ledger.count).lazy.map(ledger.row) where compiled.matches(row) {
          rows.append(row)
          customers.append(ledger.owner.customer.name ?? "")
        }
      }
      let table = TransactionListing.render(
        rows: rows, catalog: ledger.catalog, customers: names ? customers : nil)
      try StandardStreams.writeOut(Array(table.utf8))
      return
    }
    try stream(ledgers, compiled, csv: chosen == .csv, names: names)
  }

  /// JSON lines or CSV, streamed out a megabyte at a time: memory stays that of the ledgers.
  private func stream(
    _ ledgers: [LedgerSnapshot], _ compiled: CompiledTransactionFilter, csv: Bool, names: Bool
  ) throws {
    var output = ByteWriter(capacity: 1 << 20 + 1 << 16)
    var encoder = EventEncoder()
    if csv {
      output.append(
        (names ? "customer," : "")
          + "id,originalID,productID,productType,purchaseDate,expirationDate,state,finished\n")
    }
    for ledger in ledgers {
      let name = ledger.owner.customer.name
      for index in 0..<ledger.count {
        let row = ledger.row(index)
        guard compiled.matches(row) else { continue }
        if !csv {
          let customer = name.map { [("customer", $0)] } ?? []
          encoder.appendTransaction(
            ledger.transaction(index), extra: customer + [("ledgerState", row.state.rawValue)],
            to: &output)
        } else {
          let product = ledger.catalog.products[Int(row.product)]
          let fields =
            (names ? [name ?? ""] : []) + [
              String(row.id), String(row.originalID), product.productID,
              ProductKind(product.type).rawValue, Instant(milliseconds: row.purchaseDate).iso8601,
              row.expirationDate == Int64.min
                ? "" : Instant(milliseconds: row.expirationDate).iso8601,
              row.state.rawValue, row.isFinished ? "true" : "false",
            ]
          output.append(fields.map(csvField).joined(separator: ",") + "\n")
        }
        if output.count >= 1 << 20 { try StandardStreams.writeOut(&output) }
      }
    }
    try StandardStreams.writeOut(&output)
  }

  /// The ledgers to list: a family member's view (the journal replayed), one customer's, or
  /// every customer's (the session's own left out when it has none and others have some), from
  /// the snapshot beside the journal when it matches.
  private func chosenLedgers(journal path: String, device: DeviceOptions) throws -> [LedgerSnapshot]
  {
    if device.member != nil { return [try deviceLedger(journal: path, device: device)] }
    let (configuration, bytes) = try loadConfiguration(configurationPath)
    let all = try exiting { () throws(CommandError) in
      try SessionOpening.ledgers(
        configuration: configuration, bytes: bytes, configurationPath: configurationPath,
        journalPath: path, now: wallClock
      ) { printError("storekeeper: \($0)".sanitizedForTerminal) }
    }
    guard let name = device.customer else {
      return all.count > 1 && all[0].count == 0 ? Array(all.dropFirst()) : all
    }
    guard let found = all.first(where: { $0.owner.customer.name == name }) else {
      let error = Session.noCustomer(
        named: name, among: all.compactMap(\.owner.customer.name))
      printError(
        "storekeeper: --customer \(name) in \(path): \(error.message)".sanitizedForTerminal)
      throw ExitCode(1)
    }
    return [found]
  }

  /// A named customer's or a family member's transactions: the journal replayed (its snapshot
  /// holds the own customer's), then their device's view.
  private func deviceLedger(journal path: String, device: DeviceOptions) throws -> LedgerSnapshot {
    let session = try exiting { () throws(CommandError) in
      try JournalSnapshot.replayedSession(ofJournal: path) {
        printError("storekeeper: \($0)".sanitizedForTerminal)
      }
    }
    let account = try device.account(in: session, journal: path)
    return session!.view(of: account).ledgerSnapshot()
  }

  private func csvField(_ text: String) -> String { CustomerListing.csvField(text) }
}
