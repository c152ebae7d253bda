import PropertyBased
import StoreSimulation
import Testing

@testable import StoreCommands

/// The verb table is the language: every verb, with arguments and options generated from its
/// own description, parses, prints and parses back to the same command.
@Suite struct VerbTableTests {
  /// Draws choices from a list of numbers, round and round.
  struct Draws {
    var numbers: [Int]
    var index = 0

    mutating func next(_ bound: Int) -> Int {
      defer { index += 1 }
      guard bound > 1 else { return 0 }
      return numbers.isEmpty ? 0 : abs(numbers[index % numbers.count]) % bound
    }

    mutating func pick<T>(_ values: [T]) -> T { values[next(values.count)] }
  }

  /// A word of a kind, as a person might type it.
  static func word(
    _ kind: WordKind, _ draws: inout Draws, forcing forced: Set<String> = []
  ) -> [String] {
    switch kind {
    case .transaction(let extra):
      return [draws.pick(["\(draws.next(5000))", "last", "last:socialfeed.monthly"] + extra)]
    case .product: return [draws.pick(["socialfeed.monthly", "foodtruck.donuts.box", "x.y-z"])]
    case .choice(let words):
      let word = words.first(where: forced.contains) ?? draws.pick(words)
      return [word == "<uuid>" ? uuid(&draws) : word]
    case .advance:
      return [draws.pick(["next", "\(draws.next(999))s", "P1M", "2026-12-01T00:00:00Z", "1y"])]
    case .duration: return [draws.pick(["10s", "1m", "2h", "P1DT12H"])]
    case .number(let range):
      let span = range.upperBound - range.lowerBound
      return ["\(range.lowerBound + draws.next(min(1000, span) + 1))"]
    case .decimal: return [draws.pick(["50", "33.333", "12.5", "0.99", "100"])]
    case .instant: return [draws.pick(["2026-11-22T02:00:00Z", "2025-01-31T23:59:59.500Z"])]
    case .uuid: return [uuid(&draws)]
    case .offer:
      return [draws.pick(["intro", "promo:loyalty", "code:\"Free Month\"", "winback:back"])]
    case .winBackOffer: return [draws.pick(["winback.free", "w-1"])]
    case .member: return [draws.pick(["Anna", "ben-2", "C.d_e"])]
    case .customer: return [draws.pick(["alice", "c000042", "B.o-b_"])]
    case .setting, .delivery, .api, .family, .retention:
      var words: [String] = []
      while let next = kind.words(after: words)?.first {
        words += word(next, &draws, forcing: forced)
      }
      return words
    case .text: return [draws.pick(["abc", "A1.b-2", "x", "20260101"])]
    case .commerceBody:
      // One body every operation reads what it needs from.
      let item =
        #"{"SKU":"a","currentSKU":"a","price":\#(draws.next(9000)),"revoke":true,"#
        + #""refundReason":"OTHER","refundType":"FULL","effective":"IMMEDIATELY","#
        + #""description":"d","displayName":"n"}"#
      let body =
        #"{"requestInfo":{"requestReferenceId":"\#(uuid(&draws))"},"refundType":"FULL","#
        + #""refundReason":"OTHER","taxCode":"C003-00-1","targetProductId":"x","#
        + #""descriptors":{"description":"d","displayName":"n","effective":"IMMEDIATELY"},"#
        + #""items":[\#(item)]}"#
      return [quoted(body)]
    case .imported:
      let id = 2_000_000_000 + draws.next(1000)
      let transaction =
        #"{"transactionId":"\#(id)","originalTransactionId":"\#(id)","productId":"#
        + #""socialfeed.monthly","purchaseDate":1790000000000,"price":\#(draws.next(20000))}"#
      let renewal =
        #"{"originalTransactionId":"\#(id)","status":\#(1 + draws.next(5)),"productId":"#
        + #""socialfeed.monthly","autoRenewStatus":\#(draws.next(2))}"#
      return draws.next(2) == 0
        ? ["transaction", quoted(transaction)] : ["renewal", quoted(renewal)]
    }
  }

  static func uuid(_ draws: inout Draws) -> String {
    draws.pick([
      "6F1C3E2A-1B2C-4D5E-8F90-0A1B2C3D4E5F", "00000000-0000-4000-8000-000000000000",
    ])
  }

