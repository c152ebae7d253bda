import StoreConfiguration
import StoreSimulation

extension Command {
  /// Parses one line. A blank line or a comment is `nil`.
  ///
  /// - Throws: ``CommandError`` saying what is wrong and, where possible, what would be right
  ///   (an unknown verb lists the verbs).
  public static func parse(_ line: String) throws(CommandError) -> Command? {
    let words = try Tokens.split(line)
    guard let verb = words.first else { return nil }
    var arguments = Arguments(verb: verb, words: Array(words.dropFirst()))
    let command = try arguments.command()
    try arguments.finish()
    return command
  }

  /// The calls `call` accepts, by their command names.
  public static let callNames: [(String, StoreKitAPI)] = [
    ("products", .loadProducts), ("status", .subscriptionStatus), ("sync", .appStoreSync),
    ("app-transaction", .appTransaction), ("refund-request", .refundRequest),
    ("manage-subscriptions", .manageSubscriptions), ("redeem-sheet", .offerCodeRedeem),
  ]

  /// The APIs `set error` accepts, by their command names.
  public static let errorAPINames: [(String, StoreKitAPI)] =
    callNames + [("purchase", .purchase), ("verification", .verification)]
}

/// The words after the verb, read left to right.
private struct Arguments {
  let verb: String
  var words: [String]
  var position = 0

  init(verb: String, words: [String]) {
    self.verb = verb
    self.words = words
  }

  mutating func command() throws(CommandError) -> Command {
    switch verb {
    case "buy": return try buy()
    case "approve": return .approve(try transaction())
    case "decline": return .decline(try transaction())
    case "resolve": return .resolve(try transaction())
    case "delete": return .delete(try transaction())
    case "refund":
      let reference = try transaction()
      let options = try options(allowed: ["reason", "percentage"])
      return .refund(
        reference, reason: try options["reason"].map(reason),
        share: try options["percentage"].map(percentage))
    case "refund-request":
      let reference = try transaction()
      let options = try options(allowed: ["reason"])
      return .refundRequest(reference, reason: try options["reason"].map(requestReason))
    case "consumption":
      let reference = try transaction()
      let given = try options(allowed: ConsumptionInformation.fieldNames)
      guard !given.isEmpty else {
        throw CommandError(
          "consumption needs at least one field, such as customerConsented=true; the fields are "
            + ConsumptionInformation.fieldNames.joined(separator: ", "))
      }
      return .consumption(
        reference,
        fields: ConsumptionInformation.fieldNames.compactMap { name in
          given[name].map { ConsumptionInformation.Field(name: name, value: $0) }
        })
    case "account-token":
      let reference = try transaction()
      let token = try word("a UUID or none")
      if token == "none" { return .accountToken(reference, token: nil) }
      guard isUUID(token) else {
        throw CommandError("the app account token must be a UUID or none, not \"\(token)\"")
      }
      return .accountToken(reference, token: token.lowercased())
    case "refund-decline": return .refundDecline(try transaction())
    case "refund-reverse": return .refundReverse(try transaction())
    case "extend":
      let reference = try transaction()
      let options = try options(allowed: ["days", "reason"])
      return .extend(
        reference, days: try days(options["days"]),
        reason: try options["reason"].map(extendReason))
    case "extend-all":
      let productID = try word("a product ID")
      let options = try options(allowed: ["days", "reason", "request", "storefronts"])
      return .extendAll(
        productID: productID, days: try days(options["days"]),
        reason: try options["reason"].map(extendReason), request: options["request"],
        storefronts: options["storefronts"].map {
          $0.split(separator: ",").map(String.init)
        } ?? [])
    case "auto-renew":
      let reference = try transaction()
      return .autoRenew(reference, enabled: try onOff(try word("on or off")))
    case "expire": return .expire(productID: try word("a product ID"))
    case "renew": return .renew(productID: try word("a product ID"))
    case "restore": return .restore
    case "clear": return .clear
    case "reset": return .reset
    case "launch": return .launch
    case "back": return .stepBack(.event)
    case "undo": return .stepBack(.command)
    case "price-increase":
      let action = try choice(
        PriceIncreaseAction.allCases.map { ($0.rawValue, $0) }, "request, consent or decline")
      let reference = try transaction()
      let options = try options(allowed: action == .request ? ["price"] : [])
      let price = try options["price"].map { text throws(CommandError) -> Int64 in
        guard let milliunits = Price(text).milliunits, milliunits > 0 else {
          throw CommandError(
            "price must be a decimal number above 0, such as 10.99, not \"\(text)\"")
        }
        return milliunits
      }
      return .priceIncrease(action, reference, price: price)
    case "finish":
      if peek == "all" {
        position += 1
        return .finish(nil)
      }
      return .finish(try transaction())
    case "advance": return .advance(try advance())
    case "set":
      if peek == "notify-fault" {
        position += 1
        return .notify(.fault(try notificationFault()))
      }
      return .set(try setting())
    case "notify":
      let action = try word("retry or fault")
      switch action {
      case "retry": return .notify(.retry)
      case "fault": return .notify(.fault(try notificationFault()))
      default: throw CommandError("notify takes retry or fault, not \"\(action)\"")
      }
    case "call":
      if peek == "receipt" {
        position += 1
        return .refreshReceipt
      }
      let api = try choice(
        Command.callNames, (Command.callNames.map(\.0) + ["receipt"]).joined(separator: ", "))
      var reference: TransactionReference?
      if let next = peek, !next.contains("=") { reference = try transaction() }
      let options = try options(allowed: ["reason"])
      return .call(
        api, reference,
        reason: try options["reason"].map { (text) throws(CommandError) in
          try named(text, "a refund sheet's reason")
        })
    default:
      let close = Command.verbs.filter { closeEnough($0, verb) }
      throw CommandError(
        "unknown command \"\(verb)\"; the commands are \(Command.verbs.joined(separator: ", "))",
        suggestions: close)
    }
  }

