public import Foundation
internal import StoreConfiguration
internal import StoreJSON
internal import StoreSimulation

/// A product the app sells, as the App Store describes it in the customer's storefront and
/// language (StoreKit's `Product`).
public struct Product: Identifiable, Sendable {
  /// A product identifier.
  public typealias ID = String

  /// The product identifier.
  public let id: String
  /// The kind of product.
  public let type: ProductType
  /// The name, in the customer's language.
  public let displayName: String
  /// The description, in the customer's language.
  public let description: String
  /// The price in the storefront's currency.
  public let price: Decimal
  /// The price, formatted for the storefront.
  public let displayPrice: String
  /// Whether Family Sharing is on for it.
  public let isFamilyShareable: Bool
  /// An auto-renewable subscription's details.
  public let subscription: SubscriptionInfo?
  /// Whether the product can be bought with `seats(_:)`: every auto-renewable subscription
  /// unless `set seat-pricing <product> off` (a `.storekit` file has no multiseat switch
  /// [unverified]).
  public let supportsMultiSeatPurchase: Bool
  /// The App Store's description of the product, as JSON.
  public let jsonRepresentation: Data
  /// The locale prices are formatted in.
  let priceLocale: Locale
  /// The store it came from (purchases go there).
  let store: Store?

  /// The product `catalogProduct` is, as the session's storefront and locale show it.
  init(_ product: CatalogProduct, in session: SessionView, store: Store?) {
    let storefront = session.settings.storefront
    id = product.productID
    type = ProductType(product.type)
    displayName = product.displayName(locale: session.settings.locale)
    description = product.localizations.best(for: session.settings.locale)?.description ?? ""
    priceLocale = Locale(identifier: storefront.defaultLocale)
    price = Decimal(product.price) / 1000
    displayPrice = Self.format(price, currency: storefront.currency, locale: priceLocale)
    isFamilyShareable = product.familyShareable
    let group = product.groupIndex.map { session.catalog.groups[$0] }
    let locale = priceLocale
    let seatTiers = session.seatTiers(ofProduct: product.productID)
    supportsMultiSeatPurchase = seatTiers != nil
    let subscription =
      product.type == .autoRenewableSubscription
      ? group.map {
        SubscriptionInfo(
          product, group: $0, locale: session.settings.locale, currency: storefront.currency,
          priceLocale: locale, seatTiers: seatTiers)
      } : nil
    self.subscription = subscription
    var attributes = JSONObject([
      JSONMember("name", .string(displayName)),
      JSONMember("description", .string(description)),
      JSONMember("kind", .string(type.rawValue)),
      JSONMember("isFamilyShareable", .bool(isFamilyShareable)),
      JSONMember(
        "offers",
        .array([
          .object(
            JSONObject([
              JSONMember("price", .string("\(price)")),
              JSONMember("priceFormatted", .string(displayPrice)),
              JSONMember("currencyCode", .string(storefront.currency)),
            ]))
        ])),
    ])
    if let group, let subscription {
      attributes["subscriptionFamilyId"] = .string(group.id)
      attributes["subscriptionFamilyName"] = .string(subscription.groupDisplayName)
      attributes["subscriptionFamilyRank"] = .number(JSONNumber(subscription.groupLevel))
      attributes["subscriptionPeriod"] = .string(product.period?.iso8601 ?? "")
    }
    jsonRepresentation = Data(
      JSONWriter.compact(
        .object(
          JSONObject([
            JSONMember("id", .string(id)), JSONMember("type", .string("products")),
            JSONMember("attributes", .object(attributes)),
          ]))
      ).utf8)
    self.store = store
  }

  /// A price formatted as the storefront writes it (`$0.99`, `¥120`).
  static func format(_ price: Decimal, currency: String, locale: Locale) -> String {
    let formatter = NumberFormatter()
    formatter.numberStyle = .currency
    formatter.locale = locale
    formatter.currencyCode = currency
    return formatter.string(from: price as NSDecimalNumber) ?? "\(price) \(currency)"
  }

  /// The products of these identifiers the App Store has, in the storefront and language of
  /// the session; unknown identifiers are left out.
  ///
  /// - Throws: ``StoreKitError`` (a simulated error of `loadProducts`).
  public static func products<Identifiers>(
    for identifiers: Identifiers
  ) async throws -> [Product] where Identifiers: Collection, Identifiers.Element == String {
    try Store.current.products(Set(identifiers))
  }

  /// The latest transaction of this product, if any.
  public var latestTransaction: VerificationResult<Transaction>? {
    get async { await Transaction.latest(for: id) }
  }

  /// The transaction that entitles the customer to this product now, if any.
  @available(*, deprecated, message: "Use the currentEntitlements property instead.")
  public var currentEntitlement: VerificationResult<Transaction>? {
    get async { await Transaction.currentEntitlement(for: id) }
  }

