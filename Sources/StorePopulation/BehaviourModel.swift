import StoreConfiguration
import StoreJSON
import StoreSimulation

/// How a population's customers behave: what they buy, and the chance of each thing that can
/// happen in a customer's life. The defaults are in `docs/simulate.md`; a model file (JSON, the
/// same keys) changes any of them.
public struct BehaviourModel: Equatable, Sendable {
  /// A choice and how much it weighs against the others.
  public struct Weighted: Equatable, Sendable {
    /// The product id or storefront code.
    public var value: String
    /// Its weight (more than 0).
    public var weight: Double
  }

  /// The subscriptions customers pick first; empty: every auto-renewable subscription alike.
  public var products: [Weighted] = []
  /// Where customers buy (ISO alpha-3 storefront codes).
  public var storefronts: [Weighted] = [
    .init(value: "USA", weight: 5), .init(value: "GBR", weight: 2), .init(value: "DEU", weight: 2),
    .init(value: "JPN", weight: 1),
  ]
  /// A customer whose first purchase got the introductory offer (StoreKit gives it to every
  /// eligible customer) keeps paying after it.
  public var introductoryConversion = 0.5
  /// In each paid period, a customer turns auto-renew off.
  public var cancellation = 0.05
  /// Each renewal's payment fails.
  public var billingFailure = 0.04
  /// A failed payment is fixed (in the grace period or billing retry) before Apple gives up.
  public var billingRecovery = 0.6
  /// The app enables Billing Grace Period.
  public var gracePeriod = true
  /// Each charge is refunded within 14 days.
  public var refund = 0.02
  /// In each paid period, a customer moves to another subscription of the group (an upgrade,
  /// downgrade or crossgrade).
  public var planChange = 0.04
  /// A member of the customer's family joins (it matters for family-shareable products).
  public var familySharing = 0.1
  /// The developer raises the price a customer pays once during their life.
  public var priceIncrease = 0.1
  /// A customer asked to consent to a price increase consents.
  public var priceIncreaseConsent = 0.7
  /// A customer buys their subscription for a group (multiseat): 2 to 10 seats. 0 by default,
  /// so that a seed makes the population it always made.
  public var groupPurchase = 0.0
  /// A member a group purchaser invited leaves their seat (the purchaser removes them) during
  /// the run. Drawn only for group purchases' members.
  public var groupMemberLeaving = 0.2

  /// The chances the model draws, by their keys in a model file.
  public enum Chance: String, CaseIterable, Sendable {
    case introductoryConversion, cancellation, planChange, billingFailure, billingRecovery
    case refund, priceIncrease, priceIncreaseConsent, familySharing, groupPurchase
    case groupMemberLeaving
  }

  /// The probability of a chance.
  public func probability(_ chance: Chance) -> Double {
    switch chance {
    case .introductoryConversion: introductoryConversion
    case .cancellation: cancellation
    case .planChange: planChange
    case .billingFailure: billingFailure
    case .billingRecovery: billingRecovery
    case .refund: refund
    case .priceIncrease: priceIncrease
    case .priceIncreaseConsent: priceIncreaseConsent
    case .familySharing: familySharing
    case .groupPurchase: groupPurchase
    case .groupMemberLeaving: groupMemberLeaving
    }
  }

  /// The defaults.
  public init() {}

  /// Why a model file cannot be used: its path and what is wrong there.
  public struct Problem: Error, Equatable, Sendable, CustomStringConvertible {
    /// Where in the file (a JSON path such as `products[1].weight`).
    public var path: String
    /// What is wrong.
    public var message: String
    /// `path: message`.
    public var description: String { "\(path): \(message)" }
  }

  /// The probabilities by key, as the file names them.
  private static var chances: [(String, WritableKeyPath<BehaviourModel, Double>)] {
    [
      ("introductoryConversion", \.introductoryConversion), ("cancellation", \.cancellation),
      ("billingFailure", \.billingFailure), ("billingRecovery", \.billingRecovery),
      ("refund", \.refund), ("planChange", \.planChange), ("familySharing", \.familySharing),
      ("priceIncrease", \.priceIncrease), ("priceIncreaseConsent", \.priceIncreaseConsent),
      ("groupPurchase", \.groupPurchase), ("groupMemberLeaving", \.groupMemberLeaving),
    ]
  }

  /// Every key a model file may have.
  public static var keys: [String] {
    ["products", "storefronts", "gracePeriod"] + chances.map(\.0)
  }