  /// A line of `verb` with generated arguments and options (their `requires` and `excludes`
  /// respected).
  static func line(_ verb: Verb, _ draws: inout Draws) -> String {
    var chosen: [VerbOption] = []
    for (index, option) in verb.options.enumerated()
    where option.isRequired || draws.next(3) == 0 || (verb.needsAnOption && index == 0) {
      guard !chosen.contains(where: { $0.excludes.contains(option.name) }),
        !option.excludes.contains(where: { name in chosen.contains { $0.name == name } })
      else { continue }
      chosen.append(option)
    }
    // What the chosen options need: a promotional offer for a signature, `request` for a price.
    let needs = Set(chosen.flatMap(\.requires))
    if needs.contains("offer"), !chosen.contains(where: { $0.name == "offer" }) {
      chosen.append(verb.options.first { $0.name == "offer" }!)
    }
    // The words they need (`request` of price-increase, `refund-request` of call) are chosen.
    let forced = needs.subtracting(verb.options.map(\.name))
    var words = [verb.name]
    for argument in verb.arguments where !argument.isOptional || draws.next(2) == 0 {
      words += word(argument.kind, &draws, forcing: forced)
    }
    for option in chosen {
      let value =
        option.name == "offer" && !needs.isDisjoint(with: ["offer"])
        ? "promo:loyalty" : word(option.value, &draws).joined(separator: " ")
      words.append("\(option.name)=\(value)")
    }
    return words.joined(separator: " ")
  }

  @Test func everyVerbPrintsAndParsesBackWithGeneratedArguments() async {
    await propertyCheck(count: 400, input: Gen.int(in: 0...1_000_000).array(of: 8...40)) {
      numbers in
      var draws = Draws(numbers: numbers)
      for verb in Verb.all {
        let text = Self.line(verb, &draws)
        do {
          let command = try #require(try Command.parse(text), "\(text)")
          let printed = command.description
          #expect(try Command.parse(printed) == command, "\(text) → \(printed)")
          #expect(
            command.verb == verb.name || printed.hasPrefix(verb.name + " ")
              || verb.name == "notify",
            "\(text) printed as \(printed)")
        } catch {
          Issue.record("\(text): \(error)")
        }
      }
    }
  }

  /// Every command prints through the table, and every verb's name is its own.
  @Test func theTableCoversTheLanguage() throws {
    #expect(Set(Verb.all.map(\.name)).count == Verb.all.count)
    #expect(Command.verbs == Verb.all.map(\.name).sorted())
    for verb in Verb.all {
      #expect(verb.synopsis.hasPrefix(verb.name))
      #expect(!verb.summary.isEmpty)
    }
    #expect(
      Verb.named("refund")?.synopsis
        == "refund <txn> [reason=developerIssue|other] [percentage=P] [seats=N]")
    #expect(Verb.named("extend")?.synopsis.contains(" days=N ") == true, "required: no brackets")
  }

  /// Completion offers every option of every verb (once what it needs is there), then its
  /// values.
  @Test func completionComesFromTheTable() {
    for verb in Verb.all where !verb.options.isEmpty {
      var words = [verb.name]
      var draws = Draws(numbers: [1, 2, 3])
      let needed = Set(verb.options.flatMap(\.requires)).subtracting(verb.options.map(\.name))
      for argument in verb.arguments where !argument.isOptional {
        words += Self.word(argument.kind, &draws, forcing: needed)
      }
      var offered = Set<String>()
      for _ in 0..<3 {
        for source in Command.completions(for: words + [""]) {
          if case .words(let names) = source { offered.formUnion(names) }
        }
        // With an offer given, a signature's parts are offered too.
        if verb.name == "buy" { words.append("offer=promo:x") }
      }
      if verb.name == "buy" { offered.insert("offer=") }
      #expect(offered == Set(verb.options.map { "\($0.name)=" }), "\(verb.name) \(words)")
    }
    #expect(Command.completions(for: [""]) == [.words(Command.verbs)])
    #expect(
      Command.completions(for: ["refund", "3", "reason="])
        == [.kind(.choice(["developerIssue", "other"]), before: ["3"])])
    #expect(
      Command.completions(for: ["set", "error", "purchase", ""]).first.map {
        if case .kind(.choice(let names), _) = $0 { names.contains("userCancelled") } else { false }
      } == true)
  }
}

/// `text` as one quoted word of a line.
private func quoted(_ text: String) -> String {
  "\""
    + text.replacingOccurrences(of: "\\", with: "\\\\")
    .replacingOccurrences(of: "\"", with: "\\\"") + "\""
}
