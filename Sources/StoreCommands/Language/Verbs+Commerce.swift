import StoreJSON
import StoreSimulation

extension Verb {
  static let commerce: [Verb] = [
    Verb(
      "commerce",
      [
        .init(.choice(CommerceOperation.allCases.map(\.word))), .init(.transaction(or: [])),
        .init(.commerceBody),
      ],
      "an Advanced Commerce API request of the app's server (cancel, revoke, change-price, "
        + "change-metadata, migrate, refund), its body Apple's JSON",
      parse: { words throws(CommandError) in
        let word = try words.word("an operation")
        guard let operation = CommerceOperation.allCases.first(where: { $0.word == word }) else {
          throw CommandError(
            "commerce takes "
              + CommerceOperation.allCases.map(\.word).joined(separator: ", ")
              + ", not \"\(word.prefix(40))\"")
        }
        let reference = try words.transaction()
        let text = try words.word("the request's body as one JSON object")
        guard case .object(let body)? = try? JSONParser.parse(Array(text.utf8)).root else {
          throw CommandError("commerce \(word): the body must be one JSON object")
        }
        return .commerce(try CommerceCommand(operation, reference, body: body))
      },
      words: { command in
        guard case .commerce(let call) = command else { return nil }
        return [
          "commerce", call.operation.word, "\(call.reference)",
          JSONWriter.compact(.object(call.body)),
        ]
      })
  ]
}
