import StoreConfiguration
import StoreSimulation

/// Get Transaction History (`GET /inApps/v1|v2/history/{transactionId}`): the customer's
/// transactions, 20 a page, filtered as Apple's query parameters say.
struct HistoryQuery {
  static let pageSize = 20

  var startDate: Int64?
  var endDate: Int64?
  var productIDs: Set<String> = []
  var productTypes: Set<ProductKind> = []
  var ascending = true
  var groupIDs: Set<String> = []
  var revoked: Bool?
  /// Only family-shared transactions: the simulator makes none.
  var familySharedOnly = false
  var offset = 0
  /// v1 leaves out finished consumables; v2 lists them.
  var includesFinishedConsumables: Bool
  /// Which catalog products are consumables (by index).
  var consumables: [Bool] = []

  /// The query a request's parameters describe, or Apple's error for the first bad one.
  init(_ query: [String: [String]], version: String) throws(AppStoreError) {
    includesFinishedConsumables = version == "v2"
    func one(_ name: String) -> String? { query[name]?.last }
    func date(_ name: String, _ code: Int, _ message: String) throws(AppStoreError) -> Int64? {
      guard let text = one(name) else { return nil }
      guard let value = Int64(text), value >= 0 else {
        throw AppStoreError(status: 400, code: code, message: message)
      }
      return value
    }
    startDate = try date("startDate", 4_000_015, "Invalid request start date.")
    endDate = try date("endDate", 4_000_016, "Invalid request end date.")
    if let startDate, let endDate, startDate > endDate {
      throw AppStoreError(
        status: 400, code: 4_000_013,
        message: "Invalid request. The start date is later than the end date.")
    }
    productIDs = Set(query["productId"] ?? [])
    for text in query["productType"] ?? [] {
      guard let kind = Self.productTypes[text] else {
        throw AppStoreError(status: 400, code: 4_000_022, message: "Invalid request product type.")
      }
      productTypes.insert(kind)
    }
    switch one("sort") {
    case nil, "ASCENDING"?: ascending = true
    case "DESCENDING"?: ascending = false
    default: throw AppStoreError(status: 400, code: 4_000_021, message: "Invalid request sort.")
    }
    groupIDs = Set(query["subscriptionGroupIdentifier"] ?? [])
    switch one("inAppOwnershipType") {
    case nil, "PURCHASED"?: break
    case "FAMILY_SHARED"?: familySharedOnly = true
    default:
      throw AppStoreError(
        status: 400, code: 4_000_026, message: "Invalid request in-app ownership type.")
    }
    switch one("revoked")?.lowercased() {
    case nil: break
    case "true"?: revoked = true
    case "false"?: revoked = false
    default: throw AppStoreError(status: 400, code: 4_000_030, message: "Invalid request revoked.")
    }
    if let revision = one("revision") {
      guard let offset = Self.offset(of: revision) else {
        throw AppStoreError(status: 400, code: 4_000_005, message: "Invalid request revision.")
      }
      self.offset = offset
    }
  }

  /// Apple's product type names.
  static let productTypes: [String: ProductKind] = [
    "AUTO_RENEWABLE": .autoRenewable, "NON_RENEWABLE": .nonRenewable, "CONSUMABLE": .consumable,
    "NON_CONSUMABLE": .nonConsumable,
  ]

  /// The revision token for the page starting at `offset` (opaque to clients).
  static func revision(at offset: Int) -> String { "sk1-\(offset)" }

  static func offset(of revision: String) -> Int? {
    guard revision.hasPrefix("sk1-"), let value = Int(revision.dropFirst(4)), value >= 0 else {
      return nil
    }
    return value
  }

  /// Whether a transaction (by its ledger row) belongs in the history; `products` says which
  /// catalog products the query admits.
  func admits(_ row: LedgerRow, products: [Bool]) -> Bool {
    switch row.state {
    case .pending, .declined, .interrupted, .failed: return false
    default: break
    }
    guard !familySharedOnly, products[Int(row.product)] else { return false }
    if !includesFinishedConsumables && row.isFinished && consumables[Int(row.product)] {
      return false
    }
    if let startDate, row.purchaseDate < startDate { return false }
    if let endDate, row.purchaseDate >= endDate { return false }
    if let revoked, (row.state == .refunded) != revoked { return false }
    return true
  }
}

extension ServedSession {
  /// The page of history a query asks for, as Apple's `HistoryResponse`.
  ///
  /// - Complexity: O(*offset* + page) over the ledger's rows in history order (kept between
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
    var page: [UInt64] = []
    var matched = 0
    var hasMore = false
    var position = query.ascending ? 0 : rows.count - 1
    let step = query.ascending ? 1 : -1
    while rows.indices.contains(position) {
      defer { position += step }
      guard query.admits(rows[position], products: products) else { continue }
      matched += 1
      if matched <= query.offset { continue }
      if page.count == HistoryQuery.pageSize {
        hasMore = true
        break
      }
      page.append(rows[position].id)
    }
    var signed: [JSONValue] = []
    for id in page {
      guard let transaction = session.transaction(id) else { continue }
      signed.append(.string(try sign(transaction)))
    }
    return .object(
      JSONObject([
        JSONMember("revision", .string(HistoryQuery.revision(at: query.offset + page.count))),
        JSONMember("hasMore", .bool(hasMore)),
        JSONMember("bundleId", .string(bundleID)),
        JSONMember("environment", .string(environment)),
        JSONMember("signedTransactions", .array(signed)),
      ]))
  }
}
