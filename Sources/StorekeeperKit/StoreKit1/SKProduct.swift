public import Foundation

/// A product as StoreKit's original API describes it (StoreKit's `SKProduct`), made from the
/// same catalog entry as StoreKit 2's ``Product``. Open, with overridable properties and
/// `init()`, as Apple's is: tests mock it (`class MockProduct: SKProduct { override var
/// productIdentifier: String { "x" } }`) or fill an empty one with key-value coding
/// (`setValue("x", forKey: "productIdentifier")`), and a payment for a mocked product reaches
/// the queue by its identifier. `@unchecked Sendable`: its values change only by key-value
/// coding, which a test double does before it hands the product over.
open class SKProduct: NSObject, _SKKeyValueCoding, @unchecked Sendable {
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

  private struct Values {
    var productIdentifier = ""
    var localizedTitle = ""
    var localizedDescription = ""
    var price = NSDecimalNumber.zero
    var priceLocale = Locale(identifier: "en_US")
    var isFamilyShareable = false
    var subscriptionPeriod: SKProductSubscriptionPeriod?
    var introductoryPrice: SKProductDiscount?
    var subscriptionGroupIdentifier: String?
    var discounts: [SKProductDiscount] = []
  }

  private var values: Values

  /// An empty product (no identifier, free), for a subclass to describe.
  public override init() {
    values = Values()
    super.init()
  }

  /// The StoreKit 1 face of a StoreKit 2 product.
  init(_ product: Product) {
    let subscription = product.subscription
    values = Values(
      productIdentifier: product.id, localizedTitle: product.displayName,
      localizedDescription: product.description, price: product.price as NSDecimalNumber,
      priceLocale: product.priceLocale, isFamilyShareable: product.isFamilyShareable,
      subscriptionPeriod: subscription.map { SKProductSubscriptionPeriod($0.subscriptionPeriod) },
      introductoryPrice: subscription?.introductoryOffer.map {
        SKProductDiscount($0, locale: product.priceLocale)
      },
      subscriptionGroupIdentifier: subscription?.subscriptionGroupID,
      discounts: subscription?.promotionalOffers.map {
        SKProductDiscount($0, locale: product.priceLocale)
      } ?? [])
    super.init()
  }

  /// The product identifier.
  open var productIdentifier: String { values.productIdentifier }
  /// The name, in the session's language.
  open var localizedTitle: String { values.localizedTitle }
  /// The description, in the session's language.
  open var localizedDescription: String { values.localizedDescription }
  /// The price in the storefront's currency.
  open var price: NSDecimalNumber { values.price }
  /// The storefront's locale, whose currency the price is in (format the price with it).
  open var priceLocale: Locale { values.priceLocale }
  /// Whether Family Sharing is on for it.
  open var isFamilyShareable: Bool { values.isFamilyShareable }
  /// Always `false`: Apple-hosted content is not simulated (nor offered since iOS 16).
  open var isDownloadable: Bool { false }
  /// The sizes of hosted content: none.
  open var downloadContentLengths: [NSNumber] { [] }
  /// The version of hosted content: none.
  open var downloadContentVersion: String { "" }
  /// The version of hosted content: none (Apple's older name).
  @available(*, deprecated, renamed: "downloadContentVersion")
  open var contentVersion: String { downloadContentVersion }
  /// An auto-renewable subscription's period.
  open var subscriptionPeriod: SKProductSubscriptionPeriod? { values.subscriptionPeriod }
  /// An auto-renewable subscription's introductory offer.
  open var introductoryPrice: SKProductDiscount? { values.introductoryPrice }
  /// An auto-renewable subscription's group identifier.
  open var subscriptionGroupIdentifier: String? { values.subscriptionGroupIdentifier }
  /// An auto-renewable subscription's promotional offers, in the configuration's order.
  open var discounts: [SKProductDiscount] { values.discounts }

  /// `SKProduct: <id>`.
  open override var description: String { "SKProduct: \(productIdentifier)" }

