import StoreConfiguration

/// A filter over transactions, in the language of the house plan:
///
/// - terms separated by spaces must all match; a comma separates alternatives within a term
///   (`product:monthly,yearly`); `!` in front negates a term;
/// - bare words match the id, product, type or state;
/// - `product:`, `state:`, `type:`, `offer:` (a kind or an offer id), `id:` and `original:`
///   (a number or a range `10..20`);
/// - dates on the purchase date (UTC): `after:`, `before:`, `on:` and `date:A..B`, each a year,
///   month or day (`2026`, `2026-11`, `2026-11-23`), the table's forms (`11-23`, `"11-23 14:05"`,
///   `"2025-11-23 14:05"`, the minute or second they name), an ISO-8601 instant, or a date
///   relative to the session's now (`today`, `yesterday`, `this-month`, `last-month`,
///   `this-year`, `7d`, `12h`, `2w`: the last days, hours or weeks);
/// - states and types match by prefix (`state:ret` is retry); `"…"` quotes a value with spaces.
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
    for (offset, word) in Self.words(text) {
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

  /// The words of a filter with their character offsets: split at spaces outside double
  /// quotes, the quotes removed.
  static func words(_ text: String) -> [(offset: Int, word: String)] {
    var words: [(Int, String)] = []
    var current = ""
    var start = 0
    var quoted = false
    for (offset, character) in text.enumerated() {
      if character == "\"" {
        quoted.toggle()
      } else if character == " " && !quoted {
        if !current.isEmpty { words.append((start, current)) }
        current = ""
      } else {
        if current.isEmpty { start = offset }
        current.append(character)
      }
    }
    if !current.isEmpty { words.append((start, current)) }
    return words
  }

  private static func check(_ term: Term, offset: Int) throws(ParseError) {
    guard let field = term.field else { return }
    for value in term.values {
      switch field {
      case .state:
        guard !LedgerState.matching(filterName: value).isEmpty else {
          throw ParseError(
            message: "unknown state \"\(value)\"; states are "
              + LedgerState.allCases.map(\.rawValue).joined(separator: ", "),
            offset: offset,
            suggestions: LedgerState.allCases.map(\.rawValue).filter {
              editDistance($0, value.lowercased()) <= 2
            })
        }
      case .type:
        guard !ProductKind.matching(filterName: value).isEmpty else {
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
        guard DateSpan(value, now: DateSpan.leapYear) != nil else {
          throw ParseError(
            message: "\"\(value)\" is not a date such as 2026-11-23, 11-23, \"11-23 14:05\", "
              + "today, yesterday, 7d or this-month",
            offset: offset,
            suggestions: DateSpan.keywords.filter { $0.hasPrefix(value.lowercased()) })
        }
      case .date:
        guard DateSpan(range: value, now: DateSpan.leapYear) != nil else {
          throw ParseError(
            message: "\"\(value)\" is not a date range such as 2026-11-01..2026-11-30",
            offset: offset, suggestions: [])
        }
      case .product, .offer: break
      }
    }
  }

  /// The filter ready to run against the rows of a catalog: product and offer names are
  /// resolved once, and relative dates (`today`, `7d`) against `now`, so each row is a handful
  /// of integer comparisons.
  public func compiled(for catalog: Catalog, now: Instant) -> CompiledTransactionFilter {
    CompiledTransactionFilter(
      terms: terms.map { CompiledTerm($0, catalog: catalog, now: now.milliseconds) })
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
    func addState(_ state: LedgerState) {
      states |= 1 << UInt32(LedgerState.allCases.firstIndex(of: state)!)
    }
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

  /// Words for dates relative to now, for messages and completion.
  static let keywords = ["today", "yesterday", "this-month", "last-month", "this-year", "7d"]

  /// A now in a leap year: syntax is checked against it (so `02-29` passes), spans are made
  /// against the session's now.
  static let leapYear = Instant(iso8601: "2024-06-15T12:00:00Z")!.milliseconds

  /// A date as the filter reads it (``TransactionFilter``'s grammar), in UTC; `now` anchors the
  /// relative forms and gives the year to `MM-DD`.
  init?(_ text: String, now: Int64) {
    let lowered = text.lowercased()
    let today = CivilDateTime(Instant(milliseconds: now))
    let midnight = CivilDateTime(
      year: today.year, month: today.month, day: today.day, millisecondOfDay: 0)
    let day = CivilDateTime.millisecondsPerDay
    let firstOfMonth = CivilDateTime(
      year: today.year, month: today.month, day: 1, millisecondOfDay: 0)
    switch lowered {
    case "today": self.init(midnight.instant.milliseconds, midnight.instant.milliseconds + day)
    case "yesterday":
      self.init(midnight.instant.milliseconds - day, midnight.instant.milliseconds)
    case "this-month":
      self.init(
        firstOfMonth.instant.milliseconds,
        firstOfMonth.addingMonths(1, preferredDay: 1).instant.milliseconds)
    case "last-month":
      self.init(
        firstOfMonth.addingMonths(-1, preferredDay: 1).instant.milliseconds,
        firstOfMonth.instant.milliseconds)
    case "this-year":
      let january = CivilDateTime(year: today.year, month: 1, day: 1, millisecondOfDay: 0)
      self.init(
        january.instant.milliseconds, january.addingMonths(12, preferredDay: 1).instant.milliseconds
      )
    default:
      if let unit = lowered.last, let count = Int64(lowered.dropLast()), count >= 0,
        count <= 100_000, let length = ["h": 3_600_000, "d": day, "w": 7 * day][unit]
      {
        self.init(from: now - count * length)
      } else if let span = Self.calendar(lowered, year: today.year) {
        self = span
      } else if let instant = Instant(iso8601: text) {
        self.init(from: instant.milliseconds)
      } else {
        return nil
      }
    }
  }

  private init(_ start: Int64, _ end: Int64) {
    self.start = start
    self.end = end
  }

  /// `2026`, `2026-11`, `2026-11-23`, `11-23` (in `year`), each optionally followed by a time
  /// `HH:MM` or `HH:MM:SS` (after a space or `T`, no zone: UTC): the whole span they name.
  private static func calendar(_ text: String, year: Int64) -> DateSpan? {
    let pieces = text.split(omittingEmptySubsequences: false) { $0 == " " || $0 == "t" }
    guard (1...2).contains(pieces.count) else { return nil }
    let parts = pieces[0].split(separator: "-", omittingEmptySubsequences: false)
    let numbers = parts.map { Int64($0) }
    guard (1...3).contains(parts.count), !numbers.contains(nil) else { return nil }
    let hasYear = parts[0].count == 4
    guard hasYear || (parts.count == 2 && parts[0].count == 2) else { return nil }
    let values = numbers.map { $0! }
    let theYear = hasYear ? values[0] : year
    let month = Int(hasYear ? (parts.count > 1 ? values[1] : 1) : values[0])
    let dayOfMonth = Int(hasYear ? (parts.count > 2 ? values[2] : 1) : values[1])
    guard (1...12).contains(month), dayOfMonth >= 1,
      dayOfMonth <= daysInMonth(theYear, month)
    else { return nil }
    let first = CivilDateTime(year: theYear, month: month, day: dayOfMonth, millisecondOfDay: 0)
    let precision = hasYear ? parts.count : 3
    if pieces.count == 2 {
      // A time needs a whole day before it.
      guard precision == 3 else { return nil }
      let clock = pieces[1].split(separator: ":").map { Int64($0) }
      guard (2...3).contains(clock.count), !clock.contains(nil) else { return nil }
      let (hour, minute, second) = (clock[0]!, clock[1]!, clock.count == 3 ? clock[2]! : 0)
      guard (0..<24).contains(hour), (0..<60).contains(minute), (0..<60).contains(second) else {
        return nil
      }
      let start =
        first.instant.milliseconds + ((hour * 60 + minute) * 60 + second) * 1000
      return DateSpan(start, start + (clock.count == 3 ? 1000 : 60_000))
    }
    let last: CivilDateTime =
      switch precision {
      case 1: first.addingMonths(12, preferredDay: 1)
      case 2: first.addingMonths(1, preferredDay: 1)
      default: CivilDateTime(first.instant.adding(milliseconds: CivilDateTime.millisecondsPerDay))
      }
    return DateSpan(first.instant.milliseconds, last.instant.milliseconds)
  }

  /// `A..B`: from the start of A to the end of B.
  init?(range text: String, now: Int64) {
    let parts = text.components(separatedBy: "..")
    guard parts.count == 2 else { return nil }
    let lower = parts[0].isEmpty ? nil : DateSpan(parts[0], now: now)
    let upper = parts[1].isEmpty ? nil : DateSpan(parts[1], now: now)
    if (!parts[0].isEmpty && lower == nil) || (!parts[1].isEmpty && upper == nil) { return nil }
    start = lower?.start ?? .min
    end = upper.map { $0.end == .max ? $0.start + 1 : $0.end } ?? .max
  }

  func contains(_ date: Int64) -> Bool { date >= start && date < end }
}

extension LedgerState {
  /// The states a filter value names: the one it spells (or an alias of), else every state
  /// whose name or alias starts with it (`ret` is retry; `re` renewed, refunded and retry).
  static func matching(filterName: String) -> [LedgerState] {
    if let exact = LedgerState(filterName: filterName) { return [exact] }
    let prefix = filterName.lowercased().replacingOccurrences(of: "-", with: "")
    guard !prefix.isEmpty else { return [] }
    let names = allCases.map { ($0, $0.rawValue.lowercased()) } + aliases
    return allCases.filter { state in
      names.contains { $0.0 == state && $0.1.hasPrefix(prefix) }
    }
  }

  private static let aliases: [(LedgerState, String)] = [
    (.pending, "pendingapproval"), (.pending, "deferred"), (.pending, "asktobuy"),
    (.grace, "ingrace"), (.grace, "graceperiod"), (.grace, "ingraceperiod"),
    (.retry, "billingretry"),
    (.retry, "inbillingretry"), (.priceIncrease, "priceincreasepending"), (.refunded, "revoked"),
  ]

  /// A state by its name or a common alias (`pending-approval`, `billing-retry`, `in-grace`).
  init?(filterName: String) {
    let name = filterName.lowercased().replacingOccurrences(of: "-", with: "")
    if let match = LedgerState.allCases.first(where: { $0.rawValue.lowercased() == name }) {
      self = match
      return
    }
    guard let alias = Self.aliases.first(where: { $0.1 == name }) else { return nil }
    self = alias.0
  }
}

extension ProductKind {
  /// The types a filter value names: the one it spells (or an alias of), else every type whose
  /// name or alias starts with it (`cons` is consumable; `non` non-consumable and non-renewing).
  static func matching(filterName: String) -> [ProductKind] {
    if let exact = ProductKind(filterName: filterName) { return [exact] }
    let prefix = filterName.lowercased().replacingOccurrences(of: "-", with: "")
    guard !prefix.isEmpty else { return [] }
    let names = allCases.map { ($0, $0.rawValue.lowercased()) } + aliases
    return allCases.filter { kind in names.contains { $0.0 == kind && $0.1.hasPrefix(prefix) } }
  }

  private static let aliases: [(ProductKind, String)] = [
    (.autoRenewable, "subscription"), (.autoRenewable, "autorenewablesubscription"),
    (.autoRenewable, "recurringsubscription"), (.autoRenewable, "autorenewing"),
    (.nonRenewable, "nonrenewing"), (.nonRenewable, "nonrenewingsubscription"),
  ]

  /// A type by its name or a common alias (`subscription`, `non-consumable`, `RecurringSubscription`).
  init?(filterName: String) {
    let name = filterName.lowercased().replacingOccurrences(of: "-", with: "")
    if let match = ProductKind.allCases.first(where: { $0.rawValue.lowercased() == name }) {
      self = match
      return
    }
    guard let alias = Self.aliases.first(where: { $0.1 == name }) else { return nil }
    self = alias.0
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
