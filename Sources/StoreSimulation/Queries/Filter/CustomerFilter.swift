import StoreUtilities

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
  }

  let terms: [Term]

  /// The filter that keeps every customer.
  public static let all = CustomerFilter(terms: [])

  private init(terms: [Term]) { self.terms = terms }

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

  /// A customer's fields as the filter reads them, lowercased once (a view that filters as
  /// you type keeps these rather than lowercasing thousands of names on every key).
  public struct Fields: Sendable {
    let values: [String]

    /// The fields of `summary`.
    public init(_ summary: CustomerSummary) {
      values = [
        (summary.customer.name ?? "").lowercased(), summary.statusName.lowercased(),
        (summary.productID ?? "").lowercased(), summary.storefront.countryCode.lowercased(),
      ]
    }
  }

  /// Whether `summary` is kept.
  public func matches(_ summary: CustomerSummary) -> Bool { matches(Fields(summary)) }

  /// Whether the customer whose fields are `fields` is kept.
  public func matches(_ fields: Fields) -> Bool {
    terms.allSatisfy { term in
      let hit = term.values.contains { value in
        guard let field = term.field else {
          return Field.allCases.contains { Self.field($0, of: fields, has: value) }
        }
        return Self.field(field, of: fields, has: value)
      }
      return hit != term.negated
    }
  }

  private static func field(_ field: Field, of fields: Fields, has value: String) -> Bool {
    switch field {
    case .name: fields.values[0].contains(value)
    case .status: fields.values[1].hasPrefix(value)
    case .product: fields.values[2].contains(value)
    case .storefront: fields.values[3].contains(value)
    }
  }
}
