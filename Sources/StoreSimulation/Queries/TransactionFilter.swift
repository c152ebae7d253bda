import StoreConfiguration

/// A filter over transactions, in the language of the house plan:
///
/// - terms separated by spaces must all match; a comma separates alternatives within a term
///   (`product:monthly,yearly`); `!` in front negates a term;
/// - bare words match the id, product, type or state;
/// - `product:`, `state:`, `type:`, `offer:` (a kind or an offer id), `id:` and `original:`
///   (a number or a range `10..20`);
/// - dates on the purchase date: `after:`, `before:`, `on:` (a year, month, day or instant) and
///   `date:A..B`.
public struct TransactionFilter: Equatable, Sendable, CustomStringConvertible {
  /// A problem with the filter's text.
  public struct ParseError: Error, Equatable, Sendable, CustomStringConvertible {
    /// What is wrong.
    public var message: String
    /// The character offset of the offending term.
    public var offset: Int
    /// Values that would be right, for completion.
    public var suggestions: [String]

    /// The message.
    public var description: String { message }
  }

  enum Field: String, CaseIterable {
    case product, state, type, offer, id, original, after, before, on, date
  }

  struct Term: Equatable {
    var field: Field?
    var values: [String]
    var negated: Bool
  }

  let terms: [Term]
  /// The filter as written.
  public let text: String

  /// The filter that keeps everything.
  public static let all = TransactionFilter(terms: [], text: "")

  private init(terms: [Term], text: String) {
    self.terms = terms
    self.text = text
  }

  /// Whether the filter keeps everything.
  public var isEmpty: Bool { terms.isEmpty }

  /// The text.
  public var description: String { text }

  /// The field names, for completion (`product:` …).
  public static var fieldNames: [String] { Field.allCases.map { $0.rawValue + ":" } }

  /// Parses a filter. Empty text keeps everything.
  public init(parsing text: String) throws(ParseError) {
    var terms: [Term] = []
    var offset = 0
    for word in text.split(separator: " ", omittingEmptySubsequences: false) {
      defer { offset += word.count + 1 }
      guard !word.isEmpty else { continue }
      var body = Substring(word)
      let negated = body.hasPrefix("!")
      if negated { body = body.dropFirst() }
      var field: Field?
      if let colon = body.firstIndex(of: ":") {
        let name = String(body[..<colon]).lowercased()
        guard let known = Field(rawValue: name) else {
          throw ParseError(
            message: "unknown field \"\(name):\"; the fields are "
              + Self.fieldNames.joined(separator: " "),
            offset: offset,
            suggestions: Self.fieldNames.filter { editDistance($0, name + ":") <= 2 })
        }
        field = known
        body = body[body.index(after: colon)...]
      }
      let values = body.split(separator: ",").map(String.init)
      guard !values.isEmpty else {
        throw ParseError(message: "\"\(word)\" needs a value", offset: offset, suggestions: [])
      }
      let term = Term(field: field, values: values, negated: negated)
      try Self.check(term, offset: offset)
      terms.append(term)
    }
    self.init(terms: terms, text: text)
  }

  private static func check(_ term: Term, offset: Int) throws(ParseError) {
    guard let field = term.field else { return }
    for value in term.values {
      switch field {
      case .state:
        guard LedgerState(filterName: value) != nil else {
          throw ParseError(
            message: "unknown state \"\(value)\"; states are "
              + LedgerState.allCases.map(\.rawValue).joined(separator: ", "),
            offset: offset,
            suggestions: LedgerState.allCases.map(\.rawValue).filter {
              editDistance($0, value.lowercased()) <= 2
            })
        }
      case .type:
        guard ProductKind(filterName: value) != nil else {
          throw ParseError(
            message:
              "unknown type \"\(value)\"; types are consumable, nonConsumable, nonRenewable, autoRenewable",
            offset: offset, suggestions: [])
        }
      case .id, .original:
        guard IDRange(value) != nil else {
          throw ParseError(
            message: "\"\(value)\" is not an id or a range such as 10..20", offset: offset,
            suggestions: [])
        }
      case .after, .before, .on:
        guard DateSpan(value) != nil else {
          throw ParseError(
            message: "\"\(value)\" is not a date such as 2026-11-22, 2026-11 or 2026-11-22T02:00Z",
            offset: offset, suggestions: [])
        }
      case .date:
        guard DateSpan(range: value) != nil else {
          throw ParseError(
            message: "\"\(value)\" is not a date range such as 2026-11-01..2026-11-30",
            offset: offset, suggestions: [])
        }
      case .product, .offer: break
      }
    }
  }

