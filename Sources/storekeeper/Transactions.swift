import ArgumentParser
import Foundation
import StoreCommands
import StoreConfiguration
import StoreSimulation
import StoreTerminal

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
    let path = try journal ?? SessionOpening.defaultJournal(for: configurationPath)
    let ledger = try SessionOpening.ledger(configurationPath: configurationPath, journalPath: path)
    let compiled = try TransactionFilter(parsing: filter ?? "").compiled(
      for: ledger.catalog, now: ledger.now)
    let chosen = format ?? (isatty(STDOUT_FILENO) == 1 ? .table : .json)
    guard chosen != .table else {
      let rows = (0..<ledger.count).lazy.map(ledger.row).filter(compiled.matches)
      let table = TransactionListing.render(rows: Array(rows), catalog: ledger.catalog)
      try StandardStreams.writeOut(Array(table.utf8))
      return
    }
    // JSON lines and CSV stream out a megabyte at a time: memory stays that of the ledger.
    var output = ByteWriter(capacity: 1 << 20 + 1 << 16)
    var encoder = EventEncoder()
    if chosen == .csv {
      output.append(
        "id,originalID,productID,productType,purchaseDate,expirationDate,state,finished\n")
    }
    for index in 0..<ledger.count {
      let row = ledger.row(index)
      guard compiled.matches(row) else { continue }
      if chosen == .json {
        encoder.appendTransaction(
          ledger.transaction(index), extra: [("ledgerState", row.state.rawValue)], to: &output)
      } else {
        let product = ledger.catalog.products[Int(row.product)]
        let fields = [
          String(row.id), String(row.originalID), product.productID,
          ProductKind(product.type).rawValue, Instant(milliseconds: row.purchaseDate).iso8601,
          row.expirationDate == Int64.min ? "" : Instant(milliseconds: row.expirationDate).iso8601,
          row.state.rawValue, row.isFinished ? "true" : "false",
        ]
        output.append(fields.map(csvField).joined(separator: ",") + "\n")
      }
      if output.count >= 1 << 20 { try StandardStreams.writeOut(&output) }
    }
    try StandardStreams.writeOut(&output)
  }

  private func csvField(_ text: String) -> String {
    let safe = text.sanitizedForTerminal
    guard safe.contains(where: { $0 == "," || $0 == "\"" || $0 == "\n" }) else { return safe }
    return "\"" + safe.replacingOccurrences(of: "\"", with: "\"\"") + "\""
  }
}

/// A plain-text table of transactions for a terminal, aligned in terminal cells (a CJK
/// product ID takes two cells a character).
enum TransactionListing {
  static func render(rows: [LedgerRow], catalog: Catalog) -> String {
    let header = ["ID", "Product", "Type", "Purchased (UTC)", "Expires (UTC)", "State", ""]
    var lines = [header]
    for row in rows {
      let product = catalog.products[Int(row.product)]
      lines.append([
        String(row.id), product.productID.sanitizedForTerminal, ProductKind(product.type).rawValue,
        shortDate(row.purchaseDate),
        row.expirationDate == Int64.min ? "" : shortDate(row.expirationDate),
        row.state.label, row.isFinished ? "" : "unfinished",
      ])
    }
    TextCells.prepareLocale()
    let widths = header.indices.map { column in
      lines.map { TextCells.width($0[column]) }.max() ?? 0
    }
    return lines.map { line in
      line.enumerated().map { column, text in
        TextCells.fit(text, widths[column], alignRight: column == 0)
      }.joined(separator: "  ").trimmingTrailingSpaces
    }.joined(separator: "\n") + "\n" + "\(rows.count) transaction\(rows.count == 1 ? "" : "s")\n"
  }

  static func shortDate(_ milliseconds: Int64) -> String {
    let text = Instant(milliseconds: milliseconds).iso8601
    return String(text.prefix(19)).replacingOccurrences(of: "T", with: " ")
  }
}

extension String {
  /// The text without the spaces at its end (the right-aligned first column keeps its padding).
  fileprivate var trimmingTrailingSpaces: String {
    String(self[..<(lastIndex(where: { $0 != " " }).map { index(after: $0) } ?? startIndex)])
  }
}
