import StoreCommands
import StoreConfiguration
import StoreSimulation

/// What Tab offers for the word under the cursor.
enum Completions {
  /// Candidates for the filter's word under the cursor: fields, then each field's values
  /// (products, states, types, offer kinds and ids, dates).
  static func filter(_ input: TextInput, _ session: Session) -> [String] {
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

  /// Candidates for the prompt's word under the cursor, by the verb: product IDs after `buy`,
  /// transactions after `refund`, setting names and then their values after `set`, the
  /// product's offers after `offer=`, each verb's options.
  static func prompt(_ input: TextInput, _ session: Session) -> [String] {
    let words = input.text.prefix(input.cursor).split(
      separator: " ", omittingEmptySubsequences: false
    ).map(String.init)
    guard words.count > 1 else { return Command.verbs }
    let verb = words[0]
    let position = words.count - 1
    let word = words[position]
    if let equals = word.firstIndex(of: "=") {
      let key = String(word[..<equals])
      return optionValues(key, verb: verb, product: words.count > 1 ? words[1] : "", session)
        .map { "\(key)=\($0)" }
    }
    let transactions = transactionReferences(session)
    switch verb {
    case "buy":
      return position == 1
        ? availableProductIDs(session)
        : ["quantity=", "offer=", "token=", "date=", "renew=", "from="]
    case "approve", "decline", "resolve", "refund-decline", "refund-reverse", "finish", "delete":
      return position == 1 ? transactions + (verb == "finish" ? ["all"] : []) : []
    case "refund": return position == 1 ? transactions : ["reason=", "percentage="]
    case "refund-request": return position == 1 ? transactions : ["reason="]
    case "extend": return position == 1 ? transactions : ["days=", "reason="]
    case "extend-all":
      return position == 1 ? subscriptionIDs(session) : ["days=", "reason=", "request="]
    case "auto-renew": return position == 1 ? transactions : ["on", "off"]
    case "account-token": return position == 1 ? transactions : ["none"]
    case "consumption":
      return position == 1 ? transactions : ConsumptionInformation.fieldNames.map { "\($0)=" }
    case "expire", "renew": return position == 1 ? subscriptionIDs(session) : []
    case "price-increase":
      return position == 1 ? ["request", "consent", "decline"] : position == 2 ? transactions : []
    case "advance":
      return position == 1 ? ["next", "30s", "5m", "1h", "1d", "1w", "1mo", "1y"] : []
    case "call": return position == 1 ? Command.callNames.map(\.0) + ["receipt"] : transactions
    case "notify":
      return position == 1
        ? ["retry", "fault"] : words[1] == "fault" ? faults(words.dropFirst(2)) : []
    case "set":
      return position == 1
        ? SettingDescriptor.all.map(\.command) + ["winback-eligible", "notify-fault"]
        : words[1] == "notify-fault" ? faults(words.dropFirst(2)) : settingValues(words, session)
    default: return []
    }
  }

  /// The fault names after `notify fault` / `set notify-fault`, then a delay's durations.
  private static func faults(_ words: ArraySlice<String>) -> [String] {
    switch words.count {
    case 1: ["off", "drop", "duplicate", "delay"]
    case 2 where words.first == "delay": ["10s", "1m", "1h"]
    default: []
    }
  }

  /// The values a `set` setting takes, then (for `error`) the API's errors.
  private static func settingValues(_ words: [String], _ session: Session) -> [String] {
    if words[1] == "winback-eligible" {
      return words.count == 3
        ? session.catalog.products.flatMap(\.winBackOffers).compactMap(\.id)
        : words.count == 4 ? ["on", "off"] : []
    }
    guard let descriptor = SettingDescriptor.named(words[1]) else { return [] }
    switch descriptor.kind {
    case .flag: return words.count == 3 ? ["on", "off"] : []
    case .failure: return words.count == 3 ? ["off"] + SKErrorCode.failureErrors.map(\.name) : []
    case .errors:
      if words.count == 3 { return Command.errorAPINames.map(\.0) }
      guard words.count == 4, let api = Command.errorAPINames.first(where: { $0.0 == words[2] })
      else { return [] }
      return ["off"] + SimulatedError.all.filter(api.1.accepts).map(\.name)
    case .storefront: return words.count == 3 ? Storefront.all.map(\.countryCode) : []
    case .locale: return words.count == 3 ? Storefront.all.map(\.defaultLocale) : []
    case .timeRate: return words.count == 3 ? TimeRate.allCases.map(\.name) : []
    }
  }

  /// The values of `key=` for a verb (`offer=` lists the product's own offers).
  private static func optionValues(
    _ key: String, verb: String, product: String, _ session: Session
  ) -> [String] {
    switch (verb, key) {
    case ("buy", "offer"):
      guard let product = session.catalog.product(product) else { return [] }
      return (product.introductoryOffer == nil ? [] : ["intro"])
        + product.promotionalOffers.compactMap { $0.id.map { "promo:\($0)" } }
        + product.codeOffers.compactMap { $0.id.map { "code:\(quoted($0))" } }
        + product.winBackOffers.compactMap { $0.id.map { "winback:\($0)" } }
    case ("buy", "renew"): return ["auto", "once"]
    case ("buy", "from"): return ["app", "store"]
    case ("buy", "quantity"): return ["1", "2", "5", "10"]
    case ("refund", "reason"): return RevocationReason.allCases.map(\.rawValue)
    case ("refund", "percentage"): return ["50", "25"]
    case ("refund-request", "reason"): return RefundRequestReason.allCases.map(\.rawValue)
    case ("extend", "reason"), ("extend-all", "reason"):
      return ExtendReason.allCases.map(\.rawValue)
    case ("extend", "days"), ("extend-all", "days"): return ["1", "7", "30", "90"]
    default: return []
    }
  }

  private static func quoted(_ text: String) -> String {
    text.contains(" ") ? "\"\(text)\"" : text
  }

  private static func availableProductIDs(_ session: Session) -> [String] {
    session.catalog.products.filter(\.isAvailable).map(\.productID)
  }

  private static func subscriptionIDs(_ session: Session) -> [String] {
    session.catalog.products.filter { $0.isAvailable && $0.groupIndex != nil }.map(\.productID)
  }

  /// `last`, `last:<product>` for products bought, and the newest transaction ids (at most 30:
  /// a million would say nothing).
  private static func transactionReferences(_ session: Session) -> [String] {
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

  private static func offerIDs(_ session: Session) -> [String] {
    var seen = Set<String>()
    return session.catalog.products.flatMap { product in
      (product.promotionalOffers + product.codeOffers + product.winBackOffers).compactMap(\.id)
    }.filter { seen.insert($0).inserted }
  }
}
