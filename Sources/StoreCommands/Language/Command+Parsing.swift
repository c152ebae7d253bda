import StoreSimulation
import StoreUtilities

extension Command {
  /// Parses one line. A blank line or a comment is `nil`.
  ///
  /// - Throws: ``CommandError`` saying what is wrong and, where possible, what would be right
  ///   (an unknown verb lists the verbs).
  public static func parse(_ line: String) throws(CommandError) -> Command? {
    let words = try Tokens.split(line)
    guard let name = words.first else { return nil }
    guard let verb = Verb.named(name) else {
      throw CommandError(
        "unknown command \"\(name)\"; the commands are \(Verb.names.joined(separator: ", "))",
        suggestions: Verb.names.filter { closeEnough($0, name) })
    }
    var arguments = CommandWords(verb: verb, words: Array(words.dropFirst()))
    let command = try verb.parse(&arguments)
    try arguments.finish()
    return command
  }

  /// The verbs, for help and suggestions.
  public static var verbs: [String] { Verb.names }

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
