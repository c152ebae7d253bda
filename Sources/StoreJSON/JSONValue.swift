/// A JSON value that remembers what Foundation's decoders forget: the order of an object's
/// members and the exact text of every number.
///
/// Xcode writes `.storekit` files with keys in case-insensitive order and floats at full
/// precision (`697955872.64341402`). Keeping the tree lets a load-and-write round trip give back
/// the same bytes, and lets keys the typed model does not know survive untouched.
public enum JSONValue: Equatable, Sendable {
  /// `{…}`, members in file order.
  case object(JSONObject)
  /// `[…]`.
  case array([JSONValue])
  /// `"…"`.
  case string(String)
  /// A number, kept as written.
  case number(JSONNumber)
  /// `true` or `false`.
  case bool(Bool)
  /// JSON's `null`, kept apart from a missing member.
  case null

  /// The kind of value, in words, for diagnostics ("an array", "a string").
  public var kindDescription: String {
    switch self {
    case .object: "an object"
    case .array: "an array"
    case .string: "a string"
    case .number: "a number"
    case .bool: "a boolean"
    case .null: "null"
    }
  }
}

/// A JSON number, kept as the text it was written with.
public struct JSONNumber: Equatable, Sendable {
  /// The number exactly as written, for example `697955872.64341402` or `0`.
  public var text: String

  /// Creates a number from its JSON text. The text is not checked.
  public init(text: String) { self.text = text }

  /// Creates a number from an integer.
  public init(_ value: Int) { self.text = String(value) }

  /// The value as an integer, or `nil` when the text has a fraction, an exponent or overflows.
  public var intValue: Int? { Int(text) }

  /// The value as an integer when it is one, however it is written: `1700000000000`,
  /// `1700000000000.0` or `1.7e12` (an exact binary double up to 2^53, as JSON readers take it);
  /// `nil` for a fraction or a number past that.
  public var integralValue: Int? {
    if let exact = Int(text) { return exact }
    guard let double = Double(text), double.rounded() == double,
      abs(double) <= 9_007_199_254_740_992
    else { return nil }
    return Int(double)
  }

  /// The value as a binary floating-point number.
  public var doubleValue: Double? { Double(text) }
}

/// One member of a JSON object.
public struct JSONMember: Equatable, Sendable {
  /// The member's key.
  public var key: String
  /// The member's value.
  public var value: JSONValue

  /// Creates a member.
  public init(_ key: String, _ value: JSONValue) {
    self.key = key
    self.value = value
  }
}

/// A JSON object whose members keep their order (and any duplicate keys, which validation
/// reports).
public struct JSONObject: Equatable, Sendable {
  /// The members in the order they were read or added.
  public var members: [JSONMember]

  /// Creates an object from members.
  public init(_ members: [JSONMember] = []) { self.members = members }

  /// The value of the first member named `key`.
  ///
  /// - Complexity: O(*n*) in the number of members; StoreKit objects hold a handful.
  public subscript(key: String) -> JSONValue? {
    get { members.first { $0.key == key }?.value }
    set {
      if let index = members.firstIndex(where: { $0.key == key }) {
        if let newValue { members[index].value = newValue } else { members.remove(at: index) }
      } else if let newValue {
        members.append(JSONMember(key, newValue))
      }
    }
  }

  /// The keys in order.
  public var keys: [String] { members.map(\.key) }

  /// Whether the object has no members.
  public var isEmpty: Bool { members.isEmpty }
}