  /// Stores a value by Apple's property name (hosted content's keys are taken and ignored).
  public func _setKeyed(_ value: Any?, forKey key: String) -> Bool {
    let given = KeyedValue(value, key: key, of: self)
    switch key {
    case "productIdentifier": values.productIdentifier = given.string()
    case "localizedTitle": values.localizedTitle = given.string()
    case "localizedDescription": values.localizedDescription = given.string()
    case "price": values.price = given.decimal()
    case "priceLocale": values.priceLocale = given.locale()
    case "isFamilyShareable", "familyShareable": values.isFamilyShareable = given.bool()
    case "subscriptionPeriod":
      values.subscriptionPeriod = given.optional(SKProductSubscriptionPeriod.self)
    case "introductoryPrice": values.introductoryPrice = given.optional(SKProductDiscount.self)
    case "subscriptionGroupIdentifier":
      values.subscriptionGroupIdentifier = given.optional(String.self)
    case "discounts": values.discounts = given.optional([SKProductDiscount].self) ?? []
    case "downloadable", "isDownloadable", "downloadContentLengths", "downloadContentVersion",
      "contentVersion":
      break
    default: return false
    }
    return true
  }

  /// A property's value by Apple's name.
  public func _keyed(_ key: String) -> Any?? {
    switch key {
    case "productIdentifier": productIdentifier
    case "localizedTitle": localizedTitle
    case "localizedDescription": localizedDescription
    case "price": price
    case "priceLocale": priceLocale
    case "isFamilyShareable", "familyShareable": isFamilyShareable
    case "subscriptionPeriod": .some(subscriptionPeriod)
    case "introductoryPrice": .some(introductoryPrice)
    case "subscriptionGroupIdentifier": .some(subscriptionGroupIdentifier)
    case "discounts": discounts
    case "downloadable", "isDownloadable": isDownloadable
    case "downloadContentLengths": downloadContentLengths
    case "downloadContentVersion", "contentVersion": downloadContentVersion
    default: nil
    }
  }

  #if canImport(ObjectiveC)
    /// Sets one of Apple's Objective-C properties by name (``KeyedValue``'s conversions).
    open override func setValue(_ value: Any?, forKey key: String) {
      if !_setKeyed(value, forKey: key) { super.setValue(value, forKey: key) }
    }
    /// Reads one of Apple's Objective-C properties by name.
    open override func value(forKey key: String) -> Any? { _keyed(key) ?? super.value(forKey: key) }
  #endif
}

/// A subscription period (StoreKit's `SKProductSubscriptionPeriod`): open, as Apple's is, so
/// tests may mock it or fill an empty one by key-value coding. `@unchecked Sendable`: its
/// values change only by key-value coding, before a test double hands it over.
open class SKProductSubscriptionPeriod: NSObject, _SKKeyValueCoding, @unchecked Sendable {
  private var length: (units: Int, unit: SKProduct.PeriodUnit)

  /// An empty period (no units of a day), for a subclass to describe.
  public override init() {
    length = (0, .day)
    super.init()
  }

  init(_ period: Product.SubscriptionPeriod) {
    let unit: SKProduct.PeriodUnit =
      switch period.unit {
      case .day: .day
      case .week: .week
      case .month: .month
      case .year: .year
      }
    length = (period.value, unit)
    super.init()
  }

  /// How many units.
  open var numberOfUnits: Int { length.units }
  /// Day, week, month or year.
  open var unit: SKProduct.PeriodUnit { length.unit }

  /// Periods of the same length are equal.
  open override func isEqual(_ object: Any?) -> Bool {
    guard let other = object as? SKProductSubscriptionPeriod else { return false }
    return other.numberOfUnits == numberOfUnits && other.unit == unit
  }

  /// The length's hash.
  open override var hash: Int { numberOfUnits &* 4 &+ Int(unit.rawValue) }

  /// Stores a value by Apple's property name.
  public func _setKeyed(_ value: Any?, forKey key: String) -> Bool {
    let given = KeyedValue(value, key: key, of: self)
    switch key {
    case "numberOfUnits": length.units = given.integer()
    case "unit": length.unit = given.raw(SKProduct.PeriodUnit.self)
    default: return false
    }
    return true
  }

  /// A property's value by Apple's name (an enumeration by its raw value, as Objective-C's).
  public func _keyed(_ key: String) -> Any?? {
    switch key {
    case "numberOfUnits": numberOfUnits
    case "unit": unit.rawValue
    default: nil
    }
  }

