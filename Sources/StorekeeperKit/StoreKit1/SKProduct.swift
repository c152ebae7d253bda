public import Foundation

/// A product as StoreKit's original API describes it (StoreKit's `SKProduct`), made from the
/// same catalog entry as StoreKit 2's ``Product``. `@unchecked Sendable`: its properties are
/// constants.
public final class SKProduct: NSObject, @unchecked Sendable {
  /// The unit of a subscription period.
  public enum PeriodUnit: UInt, Sendable, Equatable, Hashable {
    /// Days.
    case day = 0
    /// Weeks.
    case week = 1
    /// Months.
    case month = 2
    /// Years.
    case year = 3
  }

  /// The product identifier.
  public let productIdentifier: String
  /// The name, in the session's language.
  public let localizedTitle: String
  /// The description, in the session's language.
  public let localizedDescription: String
  /// The price in the storefront's currency.
  public let price: NSDecimalNumber
  /// The storefront's locale, whose currency the price is in (format the price with it).
  public let priceLocale: Locale
  /// Whether Family Sharing is on for it.
  public let isFamilyShareable: Bool
  /// Always `false`: Apple-hosted content is not simulated (nor offered since iOS 16).
  public let isDownloadable = false
  /// The sizes of hosted content: none.
  public let downloadContentLengths: [NSNumber] = []
  /// The version of hosted content: none.
  public let downloadContentVersion = ""
  /// The version of hosted content: none (Apple's older name).
  @available(*, deprecated, renamed: "downloadContentVersion")
  public var contentVersion: String { downloadContentVersion }
  /// An auto-renewable subscription's period.
  public let subscriptionPeriod: SKProductSubscriptionPeriod?
  /// An auto-renewable subscription's introductory offer.
  public let introductoryPrice: SKProductDiscount?
  /// An auto-renewable subscription's group identifier.
  public let subscriptionGroupIdentifier: String?
  /// An auto-renewable subscription's promotional offers, in the configuration's order.
  public let discounts: [SKProductDiscount]

  /// The StoreKit 1 face of a StoreKit 2 product.
  init(_ product: Product) {
    productIdentifier = product.id
    localizedTitle = product.displayName
    localizedDescription = product.description
    price = product.price as NSDecimalNumber
    priceLocale = product.priceLocale
    isFamilyShareable = product.isFamilyShareable
    let subscription = product.subscription
    subscriptionPeriod = subscription.map { SKProductSubscriptionPeriod($0.subscriptionPeriod) }
    introductoryPrice = subscription?.introductoryOffer.map {
      SKProductDiscount($0, locale: product.priceLocale)
    }
    subscriptionGroupIdentifier = subscription?.subscriptionGroupID
    discounts =
      subscription?.promotionalOffers.map { SKProductDiscount($0, locale: product.priceLocale) }
      ?? []
  }

  /// `SKProduct: <id>`.
  public override var description: String { "SKProduct: \(productIdentifier)" }
}

/// A subscription period (StoreKit's `SKProductSubscriptionPeriod`). `@unchecked Sendable`: its
/// properties are constants.
public final class SKProductSubscriptionPeriod: NSObject, @unchecked Sendable {
  /// How many units.
  public let numberOfUnits: Int
  /// Day, week, month or year.
  public let unit: SKProduct.PeriodUnit

  init(_ period: Product.SubscriptionPeriod) {
    numberOfUnits = period.value
    unit =
      switch period.unit {
      case .day: .day
      case .week: .week
      case .month: .month
      case .year: .year
      }
  }

  /// Periods of the same length are equal.
  public override func isEqual(_ object: Any?) -> Bool {
    guard let other = object as? SKProductSubscriptionPeriod else { return false }
    return other.numberOfUnits == numberOfUnits && other.unit == unit
  }

  /// The length's hash.
  public override var hash: Int { numberOfUnits &* 4 &+ Int(unit.rawValue) }
}

/// An introductory or promotional offer of a subscription (StoreKit's `SKProductDiscount`).
/// `@unchecked Sendable`: its properties are constants.
public final class SKProductDiscount: NSObject, @unchecked Sendable {
  /// How the offer is paid.
  public enum PaymentMode: UInt, Sendable, Equatable, Hashable {
    /// A reduced price each period.
    case payAsYouGo = 0
    /// One payment for its periods.
    case payUpFront = 1
    /// Free for its periods.
    case freeTrial = 2
  }

  /// The kind of offer.
  public enum `Type`: UInt, Sendable, Equatable, Hashable {
    /// The introductory offer.
    case introductory = 0
    /// A promotional offer (redeemed with an `SKPaymentDiscount`).
    case subscription = 1
  }

  /// The price per period (or in all, paid up front), in the storefront's currency.
  public let price: NSDecimalNumber
  /// The storefront's locale.
  public let priceLocale: Locale
  /// The promotional offer's identifier (`nil` for the introductory offer).
  public let identifier: String?
  /// One period of the offer.
  public let subscriptionPeriod: SKProductSubscriptionPeriod
  /// How many periods it lasts.
  public let numberOfPeriods: Int
  /// How it is paid.
  public let paymentMode: PaymentMode
  /// Introductory or promotional.
  public let type: `Type`

  init(_ offer: Product.SubscriptionOffer, locale: Locale) {
    price = offer.price as NSDecimalNumber
    priceLocale = locale
    identifier = offer.type == .introductory ? nil : offer.id
    subscriptionPeriod = SKProductSubscriptionPeriod(offer.period)
    numberOfPeriods = offer.periodCount
    paymentMode =
      switch offer.paymentMode {
      case .payUpFront: .payUpFront
      case .freeTrial: .freeTrial
      default: .payAsYouGo
      }
    type = offer.type == .introductory ? .introductory : .subscription
  }
}
