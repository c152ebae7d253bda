import StoreCommands
import StoreSimulation

/// What Tab offers for the word under the cursor.
enum Completions {
  /// Candidates for the filter's word under the cursor: fields, then each field's values
  /// (products, states, types, offer kinds and ids, dates).
  static func filter(_ input: TextInput, _ session: SessionView) -> [String] {
    let word = input.wordBeforeCursor
    let negation = word.hasPrefix("!") ? "!" : ""
    let bare = word.dropFirst(negation.count)
    let productIDs = availableProductIDs(session)
    if let colon = bare.firstIndex(of: ":") {
      let field = bare[..<colon]
      let values: [String] =
        switch field {
        case "product": productIDs
        case "state": LedgerState.allCases.map(\.rawValue)
        case "type": ProductKind.allCases.map(\.rawValue) + ["subscription"]
        case "offer": ["introductory", "promotional", "code", "winBack"] + offerIDs(session)
        case "customer": session.customers.compactMap(\.name)
        case "after", "before", "on", "date":
          ["today", "yesterday", "this-month", "last-month", "this-year", "7d", "24h"]
            + [String(Formatting.clock(session.now).dropFirst(5).prefix(5))]
        default: []
        }
      let written = bare[bare.index(after: colon)...]
      let prefix = written.contains(",") ? String(written[...written.lastIndex(of: ",")!]) : ""
      return values.map { "\(negation)\(field):\(prefix)\($0)" }
    }
    return (TransactionFilter.fieldNames + productIDs + LedgerState.allCases.map(\.rawValue))
      .map { negation + $0 }
  }

  /// Candidates for the prompt's word under the cursor, from the verb table
  /// (``Command/completions(for:)``): verbs, each verb's arguments (transactions, products, the
  /// words it takes), its options and their values (a product's own offers after `offer=`).
  static func prompt(_ input: TextInput, _ session: SessionView) -> [String] {
    let words = input.text.prefix(input.cursor).split(
      separator: " ", omittingEmptySubsequences: false
    ).map(String.init)
    let prefix =
      words.last.flatMap { word in
        word.firstIndex(of: "=").map { String(word[...$0]) }
      } ?? ""
    return Command.completions(for: words).flatMap { source -> [String] in
      switch source {
      case .words(let words): words
      case .kind(let kind, let before):
        candidates(kind, before: before, session).map { prefix + $0 }
      }
    }
  }

  /// The words a kind of word may be in this session.
  private static func candidates(
    _ kind: WordKind, before: [String], _ session: SessionView
  ) -> [String] {
    switch kind {
    case .transaction(let words): transactionReferences(session) + words
    case .product(let subscriptions):
      subscriptions ? subscriptionIDs(session) : availableProductIDs(session)
    case .choice(let words): words.filter { !$0.hasPrefix("<") }
    case .advance: ["next", "30s", "5m", "1h", "1d", "1w", "1mo", "1y"]
    case .duration: ["10s", "1m", "1h"]
    case .number(let range):
      [1, 2, 5, 7, 10, 30, 90].filter(range.contains).map(String.init)
    case .decimal: ["50", "25"]
    case .instant: [session.now.iso8601]
    case .uuid: []
    case .offer: before.first.map { offers(of: $0, session) } ?? []
    case .winBackOffer: session.catalog.products.flatMap(\.winBackOffers).compactMap(\.id)
    case .member: session.familyMembers.map(\.name)
    case .customer: session.customers.compactMap(\.name)
    case .setting, .delivery, .api, .text, .family, .retention, .imported, .commerceBody: []
    }
  }

  /// A product's offers as `offer=` takes them.
  private static func offers(of productID: String, _ session: SessionView) -> [String] {
    guard let product = session.catalog.product(productID) else { return [] }
    return (product.introductoryOffer == nil ? [] : ["intro"])
      + product.promotionalOffers.compactMap { $0.id.map { "promo:\($0)" } }
      + product.codeOffers.compactMap { $0.id.map { "code:\(quoted($0))" } }
      + product.winBackOffers.compactMap { $0.id.map { "winback:\($0)" } }
  }

  private static func quoted(_ text: String) -> String {
    text.contains(" ") ? "\"\(text)\"" : text
  }

  private static func availableProductIDs(_ session: SessionView) -> [String] {
    session.catalog.products.filter(\.isAvailable).map(\.productID)
  }

  private static func subscriptionIDs(_ session: SessionView) -> [String] {
    session.catalog.products.filter { $0.isAvailable && $0.groupIndex != nil }.map(\.productID)
  }

  /// `last`, `last:<product>` for products bought, and the newest transaction ids (at most 30:
  /// a million would say nothing).
  private static func transactionReferences(_ session: SessionView) -> [String] {
    var references = ["last"]
    var ids: [String] = []
    var next = session.nextTransactionID
    while ids.count < 30 && next > session.options.firstTransactionID {
      next -= 1
      if session.ledgerRow(next) != nil { ids.append(String(next)) }
      if session.nextTransactionID - next > 10_000 { break }
    }
    for product in session.catalog.products
    where session.lastTransactionID(productID: product.productID) != nil {
      references.append("last:\(product.productID)")
    }
    return references + ids
  }

  private static func offerIDs(_ session: SessionView) -> [String] {
    var seen = Set<String>()
    return session.catalog.products.flatMap { product in
      (product.promotionalOffers + product.codeOffers + product.winBackOffers).compactMap(\.id)
    }.filter { seen.insert($0).inserted }
  }
}