  func finish() throws(CommandError) {
    guard position == words.count else {
      throw CommandError("unexpected \"\(words[position])\" after the command")
    }
  }

  var peek: String? { position < words.count ? words[position] : nil }

  mutating func word(_ what: String) throws(CommandError) -> String {
    guard let next = peek else { throw CommandError("\(verb) needs \(what)") }
    position += 1
    return next
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

  /// One of an enumeration's cases by its name; `what` names the kind in the error.
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

  func reason(_ text: String) throws(CommandError) -> RevocationReason {
    try named(text, "a refund reason")
  }

  func requestReason(_ text: String) throws(CommandError) -> RefundRequestReason {
    try named(text, "a refund request's reason")
  }

  func extendReason(_ text: String) throws(CommandError) -> ExtendReason {
    try named(text, "an extension's reason")
  }

  /// `days=N`, required: 1 to 90 (Apple's limit).
  func days(_ text: String?) throws(CommandError) -> Int {
    guard let text else { throw CommandError("\(verb) needs days=N (1 to 90)") }
    guard let days = Int(text), (1...90).contains(days) else {
      throw CommandError("days must be a whole number from 1 to 90, not \"\(text)\"")
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

  /// The remaining `key=value` words.
  mutating func options(allowed: [String]) throws(CommandError) -> [String: String] {
    var result: [String: String] = [:]
    while let next = peek {
      guard let equals = next.firstIndex(of: "=") else {
        throw CommandError("unexpected \"\(next)\"; options are written key=value")
      }
      let key = String(next[..<equals])
      guard allowed.contains(key) else {
        throw CommandError(
          "\(verb) has no option \"\(key)\"; its options are \(allowed.joined(separator: ", "))",
          suggestions: allowed.filter { closeEnough($0, key) })
      }
      guard result[key] == nil else { throw CommandError("the option \(key) is given twice") }
      result[key] = String(next[next.index(after: equals)...])
      position += 1
    }
    return result
  }

  mutating func buy() throws(CommandError) -> Command {
    let productID = try word("a product ID")
    let given = try options(allowed: [
      "quantity", "offer", "token", "date", "renew", "from", "key", "nonce", "timestamp",
      "signature", "jws", "intro-jws", "bundle",
    ])
    var options = PurchaseOptions()
    if let text = given["quantity"] {
      guard let quantity = Int(text), (1...PurchaseOptions.maximumQuantity).contains(quantity)
      else {
        throw CommandError(
          "quantity must be a whole number from 1 to \(PurchaseOptions.maximumQuantity), "
            + "not \"\(text)\"")
      }
      options.quantity = quantity
    }
    if let text = given["offer"] { options.offer = try offer(text) }
    if let token = given["token"] {
      guard isUUID(token) else { throw CommandError("token must be a UUID, not \"\(token)\"") }
      options.appAccountToken = token.lowercased()
    }
    if let text = given["date"] {
      guard let date = Instant(iso8601: text) else {
        throw CommandError("date must be ISO-8601 such as 2026-11-22T02:00:00Z, not \"\(text)\"")
      }
      options.purchaseDate = date
    }
    if let text = given["renew"] {
      guard let renewal = RenewalBehavior(rawValue: text) else {
        throw CommandError("renew must be auto or once, not \"\(text)\"")
      }
      options.renewal = renewal
    }
    if let text = given["from"] {
      guard let origin = PurchaseOrigin(rawValue: text) else {
        throw CommandError("from must be app or store, not \"\(text)\"")
      }
      options.origin = origin
    }
    try signatures(given, into: &options)
    return .buy(productID: productID, options: options)
  }

  /// A promotional offer's signature (`key= nonce= timestamp= signature=`, or `jws=`), an
  /// introductory-offer eligibility JWS (`intro-jws=`) and the bundle id they are for. A
  /// signature missing a part is StoreKit's `missingOfferParameters`, not a command error.
  func signatures(
    _ given: [String: String], into options: inout PurchaseOptions
  )
    throws(CommandError)
  {
    let parts = ["key", "nonce", "timestamp", "signature"]
    if let jws = given["jws"] {
      guard parts.allSatisfy({ given[$0] == nil }) else {
        throw CommandError("give jws= or key=, nonce=, timestamp= and signature=, not both")
      }
      options.offerSignature = .jws(jws)
    } else if parts.contains(where: { given[$0] != nil }) {
      var timestamp = OfferSignature.missingTimestamp
      if let text = given["timestamp"] {
        guard let value = Int64(text), value >= 0 else {
          throw CommandError("timestamp must be milliseconds since 1970, not \"\(text)\"")
        }
        timestamp = value
      }
      options.offerSignature = .v1(
        keyID: given["key"] ?? "", nonce: given["nonce"] ?? "", timestamp: timestamp,
        signature: given["signature"] ?? "")
    }
    if options.offerSignature != nil {
      guard case .promotional? = options.offer else {
        throw CommandError("a signature is for a promotional offer: add offer=promo:<offerID>")
      }
    }
    options.introductoryEligibility = given["intro-jws"]
    if let bundle = given["bundle"] {
      guard !bundle.isEmpty, bundle.allSatisfy({ $0.isLetter || $0.isNumber || "-.".contains($0) })
      else { throw CommandError("bundle must be a bundle id such as com.example.app") }
      options.bundleID = bundle
    }
  }

  func offer(_ text: String) throws(CommandError) -> OfferSelection {
    if text == "intro" { return .introductory }
    let parts = text.split(separator: ":", maxSplits: 1).map(String.init)
    if parts.count == 2 && !parts[1].isEmpty {
      switch parts[0] {
      case "promo": return .promotional(parts[1])
      case "code": return .code(parts[1])
      case "winback": return .winBack(parts[1])
      default: break
      }
    }
    throw CommandError(
      "offer must be intro, promo:<offerID>, code:<referenceName> or winback:<offerID>, not \"\(text)\""
    )
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
    case "delay":
      let amount = try word("a duration such as 10s")
      guard let duration = try parseDuration(amount) else {
        throw CommandError("\"\(amount)\" is not a duration (30s, 5m, 2h, 3d, 1w, 1mo, 1y)")
      }
      return .delay(duration)
    default:
      throw CommandError(
        "\"\(text)\" is not a notification fault: off, drop, duplicate or delay <duration>",
        suggestions: ["off", "drop", "duplicate", "delay"].filter { closeEnough($0, text) })
    }
  }

  mutating func setting() throws(CommandError) -> SettingChange {
    let names = SettingDescriptor.all.map(\.command) + ["winback-eligible"]
    let name = try word("a setting: \(names.joined(separator: ", "))")
    if let setting = SettingDescriptor.named(name), setting.kind == .flag {
      return .flag(setting.id, try onOff(try word("on or off")))
    }
    switch name {
    case "fail-transactions":
      let text = try word("off or an SKError code name")
      if text == "off" { return .failTransactions(nil) }
      guard let code = SKErrorCode(name: text) else {
        throw CommandError(
          "\"\(text)\" is not an SKError code; fail-transactions accepts "
            + SKErrorCode.failureErrors.map(\.name).joined(separator: ", "),
          suggestions: SKErrorCode.allCases.map(\.name).filter { closeEnough($0, text) })
      }
      return .failTransactions(code)
    case "error":
      let api = try choice(
        Command.errorAPINames, Command.errorAPINames.map(\.0).joined(separator: ", "))
      let text = try word("off or an error name")
      if text == "off" { return .simulatedError(api, nil) }
      guard let error = SimulatedError(name: text), api.accepts(error) else {
        let accepted = SimulatedError.all.filter(api.accepts).map(\.name)
        throw CommandError(
          "\"\(text)\" is not an error the \(api.rawValue) API can fail with",
          suggestions: accepted.filter { closeEnough($0, text) })
      }
      return .simulatedError(api, error)
    case "time-rate":
      let text = try word("a time rate name or raw value")
      guard let rate = TimeRate(name: text) else {
        throw CommandError(
          "\"\(text)\" is not a time rate",
          suggestions: TimeRate.allCases.map(\.name).filter { closeEnough($0, text) })
      }
      return .timeRate(rate)
    case "storefront":
      let text = try word("an ISO 3166-1 alpha-3 code such as USA")
      guard let storefront = Storefront(countryCode: text) else {
        throw CommandError(
          "\"\(text)\" is not a known storefront",
          suggestions: Storefront.knownCountryCodes.filter { closeEnough($0, text.uppercased()) })
      }
      return .storefront(storefront)
    case "locale": return .locale(try word("a locale such as en_US or ja"))
    case "winback-eligible":
      let offerID = try word("a win-back offer ID")
      return .winBackEligible(offerID, try onOff(try word("on or off")))
    default:
      throw CommandError(
        "unknown setting \"\(name)\"; the settings are \(names.joined(separator: ", "))",
        suggestions: names.filter { closeEnough($0, name) })
    }
  }
}

/// Parses `30s 5m 2h 3d 1w 1mo 1y 500ms` and ISO-8601 durations (`P1M`, `PT30S`, `P1DT12H`);
/// `nil` when the text is not a duration.
///
/// - Throws: ``CommandError`` for a duration longer than ``CommandDuration/maximumYears``.
func parseDuration(_ text: String) throws(CommandError) -> CommandDuration? {
  var total = DurationTotal()
  if text.hasPrefix("P") {
    guard try parseISODuration(text, into: &total) else { return nil }
  } else {
    let digits = text.prefix { $0.isASCII && $0.isNumber }
    guard !digits.isEmpty else { return nil }
    let unit = text.dropFirst(digits.count)
    let value = Int64(digits)
    switch unit {
    case "mo": try total.addMonths(value, 1)
    case "y": try total.addMonths(value, 12)
    default:
      guard let length = CommandDuration.units.first(where: { $0.0 == unit })?.1 else {
        return nil
      }
      try total.addMilliseconds(value, length)
    }
  }
  return CommandDuration(months: total.months, milliseconds: total.milliseconds)
}

/// Months and milliseconds added up with every step checked against the longest duration.
private struct DurationTotal {
  var months: Int64 = 0
  var milliseconds: Int64 = 0

  func tooLong() -> CommandError {
    CommandError(
      "durations are limited to \(CommandDuration.maximumYears) years; advance in smaller steps "
        + "or to a date")
  }

  /// Adds `count` (nil: too many digits for a number) times `unit` months.
  mutating func addMonths(_ count: Int64?, _ unit: Int64) throws(CommandError) {
    guard let count, case (let product, false) = count.multipliedReportingOverflow(by: unit),
      case (let sum, false) = months.addingReportingOverflow(product),
      sum <= CommandDuration.maximumYears * 12
    else { throw tooLong() }
    months = sum
  }

  /// Adds `count` (nil: too many digits for a number) times `unit` milliseconds.
  mutating func addMilliseconds(_ count: Int64?, _ unit: Int64) throws(CommandError) {
    guard let count, case (let product, false) = count.multipliedReportingOverflow(by: unit),
      case (let sum, false) = milliseconds.addingReportingOverflow(product),
      sum <= CommandDuration.maximumMilliseconds
    else { throw tooLong() }
    milliseconds = sum
  }
}

/// Reads an ISO-8601 duration into `total`; `false` when the text is not one.
private func parseISODuration(
  _ text: String, into total: inout DurationTotal
) throws(CommandError)
  -> Bool
{
  var inTime = false
  var number = ""
  var sawComponent = false
  var sawTimeComponent = false
  for character in text.dropFirst() {
    if character == "T" {
      guard !inTime, number.isEmpty else { return false }
      inTime = true
      continue
    }
    if character.isASCII && (character.isNumber || character == ".") {
      number.append(character)
      continue
    }
    guard !number.isEmpty else { return false }
    if number.contains(".") && !(inTime && character == "S") { return false }
    if number.contains(".") {
      // Fractional seconds: whole milliseconds.
      guard let seconds = Double(number), seconds.isFinite else { return false }
      guard seconds * 1000 <= Double(CommandDuration.maximumMilliseconds) else {
        throw total.tooLong()
      }
      try total.addMilliseconds(Int64((seconds * 1000).rounded()), 1)
    } else {
      let whole = Int64(number)
      switch (inTime, character) {
      case (false, "Y"): try total.addMonths(whole, 12)
      case (false, "M"): try total.addMonths(whole, 1)
      case (false, "W"): try total.addMilliseconds(whole, 604_800_000)
      case (false, "D"): try total.addMilliseconds(whole, 86_400_000)
      case (true, "H"): try total.addMilliseconds(whole, 3_600_000)
      case (true, "M"): try total.addMilliseconds(whole, 60_000)
      case (true, "S"): try total.addMilliseconds(whole, 1000)
      default: return false
      }
    }
    number = ""
    sawComponent = true
    if inTime { sawTimeComponent = true }
  }
  return number.isEmpty && sawComponent && !(inTime && !sawTimeComponent)
}

/// Whether `text` is a UUID in its 8-4-4-4-12 hexadecimal form (either case).
public func isUUID(_ text: String) -> Bool {
  let parts = text.split(separator: "-", omittingEmptySubsequences: false)
  return parts.map(\.count) == [8, 4, 4, 4, 12] && parts.allSatisfy { $0.allSatisfy(\.isHexDigit) }
}

/// Whether `candidate` is a plausible correction of `typed`.
func closeEnough(_ candidate: String, _ typed: String) -> Bool {
  let a = candidate.lowercased()
  let b = typed.lowercased()
  return editDistance(a, b) <= max(2, b.count / 3) || (b.count >= 3 && a.hasPrefix(b))
}
