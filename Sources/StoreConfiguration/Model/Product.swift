import StoreJSON

/// The kind of an in-app purchase, spelled as `.storekit` files spell it.
public enum ProductType: String, CaseIterable, Sendable {
  /// Bought again and again (`Consumable`).
  case consumable = "Consumable"
  /// Bought once, kept (`NonConsumable`).
  case nonConsumable = "NonConsumable"
  /// A subscription without renewals (`NonRenewingSubscription`).
  case nonRenewingSubscription = "NonRenewingSubscription"
  /// An auto-renewable subscription (`RecurringSubscription`).
  case autoRenewableSubscription = "RecurringSubscription"
}

/// The fields every product has: entries of `products[]` and `nonRenewingSubscriptions[]`,
/// and the common part of a subscription.
public struct Product: Equatable, Sendable {
  /// The product identifier the app asks StoreKit for.
  public var productID: String
  /// The kind of product.
  public var type: ProductType
  /// The price in the storefront's currency.
  public var displayPrice: Price
  /// Xcode's reference name; `null` in a few old files.
  public var referenceName: Nullable<String>
  /// Whether family sharing is enabled.
  public var familyShareable: Bool
  /// Xcode's local id (8 hex digits) or App Store Connect's Apple ID.
  public var internalID: String
  /// Names and descriptions per locale.
  public var localizations: [Localization]
  /// The product image's id (format 4.0 and later, rare).
  public var promotionalImageID: String?
  /// A one-time product's offer codes (`products[].codeOffers[]`, `paymentMode` `oneTime`);
  /// a subscription's are its own.
  public var oneTimeCodeOffers: [SubscriptionOffer]?
  /// Keys this model does not know, written back unchanged.
  public var unknown = JSONObject()

  /// Creates a product.
  public init(
    productID: String, type: ProductType, displayPrice: Price,
    referenceName: Nullable<String> = .absent, familyShareable: Bool = false,
    internalID: String = "", localizations: [Localization] = []
  ) {
    self.productID = productID
    self.type = type
    self.displayPrice = displayPrice
    self.referenceName = referenceName
    self.familyShareable = familyShareable
    self.internalID = internalID
    self.localizations = localizations
  }

  /// Reads the common fields; the caller reads its own and then stores the leftovers.
  init?(readingCommonFieldsOf reader: inout ObjectReader, log: inout DiagnosticLog) {
    let productID = reader.string("productID", .required, log: &log)
    let type: ProductType? = reader.enumeration("type", .required, log: &log)
    let price = reader.price("displayPrice", .required, log: &log)
    referenceName = reader.nullableString("referenceName", log: &log)
    if referenceName == .null {
      log.warning(reader.path.appending("referenceName"), "the reference name is null")
    }
    familyShareable = reader.bool("familyShareable", .expected, log: &log) ?? false
    internalID = reader.string("internalID", .expected, log: &log) ?? ""
    localizations = reader.localizations("localizations", log: &log) ?? []
    promotionalImageID = reader.string("promotionalImageID", .optional, log: &log)
    if localizations.isEmpty, productID != nil {
      log.warning(
        reader.path.appending("localizations"),
        "no localizations: StoreKit shows an empty name and description")
    }
    guard let productID, let type, let price else { return nil }
    self.productID = productID
    self.type = type
    self.displayPrice = price
  }

  /// The common fields merged over the unknown keys.
  var commonJSON: JSONObject {
    var object = unknown
    object["displayPrice"] = .string(displayPrice.text)
    object["familyShareable"] = .bool(familyShareable)
    object["internalID"] = .string(internalID)
    object["localizations"] = .array(localizations.map(\.json))
    object["productID"] = .string(productID)
    object["referenceName"] = referenceName.json { .string($0) }
    object["promotionalImageID"] = promotionalImageID.map { .string($0) }
    object["type"] = .string(type.rawValue)
    if let oneTimeCodeOffers { object["codeOffers"] = .array(oneTimeCodeOffers.map(\.json)) }
    return object
  }
}

extension ObjectReader {
  /// Reads a price string, reporting numbers written as JSON numbers, text that is not a
  /// decimal (errors) and empty prices (warnings).
  mutating func price(_ key: String, _ presence: Presence, log: inout DiagnosticLog) -> Price? {
    let price = read(
      key, presence, expecting: "a decimal number in a string, such as \"0.99\"", log: &log
    ) {
      if case .string(let text) = $0 { Price(text) } else { nil }
    }
    guard let price else { return nil }
    if price.isEmpty {
      log.warning(path.appending(key), "the price is empty (\"\"); it is treated as 0")
    } else if !price.isValid {
      log.error(path.appending(key), "\"\(price.text)\" is not a decimal number such as \"0.99\"")
    }
    return price
  }

  mutating func localizations(_ key: String, log: inout DiagnosticLog) -> [Localization]? {
    objects(key, .expected, log: &log) { reader, log in Localization(reading: &reader, log: &log) }
  }

  mutating func period(
    _ key: String, _ presence: Presence, log: inout DiagnosticLog
  )
    -> SubscriptionPeriod?
  {
    guard let text = string(key, presence, log: &log) else { return nil }
    guard let period = SubscriptionPeriod(iso8601: text) else {
      log.error(
        path.appending(key),
        "\"\(text)\" is not an ISO-8601 period such as P3D, P1W, P1M, P6M or P1Y")
      return nil
    }
    return period
  }
}
