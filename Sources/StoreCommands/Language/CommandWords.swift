import StoreSimulation

/// The words of a line after its verb, read left to right by the verb's parser.
struct CommandWords {
  let verb: Verb
  var words: [String]
  var position = 0

  init(verb: Verb, words: [String]) {
    self.verb = verb
    self.words = words
  }

  /// Throws when words are left over.
  func finish() throws(CommandError) {
    guard position == words.count else {
      throw CommandError("unexpected \"\(words[position])\" after the command")
    }
  }

  var peek: String? { position < words.count ? words[position] : nil }

  mutating func word(_ what: String) throws(CommandError) -> String {
    guard let next = peek else { throw CommandError("\(verb.name) needs \(what)") }
    position += 1
    return next
  }

  /// The next word when it is `expected` (consumed), else `false`.
  mutating func take(_ expected: String) -> Bool {
    guard peek == expected else { return false }
    position += 1
    return true
  }

  mutating func transaction() throws(CommandError) -> TransactionReference {
    let text = try word("a transaction: an id, last or last:<productID>")
    if text == "last" { return .last }
    if text.hasPrefix("last:") {
      let productID = String(text.dropFirst(5))
      guard !productID.isEmpty else { throw CommandError("last: needs a product ID") }
      return .lastOf(productID)
    }
    guard let id = UInt64(text) else {
      throw CommandError("\"\(text)\" is not a transaction: write an id, last or last:<productID>")
    }
    return .id(id)
  }

  mutating func productID() throws(CommandError) -> String { try word("a product ID") }

  mutating func choice<T>(_ choices: [(String, T)], _ described: String) throws(CommandError) -> T {
    let text = try word(described)
    guard let match = choices.first(where: { $0.0 == text }) else {
      throw CommandError(
        "\"\(text)\" is not one of \(described)",
        suggestions: choices.map(\.0).filter { closeEnough($0, text) })
    }
    return match.1
  }

  func onOff(_ text: String) throws(CommandError) -> Bool {
    switch text {
    case "on": return true
    case "off": return false
    default: throw CommandError("\"\(text)\" is not on or off")
    }
  }

  mutating func onOff() throws(CommandError) -> Bool { try onOff(try word("on or off")) }

  /// A case of a string enum by its raw value, or an error listing them.
  func named<Value: RawRepresentable & CaseIterable>(
    _ text: String, _ what: String
  ) throws(CommandError) -> Value where Value.RawValue == String {
    guard let value = Value(rawValue: text) else {
      let names = Value.allCases.map(\.rawValue)
      throw CommandError(
        "\"\(text)\" is not \(what): \(names.joined(separator: ", "))",
        suggestions: names.filter { closeEnough($0, text) })
    }
    return value
  }

  /// `days=N`, required: within the engine's ``Session/extensionDays`` (Apple's limit).
  func days(_ text: String?) throws(CommandError) -> Int {
    let range = Session.extensionDays
    let words = "\(range.lowerBound) to \(range.upperBound)"
    guard let text else { throw CommandError("\(verb.name) needs days=N (\(words))") }
    guard let days = Int(text), range.contains(days) else {
      throw CommandError("days must be a whole number from \(words), not \"\(text)\"")
    }
    return days
  }

  /// `percentage=P`: more than 0 and at most 100, up to three decimals; in thousandths.
  func percentage(_ text: String) throws(CommandError) -> Int {
    let parts = text.split(separator: ".", maxSplits: 1, omittingEmptySubsequences: false)
    guard let whole = parts.first, !whole.isEmpty, whole.count <= 3,
      whole.allSatisfy({ $0.isASCII && $0.isNumber }),
      parts.count == 1
        || (1...3).contains(parts[1].count) && parts[1].allSatisfy({ $0.isASCII && $0.isNumber }),
      let units = Int(whole)
    else {
      throw CommandError(
        "percentage must be a number above 0 and at most 100 with up to three decimals, "
          + "such as 50 or 33.333, not \"\(text)\"")
    }
    let decimals = parts.count == 2 ? String(parts[1]) : ""
    let thousandths = Int(decimals.padding(toLength: 3, withPad: "0", startingAt: 0)) ?? 0
    let share = units * 1000 + thousandths
    guard (1...100_000).contains(share) else {
      throw CommandError("percentage must be above 0 and at most 100, not \"\(text)\"")
    }
    return share
  }

