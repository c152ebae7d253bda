import StoreCommands
import StoreConfiguration
import StoreSimulation

/// What Tab offers for the word under the cursor.
enum Completions {
  /// Candidates for the filter's word under the cursor: fields, then product IDs and states.
  static func filter(_ input: TextInput, _ session: Session) -> [String] {
    let word = input.wordBeforeCursor
    let negation = word.hasPrefix("!") ? "!" : ""
    let bare = word.dropFirst(negation.count)
    let productIDs = session.catalog.products.filter(\.isAvailable).map(\.productID)
    if let colon = bare.firstIndex(of: ":") {
      let field = bare[..<colon]
      let values: [String] =
        switch field {
        case "product": productIDs
        case "state": LedgerState.allCases.map(\.rawValue)
        case "type": ProductKind.allCases.map(\.rawValue)
        case "offer": ["introductory", "promotional", "code", "winBack"]
        default: []
        }
      let written = bare[bare.index(after: colon)...]
      let prefix = written.contains(",") ? String(written[...written.lastIndex(of: ",")!]) : ""
      return values.map { "\(negation)\(field):\(prefix)\($0)" }
    }
    return (TransactionFilter.fieldNames + productIDs).map { negation + $0 }
  }

  /// Candidates for the prompt's word under the cursor: verbs, then product IDs.
  static func prompt(_ input: TextInput, _ session: Session) -> [String] {
    if input.wordCountBeforeCursor <= 1 { return Command.verbs }
    return session.catalog.products.filter(\.isAvailable).map(\.productID) + [
      "last", "all", "next", "on", "off",
    ]
  }
}
