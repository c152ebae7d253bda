/// A filter over transactions, in the language of the house plan:
///
/// - terms separated by spaces must all match; a comma separates alternatives within a term
///   (`product:monthly,yearly`); `!` in front negates a term;
/// - bare words match the id, product, type or state, and a bare date word (`today`, `7d`,
///   `11-25`) the purchase date;
/// - `product:`, `state:`, `type:`, `offer:` (a kind or an offer id), `id:` and `original:`
///   (a number or a range `10..20`);
/// - `customer:<name>` picks whose transactions are filtered (a named customer's store, as
///   `--customer` does); it matches no row itself, so it is one name, never negated;
/// - dates on the purchase date (UTC): `after:`, `before:`, `on:` and `date:A..B`, in the
///   grammar of ``DateSpan`` (days, months, the table's forms, instants, and dates relative to
///   the session's now such as `today` or `7d`);
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
    case product, state, type, offer, id, original, after, before, on, date, customer

    /// Whether the field's values are dates.
    var isDate: Bool { [.after, .before, .on, .date].contains(self) }
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

  /// Whether the filter names dates, whose spans can depend on the session's now (`today`,
  /// `7d`, `11-25` in the current year): a moving clock must compile it again.
  public var hasDates: Bool {
    terms.contains { term in
      term.field?.isDate ?? term.values.contains { DateSpan.isBareDate($0) }
    }
  }

  /// The text.
  public var description: String { text }

  /// The customer `customer:<name>` picks, if the filter names one.
  public var customer: String? {
    terms.first { $0.field == .customer }?.values.first
  }

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
      if let colon = body.firstIndex(of: ":"), !DateSpan.isBareDate(String(body)) {
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
      if field == .customer,
        negated || values.count > 1 || terms.contains(where: { $0.field == .customer })
      {
        throw ParseError(
          message: "customer: picks one customer's store: one name, not negated, once",
          offset: offset, suggestions: [])
      }
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
      case .product, .offer, .customer: break
      }
    }
  }

  /// The filter ready to run against the rows of a catalog: product and offer names are
  /// resolved once, and dates against `now` (the session's own now: `today` is its day), so
  /// each row is a handful of integer comparisons.
  public func compiled(for catalog: Catalog, now: Instant) -> CompiledTransactionFilter {
    CompiledTransactionFilter(
      terms: terms.filter { $0.field != .customer }.map {
        CompiledTerm($0, catalog: catalog, now: now.milliseconds)
      })
  }
}

extension TransactionFilter {
  /// Whether every transaction this filter keeps is one `previous` kept: each of `previous`'s
  /// terms is here, or narrowed by typing on (`product:mon` → `product:mont`, a state or type
  /// by a longer prefix), or the filter only added terms. A list filtered as you type then
  /// looks only at what `previous` kept. `false` when unsure (dates, ids, negations,
  /// alternatives and bare words change in other ways).
  public func narrows(_ previous: TransactionFilter) -> Bool {
    previous.terms.allSatisfy { old in
      terms.contains { new in new == old || new.narrows(old) }
    }
  }
}

extension TransactionFilter.Term {
  /// Whether this term keeps only what `old` kept, one being the other typed on.
  fileprivate func narrows(_ old: Self) -> Bool {
    guard field == old.field, !negated, !old.negated, values.count == 1, old.values.count == 1
    else { return false }
    switch field {
    case .product?, .state?, .type?:
      return values[0].lowercased().hasPrefix(old.values[0].lowercased())
    default: return false
    }
  }
}