  /// The transactions that entitle the customer to this product now.
  public var currentEntitlements: Transaction.Transactions {
    Transaction.currentEntitlements(for: id)
  }

  /// The price's format style in the storefront's currency.
  public var priceFormatStyle: Decimal.FormatStyle.Currency {
    Decimal.FormatStyle.Currency(
      code: priceLocale.currency?.identifier ?? "", locale: priceLocale)
  }
}

extension Product: Equatable, Hashable {
  /// Two products are equal when the App Store describes them alike.
  public static func == (lhs: Product, rhs: Product) -> Bool {
    lhs.jsonRepresentation == rhs.jsonRepresentation
  }

  /// Hashes the description.
  public func hash(into hasher: inout Hasher) { hasher.combine(jsonRepresentation) }
}

extension Product: CustomDebugStringConvertible {
  /// The App Store's JSON.
  public var debugDescription: String { String(decoding: jsonRepresentation, as: UTF8.self) }
}

extension Product {
  /// The kind of a product.
  public struct ProductType: RawRepresentable, Equatable, Hashable, Sendable {
    /// The kind's name: `Consumable`, `Non-Consumable`, `Non-Renewing Subscription`,
    /// `Auto-Renewable Subscription` (the payloads' `type`).
    public let rawValue: String
    /// A kind by name.
    public init(rawValue: String) { self.rawValue = rawValue }
    /// Used up and bought again.
    public static let consumable = ProductType(rawValue: "Consumable")
    /// Bought once.
    public static let nonConsumable = ProductType(rawValue: "Non-Consumable")
    /// A subscription that does not renew.
    public static let nonRenewable = ProductType(rawValue: "Non-Renewing Subscription")
    /// A subscription that renews.
    public static let autoRenewable = ProductType(rawValue: "Auto-Renewable Subscription")
    /// A bundle of subscriptions (not in `.storekit` files yet).
    public static let subscriptionBundle = ProductType(rawValue: "Subscription Bundle")
    /// A suite of subscriptions (not in `.storekit` files yet).
    public static let subscriptionSuite = ProductType(rawValue: "Subscription Suite")
    /// For a person.
    public var localizedDescription: String { rawValue }

    init(_ type: StoreConfiguration.ProductType) {
      switch type {
      case .consumable: self = .consumable
      case .nonConsumable: self = .nonConsumable
      case .nonRenewingSubscription: self = .nonRenewable
      case .autoRenewableSubscription: self = .autoRenewable
      }
    }

    init(payloadType: String) { self.init(rawValue: payloadType) }
  }

  /// What a purchase came to.
  public enum PurchaseResult: Sendable {
    /// Bought: the transaction.
    case success(VerificationResult<Transaction>)
    /// The customer cancelled.
    case userCancelled
    /// Waiting: Ask to Buy, or an interruption; the transaction comes on
    /// `Transaction.updates`.
    case pending
  }

  /// Why a purchase failed.
  public enum PurchaseError: Error, Equatable, Hashable, Sendable, LocalizedError {
    /// The quantity is not valid.
    case invalidQuantity
    /// The product cannot be bought.
    case productUnavailable
    /// The customer may not make purchases.
    case purchaseNotAllowed
    /// The customer is not eligible for the offer.
    case ineligibleForOffer
    /// The offer identifier is not the product's.
    case invalidOfferIdentifier
    /// The offer's price is not valid.
    case invalidOfferPrice
    /// The offer's signature is not valid.
    case invalidOfferSignature
    /// The offer lacks a parameter.
    case missingOfferParameters
    /// The purchase needs a payment method binding the app has not configured.
    case paymentMethodBindingConfigurationRequired
    /// `seats(_:)` on a product not sold by the seat (iOS 27.3).
    case multiSeatPurchaseDisabled
    /// `seats(_:)` no more than the seats the subscription holds: only the purchaser reduces
    /// seats, in Manage Subscriptions, at the next renewal (iOS 27.3).
    case seatReductionNotAllowed

    /// What went wrong.
    public var errorDescription: String? {
      switch self {
      case .invalidQuantity: "The quantity is not valid."
      case .productUnavailable: "The product is not available."
      case .purchaseNotAllowed: "Purchases are not allowed."
      case .ineligibleForOffer: "The customer is not eligible for the offer."
      case .invalidOfferIdentifier: "The offer identifier is not valid."
      case .invalidOfferPrice: "The offer price is not valid."
      case .invalidOfferSignature: "The offer signature is not valid."
      case .missingOfferParameters: "The offer is missing parameters."
      case .multiSeatPurchaseDisabled: "The product can't be bought by the seat."
      case .seatReductionNotAllowed: "The number of seats can't be reduced by a purchase."
      case .paymentMethodBindingConfigurationRequired:
        "The purchase needs a payment method binding configuration."
      }
    }
  }
}