  /// The remaining `key=value` words; the keys are the verb's options.
  mutating func options() throws(CommandError) -> [String: String] {
    let allowed = verb.options.map(\.name)
    var result: [String: String] = [:]
    while let next = peek {
      guard let equals = next.firstIndex(of: "=") else {
        throw CommandError("unexpected \"\(next)\"; options are written key=value")
      }
      let key = String(next[..<equals])
      guard allowed.contains(key) else {
        throw CommandError(
          "\(verb.name) has no option \"\(key)\"; its options are "
            + allowed.joined(separator: ", "),
          suggestions: allowed.filter { closeEnough($0, key) })
      }
      guard result[key] == nil else { throw CommandError("the option \(key) is given twice") }
      result[key] = String(next[next.index(after: equals)...])
      position += 1
    }
    return result
  }

  /// A duration word (`10s`).
  mutating func duration() throws(CommandError) -> CommandDuration {
    let amount = try word("a duration such as 10s")
    guard let duration = try parseDuration(amount) else {
      throw CommandError("\"\(amount)\" is not a duration (30s, 5m, 2h, 3d, 1w, 1mo, 1y)")
    }
    return duration
  }

  mutating func advance() throws(CommandError) -> Advance {
    let text = try word("a duration (30s, 5m, 2h, 3d, 1w, 1mo, 1y, P1M), next or an ISO-8601 date")
    if text == "next" { return .next }
    if let duration = try parseDuration(text) { return .by(duration) }
    if let instant = Instant(iso8601: text) { return .to(instant) }
    throw CommandError(
      "\"\(text)\" is not a duration (30s, 5m, 2h, 3d, 1w, 1mo, 1y, P1M, PT30S), next or a date")
  }

  mutating func notificationFault() throws(CommandError) -> NotificationFault {
    let text = try word("off, drop, duplicate or delay <duration>")
    switch text {
    case "off": return .off
    case "drop": return .drop
    case "duplicate": return .duplicate
    case "delay": return .delay(try duration())
    default:
      throw CommandError(
        "\"\(text)\" is not a notification fault: off, drop, duplicate or delay <duration>",
        suggestions: NotificationFault.names.filter { closeEnough($0, text) })
    }
  }
}

extension CommandWords {
  /// An external purchase token's subtype: `unreported`, `created`, `active-token-reminder`
  /// (or Apple's `UNREPORTED` …).
  /// `external-purchase-token`'s subtype and options.
  mutating func tokenRequest() throws(CommandError) -> ExternalPurchaseToken.Request {
    let reason = try tokenReason()
    let options = try options()
    func instant(_ key: String) throws(CommandError) -> Instant? {
      guard let text = options[key] else { return nil }
      return try CommandWords.instant(key, text)
    }
    let type = options["type"].flatMap { word in
      ExternalPurchaseToken.TokenType.allCases.first { $0.word == word || $0.rawValue == word }
    }
    if let word = options["type"], type == nil {
      throw CommandError(
        "\"\(word)\" is not a custom link token's type: acquisition, services")
    }
    return ExternalPurchaseToken.Request(
      reason, id: options["id"], created: try instant("creation"), tokenType: type,
      expires: try instant("expiration"))
  }

  mutating func tokenReason() throws(CommandError) -> ExternalPurchaseToken.Reason {
    let names = ExternalPurchaseToken.Reason.allCases.map(\.word)
    let text = try word(names.joined(separator: ", "))
    guard
      let reason = ExternalPurchaseToken.Reason.allCases.first(where: {
        $0.word == text || $0.rawValue == text
      })
    else {
      throw CommandError(
        "\"\(text)\" is not an external purchase token's subtype: "
          + names.joined(separator: ", "),
        suggestions: names.filter { closeEnough($0, text) })
    }
    return reason
  }
}

extension NotificationFault {
  /// The faults' first words.
  static let names = ["off", "drop", "duplicate", "delay"]
}
