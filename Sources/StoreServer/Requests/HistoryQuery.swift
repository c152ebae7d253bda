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
  /// `inAppOwnershipType`: only `PURCHASED` or only `FAMILY_SHARED` transactions.
  var ownership: Ownership?
  /// Whether the history walked is a family member's (all of it `FAMILY_SHARED`).
  var rowsAreShared = false
  /// Where the previous page ended: this one resumes after it.
  var after: HistoryCursor?
  /// v1 leaves out finished consumables (but refunded or revoked ones); v2 lists them.
  var includesFinishedConsumables: Bool
  /// Which catalog products are consumables (by index).
  var consumables: [Bool] = []

  /// The query a request's parameters describe, or Apple's error for the first bad one.
  init(_ query: [String: [String]], version: String) throws(AppStoreError) {
    includesFinishedConsumables = version == "v2"
    func one(_ name: String) -> String? { query[name]?.last }
    func date(
      _ name: String, _ error: AppStoreServerAPIError, _ message: String
    ) throws(AppStoreError) -> Int64? {
      guard let text = one(name) else { return nil }
      guard let value = Int64(text), value >= 0 else {
        throw AppStoreError(error, message: message)
      }
      return value
    }
    startDate = try date("startDate", .invalidStartDate, "Invalid request start date.")
    endDate = try date("endDate", .invalidEndDate, "Invalid request end date.")
    if let startDate, let endDate, startDate > endDate {
      throw AppStoreError(.startDateAfterEndDate)
    }
    productIDs = Set(query["productId"] ?? [])
    for text in query["productType"] ?? [] {
      guard let kind = Self.productTypes[text] else {
        throw AppStoreError(.invalidProductType)
      }
      productTypes.insert(kind)
    }
    switch one("sort") {
    case nil, "ASCENDING"?: ascending = true
    case "DESCENDING"?: ascending = false
    default: throw AppStoreError(.invalidSort)
    }
    groupIDs = Set(query["subscriptionGroupIdentifier"] ?? [])
    if let value = one("inAppOwnershipType") {
      guard let wanted = Ownership(rawValue: value) else {
        throw AppStoreError(.invalidInAppOwnershipType)
      }
      ownership = wanted
    }
    switch one("revoked")?.lowercased() {
    case nil: break
    case "true"?: revoked = true
    case "false"?: revoked = false
    default: throw AppStoreError(.invalidRevoked)
    }
    after = try HistoryCursor(revision: one("revision"))
  }

  /// Apple's product type names.
  static let productTypes: [String: ProductKind] = [
    "AUTO_RENEWABLE": .autoRenewable, "NON_RENEWABLE": .nonRenewable, "CONSUMABLE": .consumable,
    "NON_CONSUMABLE": .nonConsumable,
  ]

  /// Whether a transaction (by its ledger row) belongs in the history; `products` says which
  /// catalog products the query admits.
  func admits(_ row: LedgerRow, products: [Bool]) -> Bool {
    guard
      row.isInHistory(
        consumable: consumables[Int(row.product)],
        withFinishedConsumables: includesFinishedConsumables),
      ownership == nil || ownership == (rowsAreShared ? .familyShared : .purchased),
      products[Int(row.product)]
    else { return false }
    if let startDate, row.purchaseDate < startDate { return false }
    if let endDate, row.purchaseDate >= endDate { return false }
    if let revoked, (row.state == .refunded || row.state == .revoked) != revoked { return false }
    return true
  }
}
