import StoreCommands
import StoreSimulation

/// A plain-text table of transactions for a terminal, aligned in terminal cells (a CJK
/// product ID takes two cells a character).
package enum TransactionListing {
  /// The rows as a table, with a count at the end.
  /// The rows as a table; with `customers` (each row's customer's name, "" for the session's
  /// own), a Customer column first.
  package static func render(
    rows: [LedgerRow], catalog: Catalog, customers: [String]? = nil
  ) -> String {
    let customerHeader = customers == nil ? [] : ["Customer"]
    let header =
      customerHeader + ["ID", "Product", "Type", "Purchased (UTC)", "Expires (UTC)", "State", ""]
    var lines = [header]
    for (index, row) in rows.enumerated() {
      let product = catalog.products[Int(row.product)]
      let customer = customers.map { [$0[index].sanitizedForTerminal] } ?? []
      lines.append(
        customer + [
          String(row.id), product.productID.sanitizedForTerminal,
          ProductKind(product.type).rawValue,
          Formatting.clock(Instant(milliseconds: row.purchaseDate)),
          row.expirationDate == Int64.min
            ? "" : Formatting.clock(Instant(milliseconds: row.expirationDate)),
          row.state.label, row.isFinished ? "" : "unfinished",
        ])
    }
    TextCells.prepareLocale()
    let widths = header.indices.map { column in
      lines.map { TextCells.width($0[column]) }.max() ?? 0
    }
    return lines.map { line in
      line.enumerated().map { column, text in
        TextCells.fit(text, widths[column], alignRight: column == customerHeader.count)
      }.joined(separator: "  ").trimmingTrailingSpaces
    }.joined(separator: "\n") + "\n" + "\(rows.count) transaction\(rows.count == 1 ? "" : "s")\n"
  }
}

extension String {
  /// The text without the spaces at its end (the right-aligned first column keeps its padding).
  fileprivate var trimmingTrailingSpaces: String {
    String(self[..<(lastIndex(where: { $0 != " " }).map { index(after: $0) } ?? startIndex)])
  }
}
