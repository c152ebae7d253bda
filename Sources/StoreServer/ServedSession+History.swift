import StoreJSON
import StoreSimulation

extension SessionReader {
  /// The page of history a query asks for, as Apple's `HistoryResponse`. Its `revision` is a
  /// cursor on the last transaction returned (purchase date and id, the order's key), so a walk
  /// page by page returns every transaction that exists throughout it exactly once, whatever
  /// is bought, finished or refunded meanwhile.
  ///
  /// - Complexity: O(log *n* + page) over the ledger's rows in history order (kept between
  ///   requests until the session changes), plus O(*n*) once after each change.
  func history(_ query: HistoryQuery) throws(AppStoreError) -> JSONValue {
    var query = query
    let catalog = session.catalog
    let products = catalog.products.map { product in
      (query.productIDs.isEmpty || query.productIDs.contains(product.productID))
        && (query.productTypes.isEmpty || query.productTypes.contains(ProductKind(product.type)))
        && (query.groupIDs.isEmpty
          || query.groupIDs.contains(product.groupIndex.map { catalog.groups[$0].id } ?? ""))
    }
    query.consumables = catalog.products.map { $0.type == .consumable }
    let rows = historyOrder()
    query.rowsAreShared = !account.isPurchaser
    var page: [UInt64] = []
    var last = query.after
    var hasMore = false
    let step = query.ascending ? 1 : -1
    // The first row past the cursor in the walk's direction.
    var position: Int
    if let after = query.after {
      let firstAfter = rows.partitionPoint { HistoryCursor($0) > after }
      position =
        query.ascending ? firstAfter : rows.partitionPoint { HistoryCursor($0) >= after } - 1
    } else {
      position = query.ascending ? 0 : rows.count - 1
    }
    while rows.indices.contains(position) {
      defer { position += step }
      guard query.admits(rows[position], products: products) else { continue }
      if page.count == HistoryQuery.pageSize {
        hasMore = true
        break
      }
      page.append(rows[position].id)
      last = HistoryCursor(rows[position])
    }
    var signed: [JSONValue] = []
    for id in page {
      guard let transaction = session.transaction(id) else { continue }
      signed.append(.string(try sign(transaction)))
    }
    return .object(
      JSONObject([
        JSONMember("revision", .string(last?.revision ?? HistoryCursor.start)),
        JSONMember("hasMore", .bool(hasMore)),
        JSONMember("bundleId", .string(bundleID)),
        JSONMember("environment", .string(environment)),
        JSONMember("signedTransactions", .array(signed)),
      ]))
  }
}

/// Where a page of a history ended: the sort key (a date in milliseconds, then the id) of the
/// last item returned, as an opaque `revision`; the next page resumes after it.
struct HistoryCursor: Comparable {
  var date: Int64
  var id: UInt64

  /// The revision of a walk that returned nothing yet.
  static let start = "sk2-start"

  /// A transaction's place in history order.
  init(_ row: LedgerRow) {
    date = row.purchaseDate
    id = row.id
  }

  init(date: Int64, id: UInt64) {
    self.date = date
    self.id = id
  }

  /// The cursor a `revision` names; `nil` for none (or the start).
  ///
  /// - Throws: 4000005 for a revision that is not one of ours.
  init?(revision: String?) throws(AppStoreError) {
    guard let revision, revision != Self.start else { return nil }
    let parts = revision.split(separator: "-", omittingEmptySubsequences: false)
    guard parts.count == 3, parts[0] == "sk2", let date = Int64(parts[1]), let id = UInt64(parts[2])
    else {
      throw AppStoreError(.invalidRequestRevision)
    }
    self.init(date: date, id: id)
  }

  /// The opaque token.
  var revision: String { "sk2-\(date)-\(id)" }

  static func < (lhs: HistoryCursor, rhs: HistoryCursor) -> Bool {
    (lhs.date, lhs.id) < (rhs.date, rhs.id)
  }
}

extension RandomAccessCollection {
  /// The index of the first element for which `belongs` holds, all of them after all those for
  /// which it does not (binary search).
  func partitionPoint(_ belongs: (Element) -> Bool) -> Index {
    var low = startIndex
    var count = self.count
    while count > 0 {
      let half = count / 2
      let middle = index(low, offsetBy: half)
      if belongs(self[middle]) {
        count = half
      } else {
        low = index(after: middle)
        count -= half + 1
      }
    }
    return low
  }
}
