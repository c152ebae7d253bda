import StoreJSON
import StoreSimulation

extension Verb {
  static let imports: [Verb] = [
    Verb(
      "import", [.init(.imported)],
      "an imported customer's history, as storekeeper import writes it: transaction places one "
        + "of Apple's decoded transactions under its own id; renewal sets a subscription to "
        + "Apple's status and renewal info (\"status\" beside its fields)",
      parse: { words throws(CommandError) in
        let kind = try words.word("transaction or renewal")
        guard kind == "transaction" || kind == "renewal" else {
          throw CommandError("import takes transaction or renewal, not \"\(kind.prefix(40))\"")
        }
        let text = try words.word("Apple's decoded payload as one JSON object")
        guard case .object(let object)? = try? JSONParser.parse(Array(text.utf8)).root else {
          throw CommandError("import \(kind): the payload must be one JSON object")
        }
        return kind == "transaction"
          ? .importTransaction(try ImportedTransaction(payload: object))
          : .importRenewal(try ImportedRenewal(payload: object))
      },
      words: { command in
        switch command {
        case .importTransaction(let imported):
          ["import", "transaction", JSONWriter.compact(.object(imported.payload))]
        case .importRenewal(let renewal):
          ["import", "renewal", JSONWriter.compact(.object(renewal.payload))]
        default: nil
        }
      })
  ]
}