  #if canImport(ObjectiveC)
    /// Sets one of Apple's Objective-C properties by name (``KeyedValue``'s conversions).
    open override func setValue(_ value: Any?, forKey key: String) {
      if !_setKeyed(value, forKey: key) { super.setValue(value, forKey: key) }
    }
    /// Reads one of Apple's Objective-C properties by name.
    open override func value(forKey key: String) -> Any? { _keyed(key) ?? super.value(forKey: key) }
  #endif
}

/// An introductory or promotional offer of a subscription (StoreKit's `SKProductDiscount`):
/// open, as Apple's is, so tests may mock it or fill an empty one by key-value coding.
/// `@unchecked Sendable`: its values change only by key-value coding, before a test double
/// hands it over.
open class SKProductDiscount: NSObject, _SKKeyValueCoding, @unchecked Sendable {
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

  private struct Values {
    var price = NSDecimalNumber.zero
    var priceLocale = Locale(identifier: "en_US")
    var identifier: String?
    var subscriptionPeriod = SKProductSubscriptionPeriod()
    var numberOfPeriods = 0
    var paymentMode = PaymentMode.payAsYouGo
    var type = `Type`.introductory
  }

  private var values: Values

  /// An empty offer, for a subclass to describe.
  public override init() {
    values = Values()
    super.init()
  }

  init(_ offer: Product.SubscriptionOffer, locale: Locale) {
    let mode: PaymentMode =
      switch offer.paymentMode {
      case .payUpFront: .payUpFront
      case .freeTrial: .freeTrial
      default: .payAsYouGo
      }
    values = Values(
      price: offer.price as NSDecimalNumber, priceLocale: locale,
      identifier: offer.type == .introductory ? nil : offer.id,
      subscriptionPeriod: SKProductSubscriptionPeriod(offer.period),
      numberOfPeriods: offer.periodCount, paymentMode: mode,
      type: offer.type == .introductory ? .introductory : .subscription)
    super.init()
  }

  /// The price per period (or in all, paid up front), in the storefront's currency.
  open var price: NSDecimalNumber { values.price }
  /// The storefront's locale.
  open var priceLocale: Locale { values.priceLocale }
  /// The promotional offer's identifier (`nil` for the introductory offer).
  open var identifier: String? { values.identifier }
  /// One period of the offer.
  open var subscriptionPeriod: SKProductSubscriptionPeriod { values.subscriptionPeriod }
  /// How many periods it lasts.
  open var numberOfPeriods: Int { values.numberOfPeriods }
  /// How it is paid.
  open var paymentMode: PaymentMode { values.paymentMode }
  /// Introductory or promotional.
  open var type: `Type` { values.type }

  /// Stores a value by Apple's property name.
  public func _setKeyed(_ value: Any?, forKey key: String) -> Bool {
    let given = KeyedValue(value, key: key, of: self)
    switch key {
    case "price": values.price = given.decimal()
    case "priceLocale": values.priceLocale = given.locale()
    case "identifier": values.identifier = given.optional(String.self)
    case "subscriptionPeriod":
      values.subscriptionPeriod = given.required(SKProductSubscriptionPeriod.self)
    case "numberOfPeriods": values.numberOfPeriods = given.integer()
    case "paymentMode": values.paymentMode = given.raw(PaymentMode.self)
    case "type": values.type = given.raw(`Type`.self)
    default: return false
    }
    return true
  }

  /// A property's value by Apple's name (an enumeration by its raw value, as Objective-C's).
  public func _keyed(_ key: String) -> Any?? {
    switch key {
    case "price": price
    case "priceLocale": priceLocale
    case "identifier": .some(identifier)
    case "subscriptionPeriod": subscriptionPeriod
    case "numberOfPeriods": numberOfPeriods
    case "paymentMode": paymentMode.rawValue
    case "type": type.rawValue
    default: nil
    }
  }

  #if canImport(ObjectiveC)
    /// Sets one of Apple's Objective-C properties by name (``KeyedValue``'s conversions).
    open override func setValue(_ value: Any?, forKey key: String) {
      if !_setKeyed(value, forKey: key) { super.setValue(value, forKey: key) }
    }
    /// Reads one of Apple's Objective-C properties by name.
    open override func value(forKey key: String) -> Any? { _keyed(key) ?? super.value(forKey: key) }
  #endif
}
