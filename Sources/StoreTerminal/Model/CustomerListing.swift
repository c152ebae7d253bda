import StoreConfiguration
import StoreJSON
import StoreSimulation
import StoreUtilities

/// Customers as `storekeeper customers` prints them: an aligned table, JSON lines or CSV, one
/// customer a line, the session's own named `(own)` in the table and left unnamed elsewhere.
package enum CustomerListing {
  /// The table's columns.
  static let header = [
    "Customer", "Storefront", "Product", "Status", "Since (UTC)", "Renewals", "Revenue", "Txns",
  ]

  /// The summaries as an aligned table with a count line.
  package static func table(_ summaries: [CustomerSummary]) -> String {
    var lines = [header]
    for summary in summaries { lines.append(cells(summary)) }
    TextCells.prepareLocale()
    let widths = header.indices.map { column in
      lines.map { TextCells.width($0[column]) }.max() ?? 0
    }
    let numeric: Set<Int> = [5, 6, 7]
    let text = lines.map { line in
      line.enumerated().map { column, text in
        TextCells.fit(text, widths[column], alignRight: numeric.contains(column))
      }.joined(separator: "  ")
    }
    let count = "\(summaries.count) customer\(summaries.count == 1 ? "" : "s")"
    return text.map { String($0.reversed().drop { $0 == " " }.reversed()) }
      .joined(separator: "\n") + "\n" + count + "\n"
  }

  /// A customer's cells, in ``header``'s order.
  package static func cells(_ summary: CustomerSummary) -> [String] {
    [
      (summary.customer.name ?? "(own)").sanitizedForTerminal, summary.storefront.countryCode,
      ((summary.productID ?? "") + (summary.holdsAssignedSeat ? " (seat)" : ""))
        .sanitizedForTerminal, summary.statusName,
      summary.since.map { Formatting.clock($0) } ?? "", String(summary.renewals),
      revenueText(summary.revenue), String(summary.transactions),
    ]
  }

  /// Revenue by currency as a person reads it: `USD 12.34`, several joined by `, `.
  package static func revenueText(_ revenue: [String: Int64]) -> String {
    revenue.sorted { $0.key < $1.key }.map { "\($0.key) \(Money.text($0.value, currency: $0.key))" }
      .joined(separator: ", ")
  }

  /// One JSON line: `customer` (absent for the session's own), `status`, `productID`,
  /// `originalTransactionID`, `assignedSeat` (a multiseat member's seat, when so),
  /// `transactions`, `storefront`, `since`, `renewals` and `revenue` by currency (amounts as
  /// decimal numbers in the currency's minor units).
  package static func jsonLine(_ summary: CustomerSummary) -> String {
    var members: [JSONMember] = []
    if let name = summary.customer.name { members.append(JSONMember("customer", .string(name))) }
    members.append(JSONMember("status", .string(summary.statusName)))
    if let product = summary.productID { members.append(JSONMember("productID", .string(product))) }
    if summary.holdsAssignedSeat { members.append(JSONMember("assignedSeat", .bool(true))) }
    if let original = summary.originalTransactionID {
      members.append(JSONMember("originalTransactionID", .string(String(original))))
    }
    members += [
      JSONMember("transactions", .number(JSONNumber(summary.transactions))),
      JSONMember("storefront", .string(summary.storefront.countryCode)),
    ]
    if let since = summary.since { members.append(JSONMember("since", .string(since.iso8601))) }
    members += [
      JSONMember("renewals", .number(JSONNumber(summary.renewals))),
      JSONMember(
        "revenue",
        .object(
          JSONObject(
            summary.revenue.sorted { $0.key < $1.key }.map {
              JSONMember($0.key, .number(JSONNumber(text: Money.text($0.value, currency: $0.key))))
            }))),
    ]
    return JSONWriter.compact(.object(JSONObject(members))) + "\n"
  }

  /// The CSV header line.
  package static let csvHeader =
    "customer,status,productID,originalTransactionID,transactions,storefront,since,renewals,revenue\n"

  /// One CSV line (revenue as `USD 12.34` joined by `; `).
  package static func csvLine(_ summary: CustomerSummary) -> String {
    let fields = [
      summary.customer.name ?? "", summary.statusName, summary.productID ?? "",
      summary.originalTransactionID.map(String.init) ?? "", String(summary.transactions),
      summary.storefront.countryCode, summary.since?.iso8601 ?? "", String(summary.renewals),
      revenueText(summary.revenue).replacingOccurrences(of: ", ", with: "; "),
    ]
    return fields.map(csvField).joined(separator: ",") + "\n"
  }

  /// A CSV field: quoted when it holds a comma, a quote or a line break; never a control
  /// character.
  package static func csvField(_ text: String) -> String {
    let safe = text.sanitizedForTerminal
    guard safe.contains(where: { $0 == "," || $0 == "\"" || $0 == "\n" }) else { return safe }
    return "\"" + safe.replacingOccurrences(of: "\"", with: "\"\"") + "\""
  }
}
