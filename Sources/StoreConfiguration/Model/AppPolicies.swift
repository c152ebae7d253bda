import StoreJSON

/// `appPolicies` (format 4.0 and later): the EULA and the policies shown on Apple's sheets.
public struct AppPolicies: Equatable, Sendable {
  /// One policy link.
  public struct Policy: Equatable, Sendable {
    /// The locale, `en_US` in every file seen.
    public var locale: String
    /// The link's text.
    public var policyText: String
    /// The link's address.
    public var policyURL: String
    /// Keys this model does not know, written back unchanged.
    public var unknown = JSONObject()

    init(reading reader: inout ObjectReader, log: inout DiagnosticLog) {
      locale = reader.string("locale", .expected, log: &log) ?? ""
      policyText = reader.string("policyText", .expected, log: &log) ?? ""
      policyURL = reader.string("policyURL", .expected, log: &log) ?? ""
      unknown = reader.leftovers
    }

    var json: JSONValue {
      var object = unknown
      object["locale"] = .string(locale)
      object["policyText"] = .string(policyText)
      object["policyURL"] = .string(policyURL)
      return .object(object)
    }
  }

  /// The end-user license agreement's text.
  public var eula: String
  /// The policy links.
  public var policies: [Policy]
  /// Keys this model does not know, written back unchanged.
  public var unknown = JSONObject()

  init(reading reader: inout ObjectReader, log: inout DiagnosticLog) {
    eula = reader.string("eula", .expected, log: &log) ?? ""
    policies =
      reader.objects("policies", .expected, log: &log) { reader, log in
        Policy(reading: &reader, log: &log)
      } ?? []
    unknown = reader.leftovers
  }

  var json: JSONValue {
    var object = unknown
    object["eula"] = .string(eula)
    object["policies"] = .array(policies.map(\.json))
    return .object(object)
  }
}

/// `subscriptionOffersKeyPair`: the local P-256 key Xcode generates to sign promotional offers.
public struct OfferKeyPair: Equatable, Sendable {
  /// The key id (8 hex digits).
  public var id: String
  /// The private key, base64 PKCS#8 DER. Test data, not a secret of ours.
  public var privateKey: String
  /// Keys this model does not know, written back unchanged.
  public var unknown = JSONObject()

  /// A key pair as Xcode writes it.
  public init(id: String, privateKey: String) {
    self.id = id
    self.privateKey = privateKey
  }

  init(reading reader: inout ObjectReader, log: inout DiagnosticLog) {
    id = reader.string("id", .expected, log: &log) ?? ""
    privateKey = reader.string("privateKey", .expected, log: &log) ?? ""
    unknown = reader.leftovers
  }

  var json: JSONValue {
    var object = unknown
    object["id"] = .string(id)
    object["privateKey"] = .string(privateKey)
    return .object(object)
  }
}

/// The `version` object: `{"major" : 4, "minor" : 0}`.
public struct FormatVersion: Comparable, Hashable, Sendable, CustomStringConvertible {
  /// The major version, 1 to 5 in the wild.
  public var major: Int
  /// The minor version, 0 to 2 in the wild.
  public var minor: Int
  /// Keys this model does not know, written back unchanged.
  public var unknown = JSONObject()

  /// Creates a version.
  public init(_ major: Int, _ minor: Int) {
    self.major = major
    self.minor = minor
  }

  /// Orders versions by major, then minor.
  public static func < (lhs: FormatVersion, rhs: FormatVersion) -> Bool {
    (lhs.major, lhs.minor) < (rhs.major, rhs.minor)
  }

  /// Versions are equal when major and minor are; unknown keys do not count.
  public static func == (lhs: FormatVersion, rhs: FormatVersion) -> Bool {
    (lhs.major, lhs.minor) == (rhs.major, rhs.minor)
  }

  /// Hashes major and minor.
  public func hash(into hasher: inout Hasher) {
    hasher.combine(major)
    hasher.combine(minor)
  }

  /// `4.0`.
  public var description: String { "\(major).\(minor)" }

  init?(reading reader: inout ObjectReader, log: inout DiagnosticLog) {
    let major = reader.int("major", .required, log: &log)
    let minor = reader.int("minor", .required, log: &log)
    unknown = reader.leftovers
    guard let major, let minor else { return nil }
    self.major = major
    self.minor = minor
  }

  var json: JSONValue {
    var object = unknown
    object["major"] = .number(JSONNumber(major))
    object["minor"] = .number(JSONNumber(minor))
    return .object(object)
  }
}
