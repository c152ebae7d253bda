import StoreJSON
import StoreUtilities

/// A StoreKit configuration: the typed content of a `.storekit` file, formats 1.0 to 5.0.
///
/// Load one with ``load(_:)`` or ``load(contentsOf:)``; write it back with
/// ``xcodeFormattedBytes()``, which reproduces Xcode's formatting byte for byte and keeps keys
/// the model does not know.
public struct StoreKitConfiguration: Equatable, Sendable {
  /// Xcode's identifier for the file (8 hex digits), absent in format 1.0.
  public var identifier: String?
  /// The declared format version. The reader goes by the keys present, not by this.
  public var version: FormatVersion?
  /// Consumables and non-consumables.
  public var products: [Product]?
  /// Non-renewing subscriptions (format 1.1 and later).
  public var nonRenewingSubscriptions: [Product]?
  /// The auto-renewable subscriptions, by group (`nil` when the file has none).
  public var subscriptionGroups: [SubscriptionGroup]?
  /// The test session's settings; absent in one hand-minified file.
  public var settings: Settings?
  /// The EULA and policies (format 4.0 and later).
  public var appPolicies: AppPolicies?
  /// The local key for promotional offer signatures.
  public var subscriptionOffersKeyPair: OfferKeyPair?
  /// Top-level keys this model does not know, written back unchanged.
  public var unknown = JSONObject()
  /// The white space after the closing brace, kept so that a round trip is exact.
  public var trailingWhitespace = "\n"

  /// Creates a configuration in the current format with no products.
  public init() {
    version = FormatVersion(4, 0)
    products = []
    nonRenewingSubscriptions = []
    subscriptionGroups = []
    settings = Settings()
  }

  /// Every subscription of every group, in file order.
  public var allSubscriptions: [Subscription] {
    (subscriptionGroups ?? []).flatMap(\.subscriptions)
  }

  init?(document: JSONDocument, log: inout DiagnosticLog) {
    guard case .object = document.root else {
      log.error(
        nil,
        "not a StoreKit configuration: the top level is \(document.root.kindDescription), "
          + "and Xcode writes an object")
      return nil
    }
    guard var reader = ObjectReader(document.root, at: .root, log: &log) else { return nil }
    trailingWhitespace = document.trailingWhitespace
    let sections = ["products", "subscriptionGroups", "nonRenewingSubscriptions"]
    guard sections.contains(where: reader.contains) else {
      log.error(
        nil,
        "not a StoreKit configuration: none of \"products\", \"subscriptionGroups\" or "
          + "\"nonRenewingSubscriptions\" is present")
      return nil
    }
    if let version = reader.peek("version"), case .object = version {
    } else if let version = reader.peek("version") {
      log.error(
        JSONPath.root.appending("version"),
        "not a StoreKit configuration: \"version\" must be an object such as "
          + "{\"major\" : 4, \"minor\" : 0}, found \(version.kindDescription)")
      return nil
    }
    identifier = reader.string("identifier", .optional, log: &log)
    version = reader.object("version", .expected, log: &log) { reader, log in
      FormatVersion(reading: &reader, log: &log)
    }
    if identifier == nil, version.map({ $0 > FormatVersion(1, 0) }) ?? true {
      log.warning(nil, "missing \"identifier\"; Xcode writes one from format 1.1 on")
    }
    products = reader.products("products", log: &log) {
      $0 != .nonRenewingSubscription && $0 != .autoRenewableSubscription
    }
    nonRenewingSubscriptions = reader.products("nonRenewingSubscriptions", log: &log) {
      $0 == .nonRenewingSubscription
    }
    subscriptionGroups = reader.objects("subscriptionGroups", .expected, log: &log) { reader, log in
      SubscriptionGroup(reading: &reader, log: &log)
    }
    settings = reader.object("settings", .expected, log: &log) { reader, log in
      Settings(reading: &reader, log: &log)
    }
    appPolicies = reader.object("appPolicies", .optional, log: &log) { reader, log in
      AppPolicies(reading: &reader, log: &log)
    }
    subscriptionOffersKeyPair = reader.object("subscriptionOffersKeyPair", .optional, log: &log) {
      reader, log in OfferKeyPair(reading: &reader, log: &log)
    }
    unknown = reader.leftovers
    validateAcrossSections(log: &log)
  }

  /// The configuration as a JSON document.
  public var document: JSONDocument {
    var object = unknown
    object["identifier"] = identifier.map { .string($0) }
    object["version"] = version?.json
    object["products"] = products.map { .array($0.map { .object($0.commonJSON) }) }
    object["nonRenewingSubscriptions"] = nonRenewingSubscriptions.map {
      .array($0.map { .object($0.commonJSON) })
    }
    object["subscriptionGroups"] = subscriptionGroups.map { .array($0.map(\.json)) }
    object["settings"] = settings?.json
    object["appPolicies"] = appPolicies?.json
    object["subscriptionOffersKeyPair"] = subscriptionOffersKeyPair?.json
    return JSONDocument(root: .object(object), trailingWhitespace: trailingWhitespace)
  }

  /// The file's bytes in Xcode's formatting.
  public func xcodeFormattedBytes() -> [UInt8] { JSONWriter.xcodeFormatted(document) }
}

extension ObjectReader {
  fileprivate mutating func products(
    _ key: String, log: inout DiagnosticLog, allowed: @escaping (ProductType) -> Bool
  ) -> [Product]? {
    let section = key
    return objects(key, key == "products" ? .expected : .optional, log: &log) { reader, log in
      guard var product = Product(readingCommonFieldsOf: &reader, log: &log) else { return nil }
      product.oneTimeCodeOffers = reader.objects("codeOffers", .optional, log: &log) {
        reader, log in SubscriptionOffer(readingOneTime: &reader, log: &log)
      }
      if let names = product.oneTimeCodeOffers?.compactMap(\.referenceName),
        Set(names).count != names.count
      {
        log.error(
          reader.path.appending("codeOffers"), "two offer codes have the same referenceName")
      }
      product.unknown = reader.leftovers
      if !allowed(product.type) {
        log.error(
          reader.path.appending("type"),
          "a \"\(product.type.rawValue)\" product does not belong in \(section)")
      }
      return product
    }
  }
}

extension StoreKitConfiguration {
  /// Writes the configuration to `path` in Xcode's formatting, atomically: the bytes go to a
  /// temporary file beside it, are flushed to disk, and then replace the file by a rename. On
  /// any error the original file is untouched. The original's permissions are kept.
  ///
  /// - Returns: whether the file changed (nothing is written when the bytes are the same).
  @discardableResult
  public func write(toFile path: String) throws -> Bool {
    try AtomicFile.write(xcodeFormattedBytes(), to: path)
  }
}