  /// The defaults changed by a model file's bytes, checked against `catalog`.
  ///
  /// - Throws: ``Problem`` naming the JSON path of the first thing that is wrong.
  public init(json bytes: [UInt8], catalog: Catalog) throws(Problem) {
    let root: JSONValue
    do throws(JSONSyntaxError) {
      root = try JSONParser.parse(bytes).root
    } catch {
      throw Problem(
        path: "(root)", message: "\(error.message) at line \(error.line), column \(error.column)")
    }
    guard case .object(let object) = root else {
      throw Problem(path: "(root)", message: "a model is an object, not \(root.kindDescription)")
    }
    try Self.checkUniqueKeys(object, at: .root)
    for member in object.members {
      let path = JSONPath.root.appending(member.key)
      if let (_, field) = Self.chances.first(where: { $0.0 == member.key }) {
        self[keyPath: field] = try Self.probability(member.value, at: path)
      } else if member.key == "gracePeriod" {
        guard case .bool(let on) = member.value else {
          throw Problem(
            path: "\(path)", message: "true or false, not \(member.value.kindDescription)")
        }
        gracePeriod = on
      } else if member.key == "products" {
        products = try Self.weighted(member.value, at: path, key: "product") { id throws(Problem) in
          guard let index = catalog.index(of: id), catalog.products[index].groupIndex != nil else {
            throw Problem(
              path: "\(path)",
              message: "\"\(id)\" is not an auto-renewable subscription of the "
                + "configuration")
          }
        }
      } else if member.key == "storefronts" {
        storefronts = try Self.weighted(member.value, at: path, key: "storefront") {
          code throws(Problem) in
          guard Storefront(countryCode: code) != nil else {
            throw Problem(
              path: "\(path)", message: "\"\(code)\" is not a storefront code (USA, GBR …)")
          }
        }
      } else {
        throw Problem(
          path: "\(path)",
          message: "unknown key; a model has " + Self.keys.joined(separator: ", "))
      }
    }
  }

  private static func probability(_ value: JSONValue, at path: JSONPath) throws(Problem) -> Double {
    guard case .number(let number) = value, let p = number.doubleValue, (0...1).contains(p) else {
      throw Problem(
        path: "\(path)", message: "a probability from 0 to 1, not \(describe(value))")
    }
    return p
  }

  private static func weighted(
    _ value: JSONValue, at path: JSONPath, key: String,
    check: (String) throws(Problem) -> Void
  ) throws(Problem) -> [Weighted] {
    guard case .array(let items) = value else {
      throw Problem(
        path: "\(path)", message: "a list of {\"\(key)\": …, \"weight\": …}, not \(describe(value))"
      )
    }
    guard !items.isEmpty else {
      throw Problem(
        path: "\(path)",
        message: "an empty list leaves nothing to choose: give at least one {\"\(key)\": …}, or "
          + "leave the key out for the default")
    }
    var result: [Weighted] = []
    for (index, item) in items.enumerated() {
      let at = path.appending(index: index)
      guard case .object(let object) = item, case .string(let name)? = object[key] else {
        throw Problem(path: "\(at)", message: "an object with \"\(key)\" (a string) and \"weight\"")
      }
      try checkUniqueKeys(object, at: at)
      if let unknown = object.members.first(where: { $0.key != key && $0.key != "weight" }) {
        throw Problem(
          path: "\(at.appending(unknown.key))",
          message: "unknown key; an entry has \"\(key)\" and \"weight\"")
      }
      try check(name)
      var weight = 1.0
      if let given = object["weight"] {
        guard case .number(let number) = given, let w = number.doubleValue, w > 0,
          w <= maximumWeight
        else {
          throw Problem(
            path: "\(at.appending("weight"))",
            message: "a number above 0 and at most \(Int(maximumWeight)), not \(describe(given))")
        }
        weight = w
      }
      result.append(Weighted(value: name, weight: weight))
    }
    return result
  }

  /// The largest weight: weights are relative, and a million of them add up without losing
  /// the small ones.
  static let maximumWeight = 1_000_000.0

  /// Refuses an object that gives a key twice (which one counts would be a guess).
  private static func checkUniqueKeys(_ object: JSONObject, at path: JSONPath) throws(Problem) {
    var seen = Set<String>()
    for member in object.members where !seen.insert(member.key).inserted {
      throw Problem(
        path: "\(path.appending(member.key))", message: "a second \"\(member.key)\": give it once")
    }
  }

  private static func describe(_ value: JSONValue) -> String {
    if case .number(let number) = value { return number.text }
    return value.kindDescription
  }
}
