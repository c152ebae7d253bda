import StoreConfiguration

/// A filter compiled against a catalog and an instant (``TransactionFilter/compiled(for:now:)``).
public struct CompiledTransactionFilter: Sendable {
  let terms: [CompiledTerm]

  /// Whether the row passes every term.
  @inline(__always)
  public func matches(_ row: LedgerRow) -> Bool {
    // Through a buffer, each term read in place: the debug build `swift run` makes would
    // otherwise copy every term (and retain its arrays) for every row.
    terms.withUnsafeBufferPointer { terms in
      var index = 0
      while index < terms.count {
        if terms[index].matches(row) == terms[index].negated { return false }
        index += 1
      }
      return true
    }
  }

  /// Whether the two keep the same dates: when a moving clock leaves them equal, the rows
  /// they let through are the same.
  public func hasSameDates(as other: CompiledTransactionFilter) -> Bool {
    terms.map(\.spans) == other.terms.map(\.spans)
  }
}

struct CompiledTerm: Sendable {
  var negated: Bool
  /// Products that match, by index (product, type, bare words).
  var products: [Bool] = []
  var checksProducts = false
  /// Matching states, one bit per ``LedgerState/ordinal``.
  var states: UInt32 = 0
  /// Matching offer kinds, one bit per kind index.
  var offerKinds: UInt8 = 0
  /// (kind, index) pairs of offers named by id.
  var offers: Set<Int32> = []
  var ids: [IDRange] = []
  var originals: [IDRange] = []
  var spans: [DateSpan] = []

  init(_ term: TransactionFilter.Term, catalog: Catalog, now: Int64) {
    negated = term.negated
    let products = catalog.products
    func markProducts(_ predicate: (CatalogProduct) -> Bool) {
      checksProducts = true
      if self.products.isEmpty { self.products = Array(repeating: false, count: products.count) }
      for (index, product) in products.enumerated() where predicate(product) {
        self.products[index] = true
      }
    }
    func addState(_ state: LedgerState) { states |= 1 << UInt32(state.ordinal) }
    for value in term.values {
      let lowered = value.lowercased()
      switch term.field {
      case .product?: markProducts { $0.productID.lowercased().contains(lowered) }
      case .type?:
        let kinds = ProductKind.matching(filterName: value)
        markProducts { kinds.contains(ProductKind($0.type)) }
      case .state?: LedgerState.matching(filterName: value).forEach(addState)
      case .offer?:
        if let kind = OfferKind(filterName: value) {
          offerKinds |= 1 << UInt8(OfferKind.allCases.firstIndex(of: kind)!)
        }
        for product in products {
          for (kindIndex, kind) in OfferKind.allCases.enumerated() {
            for (index, offer) in product.offers(kind).enumerated()
            where offer.id?.lowercased() == lowered {
              offers.insert(Int32(kindIndex) << 16 | Int32(index))
            }
          }
        }
      case .id?: ids.append(IDRange(value)!)
      case .original?: originals.append(IDRange(value)!)
      case .after?: spans.append(DateSpan(from: DateSpan(value, now: now)!.start))
      case .before?: spans.append(DateSpan(until: DateSpan(value, now: now)!.start))
      case .on?: spans.append(DateSpan(value, now: now)!)
      case .date?: spans.append(DateSpan(range: value, now: now)!)
      case .customer?: break  // Picks whose rows, matches none (left out when compiled).
      case nil:
        if let id = UInt64(value) { ids.append(IDRange(lower: id, upper: id)) }
        if let state = LedgerState(filterName: value) { addState(state) }
        if DateSpan.isBareDate(value), let span = DateSpan(value, now: now) { spans.append(span) }
        let kind = ProductKind(filterName: value)
        markProducts { $0.productID.lowercased().contains(lowered) || ProductKind($0.type) == kind }
      }
    }
  }

  @inline(__always)
  func matches(_ row: LedgerRow) -> Bool {
    if checksProducts, row.product >= 0, Int(row.product) < products.count,
      products[Int(row.product)]
    {
      return true
    }
    if states != 0, states & (1 << UInt32(row.state.ordinal)) != 0 { return true }
    if row.offerKind >= 0 {
      if offerKinds & (1 << UInt8(row.offerKind)) != 0 { return true }
      if !offers.isEmpty, offers.contains(Int32(row.offerKind) << 16 | Int32(row.offerIndex)) {
        return true
      }
    }
    // Each list looked at only when it holds something (an iterator costs in a debug build).
    if !ids.isEmpty { for range in ids where range.contains(row.id) { return true } }
    if !originals.isEmpty {
      for range in originals where range.contains(row.originalID) { return true }
    }
    if !spans.isEmpty { for span in spans where span.contains(row.purchaseDate) { return true } }
    return false
  }
}

/// `7` or `10..20`.
struct IDRange: Equatable, Sendable {
  var lower: UInt64
  var upper: UInt64

  init(lower: UInt64, upper: UInt64) {
    self.lower = lower
    self.upper = upper
  }

  init?(_ text: String) {
    if let id = UInt64(text) {
      self.init(lower: id, upper: id)
      return
    }
    let parts = text.components(separatedBy: "..")
    guard parts.count == 2, let lower = UInt64(parts[0]), let upper = UInt64(parts[1]),
      lower <= upper
    else { return nil }
    self.init(lower: lower, upper: upper)
  }

  func contains(_ id: UInt64) -> Bool { id >= lower && id <= upper }
}