  /// The filter ready to run against the rows of a catalog: product and offer names are
  /// resolved once, so each row is a handful of integer comparisons.
  public func compiled(for catalog: Catalog) -> CompiledTransactionFilter {
    CompiledTransactionFilter(terms: terms.map { CompiledTerm($0, catalog: catalog) })
  }
}

/// A filter compiled against a catalog.
public struct CompiledTransactionFilter: Sendable {
  let terms: [CompiledTerm]

  /// Whether the row passes every term.
  @inline(__always)
  public func matches(_ row: LedgerRow) -> Bool {
    for term in terms where term.matches(row) == term.negated { return false }
    return true
  }
}

struct CompiledTerm: Sendable {
  var negated: Bool
  /// Products that match, by index (product, type, bare words).
  var products: [Bool] = []
  var checksProducts = false
  /// Matching states, one bit per `LedgerState` case.
  var states: UInt32 = 0
  /// Matching offer kinds, one bit per kind index.
  var offerKinds: UInt8 = 0
  /// (kind, index) pairs of offers named by id.
  var offers: Set<Int32> = []
  var ids: [IDRange] = []
  var originals: [IDRange] = []
  var spans: [DateSpan] = []

  init(_ term: TransactionFilter.Term, catalog: Catalog) {
    negated = term.negated
    let products = catalog.products
    func markProducts(_ predicate: (CatalogProduct) -> Bool) {
      checksProducts = true
      if self.products.isEmpty { self.products = Array(repeating: false, count: products.count) }
      for (index, product) in products.enumerated() where predicate(product) {
        self.products[index] = true
      }
    }
    func addState(_ state: LedgerState) {
      states |= 1 << UInt32(LedgerState.allCases.firstIndex(of: state)!)
    }
    for value in term.values {
      let lowered = value.lowercased()
      switch term.field {
      case .product?: markProducts { $0.productID.lowercased().contains(lowered) }
      case .type?:
        let kind = ProductKind(filterName: value)
        markProducts { ProductKind($0.type) == kind }
      case .state?: if let state = LedgerState(filterName: value) { addState(state) }
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
      case .after?: spans.append(DateSpan(from: DateSpan(value)!.start))
      case .before?: spans.append(DateSpan(until: DateSpan(value)!.start))
      case .on?: spans.append(DateSpan(value)!)
      case .date?: spans.append(DateSpan(range: value)!)
      case nil:
        if let id = UInt64(value) { ids.append(IDRange(lower: id, upper: id)) }
        if let state = LedgerState(filterName: value) { addState(state) }
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
    if states != 0, states & (1 << UInt32(row.state.index)) != 0 { return true }
    if row.offerKind >= 0 {
      if offerKinds & (1 << UInt8(row.offerKind)) != 0 { return true }
      if !offers.isEmpty, offers.contains(Int32(row.offerKind) << 16 | Int32(row.offerIndex)) {
        return true
      }
    }
    for range in ids where range.contains(row.id) { return true }
    for range in originals where range.contains(row.originalID) { return true }
    for span in spans where span.contains(row.purchaseDate) { return true }
    return false
  }
}

extension LedgerState {
  /// The case's position, for bit sets.
  @inline(__always)
  var index: Int {
    switch self {
    case .purchased: 0
    case .renewed: 1
    case .pending: 2
    case .declined: 3
    case .interrupted: 4
    case .failed: 5
    case .refunded: 6
    case .upgraded: 7
    case .expired: 8
    case .grace: 9
    case .retry: 10
    case .priceIncrease: 11
    }
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

/// A half-open span of time in milliseconds.
struct DateSpan: Equatable, Sendable {
  var start: Int64
  var end: Int64

  init(from start: Int64) {
    self.start = start
    self.end = .max
  }

  init(until end: Int64) {
    self.start = .min
    self.end = end
  }

  /// A year, month, day (their whole span) or an instant (that millisecond on).
  init?(_ text: String) {
    let parts = text.split(separator: "-")
    if !text.contains("T"), (1...3).contains(parts.count), let year = Int64(parts[0]),
      parts[0].count == 4
    {
      let month = parts.count > 1 ? Int(parts[1]) : 1
      let day = parts.count > 2 ? Int(parts[2]) : 1
      guard let month, let day, (1...12).contains(month), day >= 1, day <= daysInMonth(year, month)
      else {
        return nil
      }
      let first = CivilDateTime(year: year, month: month, day: day, millisecondOfDay: 0)
      let last: CivilDateTime =
        switch parts.count {
        case 1: first.addingMonths(12, preferredDay: 1)
        case 2: first.addingMonths(1, preferredDay: 1)
        default: CivilDateTime(first.instant.adding(milliseconds: CivilDateTime.millisecondsPerDay))
        }
      start = first.instant.milliseconds
      end = last.instant.milliseconds
      return
    }
    guard let instant = Instant(iso8601: text) else { return nil }
    start = instant.milliseconds
    end = .max
  }

  /// `A..B`: from the start of A to the end of B.
  init?(range text: String) {
    let parts = text.components(separatedBy: "..")
    guard parts.count == 2 else { return nil }
    let lower = parts[0].isEmpty ? nil : DateSpan(parts[0])
    let upper = parts[1].isEmpty ? nil : DateSpan(parts[1])
    if (!parts[0].isEmpty && lower == nil) || (!parts[1].isEmpty && upper == nil) { return nil }
    start = lower?.start ?? .min
    end = upper.map { $0.end == .max ? $0.start + 1 : $0.end } ?? .max
  }

  func contains(_ date: Int64) -> Bool { date >= start && date < end }
}

extension LedgerState {
  /// A state by its name or a common alias (`pending-approval`, `billing-retry`, `in-grace`).
  init?(filterName: String) {
    let name = filterName.lowercased().replacingOccurrences(of: "-", with: "")
    if let match = LedgerState.allCases.first(where: { $0.rawValue.lowercased() == name }) {
      self = match
      return
    }
    switch name {
    case "pendingapproval", "deferred", "asktobuy": self = .pending
    case "ingrace", "graceperiod", "ingraceperiod": self = .grace
    case "billingretry", "inbillingretry": self = .retry
    case "priceincreasepending": self = .priceIncrease
    case "revoked": self = .refunded
    default: return nil
    }
  }
}

extension ProductKind {
  /// A type by its name or a common alias (`subscription`, `non-consumable`, `RecurringSubscription`).
  init?(filterName: String) {
    let name = filterName.lowercased().replacingOccurrences(of: "-", with: "")
    if let match = ProductKind.allCases.first(where: { $0.rawValue.lowercased() == name }) {
      self = match
      return
    }
    switch name {
    case "subscription", "autorenewablesubscription", "recurringsubscription", "autorenewing":
      self = .autoRenewable
    case "nonrenewing", "nonrenewingsubscription": self = .nonRenewable
    default: return nil
    }
  }
}

extension OfferKind {
  /// A kind by its name or alias (`intro`, `promo`, `winback`).
  init?(filterName: String) {
    switch filterName.lowercased().replacingOccurrences(of: "-", with: "") {
    case "introductory", "intro": self = .introductory
    case "promotional", "promo": self = .promotional
    case "code", "offercode": self = .code
    case "winback": self = .winBack
    default: return nil
    }
  }
}
