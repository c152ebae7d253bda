import StoreCommands
import StoreJSON
import StoreSimulation

/// "Send Consumption Information" bodies checked as Apple checks them: v2's `ConsumptionRequest`
/// (strings for delivery and refund preference) and v1's `ConsumptionRequest` (integer codes),
/// each field's error code when it is wrong.
enum ConsumptionValidation {
  /// A field's kind: a boolean, an integer in a range, one of some strings, or a UUID.
  private enum Kind {
    case boolean
    case integer(ClosedRange<Int>)
    case oneOf([String])
    case uuidOrEmpty
  }

  private struct Rule {
    var name: String
    var kind: Kind
    var error: AppStoreServerAPIError
  }

  private static let v2: [Rule] = [
    Rule(name: "customerConsented", kind: .boolean, error: .invalidCustomerConsented),
    Rule(name: "consumptionPercentage", kind: .integer(0...100_000), error: .generalBadRequest),
    Rule(
      name: "deliveryStatus",
      kind: .oneOf([
        "DELIVERED", "UNDELIVERED_QUALITY_ISSUE", "UNDELIVERED_WRONG_ITEM",
        "UNDELIVERED_SERVER_OUTAGE", "UNDELIVERED_OTHER",
      ]), error: .invalidDeliveryStatus),
    Rule(
      name: "refundPreference", kind: .oneOf(["DECLINE", "GRANT_FULL", "GRANT_PRORATED"]),
      error: .generalBadRequest),
    Rule(name: "sampleContentProvided", kind: .boolean, error: .invalidSampleContentProvided),
  ]

  private static let v1: [Rule] = [
    Rule(name: "customerConsented", kind: .boolean, error: .invalidCustomerConsented),
    Rule(name: "consumptionStatus", kind: .integer(0...3), error: .invalidConsumptionStatus),
    Rule(name: "platform", kind: .integer(0...2), error: .invalidPlatform),
    Rule(name: "sampleContentProvided", kind: .boolean, error: .invalidSampleContentProvided),
    Rule(name: "deliveryStatus", kind: .integer(0...5), error: .invalidDeliveryStatus),
    Rule(name: "appAccountToken", kind: .uuidOrEmpty, error: .invalidAppAccountToken),
    Rule(name: "accountTenure", kind: .integer(0...7), error: .invalidAccountTenure),
    Rule(name: "playTime", kind: .integer(0...7), error: .invalidPlayTime),
    Rule(
      name: "lifetimeDollarsRefunded", kind: .integer(0...7), error: .invalidLifetimeDollarsRefunded
    ),
    Rule(
      name: "lifetimeDollarsPurchased", kind: .integer(0...7),
      error: .invalidLifetimeDollarsPurchased),
    Rule(name: "userStatus", kind: .integer(0...4), error: .invalidUserStatus),
    Rule(name: "refundPreference", kind: .integer(0...3), error: .generalBadRequest),
  ]

  /// The fields of a body, as the `consumption` command takes them.
  ///
  /// - Throws: the first wrong field's error; `customerConsented` must be `true` (Apple: do not
  ///   send the information without the customer's consent) and `sampleContentProvided` given.
  static func fields(
    _ body: JSONObject, version: String
  ) throws(AppStoreError) -> [ConsumptionInformation.Field] {
    let rules = version == "v1" ? v1 : v2
    var fields: [ConsumptionInformation.Field] = []
    for rule in rules {
      let value = body[rule.name]
      let required = rule.name == "customerConsented" || rule.name == "sampleContentProvided"
      guard let value, value != .null else {
        if required { throw invalid(rule, "is required") }
        continue
      }
      let text: String
      switch (rule.kind, value) {
      case (.boolean, .bool(let flag)): text = flag ? "true" : "false"
      case (.integer(let range), .number(let number)):
        guard let integer = number.intValue, range.contains(integer) else {
          throw invalid(rule, "is \(range.lowerBound) to \(range.upperBound)")
        }
        text = String(integer)
      case (.oneOf(let names), .string(let name)):
        guard names.contains(name) else {
          throw invalid(rule, "is one of \(names.joined(separator: ", "))")
        }
        text = name
      case (.uuidOrEmpty, .string(let token)):
        guard token.isEmpty || isUUID(token) else { throw invalid(rule, "is a UUID or empty") }
        text = token.lowercased()
      default:
        throw invalid(rule, "has the wrong type")
      }
      if rule.name == "customerConsented" && text != "true" {
        throw invalid(rule, "must be true: send consumption information only with consent")
      }
      fields.append(ConsumptionInformation.Field(name: rule.name, value: text))
    }
    // In the order the command language keeps them, so a replay gives the same fields.
    let order = ConsumptionInformation.fieldNames
    return fields.sorted {
      (order.firstIndex(of: $0.name) ?? 0) < (order.firstIndex(of: $1.name) ?? 0)
    }
  }

  private static func invalid(_ rule: Rule, _ why: String) -> AppStoreError {
    AppStoreError(rule.error, message: "Invalid \(rule.name): it \(why).")
  }
}
