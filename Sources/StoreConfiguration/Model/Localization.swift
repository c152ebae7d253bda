import StoreJSON

/// A product's or group's name and description in one locale.
public struct Localization: Equatable, Sendable {
  /// The locale, in either of the forms real files use: `en_US`, `ja`, `zh_Hans`.
  public var locale: String
  /// The name StoreKit shows.
  public var displayName: String
  /// The description StoreKit shows.
  public var description: String
  /// Keys this model does not know, written back unchanged.
  public var unknown = JSONObject()

  /// Creates a localization.
  public init(locale: String, displayName: String, description: String) {
    self.locale = locale
    self.displayName = displayName
    self.description = description
  }

  init(reading reader: inout ObjectReader, log: inout DiagnosticLog) {
    locale = reader.string("locale", .expected, log: &log) ?? ""
    displayName = reader.string("displayName", .expected, log: &log) ?? ""
    description = reader.string("description", .expected, log: &log) ?? ""
    unknown = reader.leftovers
  }

  var json: JSONValue {
    var object = unknown
    object["description"] = .string(description)
    object["displayName"] = .string(displayName)
    object["locale"] = .string(locale)
    return .object(object)
  }
}

extension Array where Element == Localization {
  /// The localization that best matches `locale`: the exact identifier, then the same
  /// language (`ja` for `ja_JP`, `zh_Hans` for `zh_CN`), then `en_US`, then the first.
  public func best(for locale: String) -> Localization? {
    func normalized(_ identifier: String) -> String {
      identifier.replacingOccurrences(of: "-", with: "_").lowercased()
    }
    let wanted = normalized(locale)
    let language = wanted.split(separator: "_").first.map(String.init) ?? wanted
    return first { normalized($0.locale) == wanted }
      ?? first { normalized($0.locale).split(separator: "_").first.map(String.init) == language }
      ?? first { normalized($0.locale) == "en_us" }
      ?? first
  }
}
