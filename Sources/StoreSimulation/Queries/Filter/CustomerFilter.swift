/// A filter over customers (``CustomerSummary``), in the transaction filter's grammar: terms
/// separated by spaces must all match, a comma separates alternatives, `!` negates a term;
/// `name:`, `status:` (by prefix, case-insensitive: `status:inbill`, `status:none`),
/// `product:` and `storefront:` (part of the product id, the storefront's code); a bare word
/// matches any of them.
public struct CustomerFilter: Equatable, Sendable {
  enum Field: String, CaseIterable {
    case name, status, product, storefront
  }

  struct Term: Equatable {
    var field: Field?
    var values: [String]
    var negated: Bool
    /// The values' UTF-8 bytes, which each customer's fields are searched for.
    var bytes: [[UInt8]] { values.map { Array($0.utf8) } }
  }

  /// Each term's values as bytes, made once per filter (a keystroke searches thousands of
  /// customers with them).
  private let needles: [[[UInt8]]]

  let terms: [Term]

  /// The filter that keeps every customer.
  public static let all = CustomerFilter(terms: [])

  private init(terms: [Term]) {
    self.terms = terms
    needles = terms.map(\.bytes)
  }

  /// Filters with the same terms are equal.
  public static func == (lhs: CustomerFilter, rhs: CustomerFilter) -> Bool {
    lhs.terms == rhs.terms
  }

  /// The statuses' words, for completion and messages.
  public static let statusNames = RenewalState.allCases.map(\.rawValue) + ["none"]

  /// Parses a filter; empty text keeps everyone.
  ///
  /// - Throws: ``TransactionFilter/ParseError`` naming an unknown field or status.
  public init(parsing text: String) throws(TransactionFilter.ParseError) {
    var terms: [Term] = []
    for (offset, word) in TransactionFilter.words(text) {
      var body = Substring(word)
      let negated = body.hasPrefix("!")
      if negated { body = body.dropFirst() }
      var field: Field?
      if let colon = body.firstIndex(of: ":") {
        let name = String(body[..<colon]).lowercased()
        guard let known = Field(rawValue: name) else {
          let names = Field.allCases.map { $0.rawValue + ":" }
          throw TransactionFilter.ParseError(
            message: "unknown field \"\(name):\"; the fields are " + names.joined(separator: " "),
            offset: offset, suggestions: names.filter { editDistance($0, name + ":") <= 2 })
        }
        field = known
        body = body[body.index(after: colon)...]
      }
      let values = body.split(separator: ",").map { $0.lowercased() }
      guard !values.isEmpty else {
        throw TransactionFilter.ParseError(
          message: "\"\(word)\" needs a value", offset: offset, suggestions: [])
      }
      if field == .status, let wrong = values.first(where: { !Self.isStatus($0) }) {
        throw TransactionFilter.ParseError(
          message: "unknown status \"\(wrong)\"; statuses are "
            + Self.statusNames.joined(separator: ", "),
          offset: offset, suggestions: Self.statusNames.filter { $0.lowercased().hasPrefix(wrong) })
      }
      terms.append(Term(field: field, values: values, negated: negated))
    }
    self.init(terms: terms)
  }

  private static func isStatus(_ value: String) -> Bool {
    statusNames.contains { $0.lowercased().hasPrefix(value) }
  }

  /// Whether the filter keeps everyone.
  public var isEmpty: Bool { terms.isEmpty }

  /// A customer's fields as the filter reads them, lowercased once and kept as bytes (a view
  /// that filters as you type searches these rather than lowercasing thousands of names, and
  /// compares bytes rather than going through Foundation's string search, on every key).
  public struct Fields: Sendable {
    let values: [[UInt8]]

    /// The fields of `summary`.
    public init(_ summary: CustomerSummary) {
      values = [
        (summary.customer.name ?? "").lowercased(), summary.statusName.lowercased(),
        (summary.productID ?? "").lowercased(), summary.storefront.countryCode.lowercased(),
      ].map { Array($0.utf8) }
    }
  }

  /// Whether `summary` is kept.
  public func matches(_ summary: CustomerSummary) -> Bool { matches(Fields(summary)) }

  /// Whether the customer whose fields are `fields` is kept.
  ///
  /// - Complexity: O(*t* × *f*) byte comparisons for *t* terms over fields of *f* bytes.
  public func matches(_ fields: Fields) -> Bool {
    for (term, values) in zip(terms, needles) {
      var hit = false
      for value in values where !hit {
        if let field = term.field {
          hit = Self.field(field, of: fields, has: value)
        } else {
          hit = Field.allCases.contains { Self.field($0, of: fields, has: value) }
        }
      }
      if hit == term.negated { return false }
    }
    return true
  }

  private static func field(_ field: Field, of fields: Fields, has value: [UInt8]) -> Bool {
    switch field {
    case .name: contains(fields.values[0], value)
    case .status: fields.values[1].starts(with: value)
    case .product: contains(fields.values[2], value)
    case .storefront: contains(fields.values[3], value)
    }
  }

  /// Whether `needle`'s bytes appear in `haystack` (both short: names, product ids, codes).
  private static func contains(_ haystack: [UInt8], _ needle: [UInt8]) -> Bool {
    guard needle.count <= haystack.count else { return false }
    guard let first = needle.first else { return true }
    var start = 0
    while start + needle.count <= haystack.count {
      if haystack[start] == first {
        var offset = 1
        while offset < needle.count && haystack[start + offset] == needle[offset] { offset += 1 }
        if offset == needle.count { return true }
      }
      start += 1
    }
    return false
  }
}

extension CustomerFilter {
  /// Whether every customer this filter keeps is one `previous` kept: each of `previous`'s
  /// terms is here, or typed on (`status:in` → `status:inb`, `name:c0` → `name:c00`), or the
  /// filter only added terms. `false` when unsure (negations and alternatives).
  public func narrows(_ previous: CustomerFilter) -> Bool {
    previous.terms.allSatisfy { old in
      terms.contains { new in
        new == old
          || (new.field == old.field && !new.negated && !old.negated && new.values.count == 1
            && old.values.count == 1 && new.values[0].hasPrefix(old.values[0]))
      }
    }
  }
}
