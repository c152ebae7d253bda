public import Foundation
internal import StoreConfiguration
internal import StoreSimulation

extension Product {
  /// An auto-renewable subscription's details (StoreKit's `Product.SubscriptionInfo`).
  public struct SubscriptionInfo: Equatable, Hashable, Sendable {
    /// The introductory offer, if any.
    public let introductoryOffer: SubscriptionOffer?
    /// The offers a signature redeems, in the configuration's order.
    public let promotionalOffers: [SubscriptionOffer]
    /// The offers for lapsed subscribers, in the configuration's order.
    public let winBackOffers: [SubscriptionOffer]
    /// The subscription group.
    public let subscriptionGroupID: String
    /// How long a period lasts.
    public let subscriptionPeriod: SubscriptionPeriod
    /// The rank within the group: 1 is the highest level.
    public let groupLevel: Int
    /// The group's name, in the customer's language.
    public let groupDisplayName: String
    /// The ways to pay for it (billing plans).
    public let pricingTerms: [PricingTerms]

    init(
      _ product: CatalogProduct, group: CatalogGroup, locale: String, currency: String,
      priceLocale: Locale, seatTiers: [SeatTier]?
    ) {
      func offer(_ offer: CatalogOffer) -> SubscriptionOffer {
        SubscriptionOffer(offer, currency: currency, locale: priceLocale)
      }
      introductoryOffer = product.introductoryOffer.map(offer)
      promotionalOffers = product.promotionalOffers.map(offer)
      winBackOffers = product.winBackOffers.map(offer)
      subscriptionGroupID = group.id
      subscriptionPeriod = SubscriptionPeriod(product.period ?? .init(1, .month))
      groupLevel = product.level
      let name = group.localizations.best(for: locale)?.displayName ?? ""
      groupDisplayName = name.isEmpty ? group.name : name
      pricingTerms = Self.pricingTerms(
        product,
        offers: [introductoryOffer].compactMap { $0 } + promotionalOffers + winBackOffers,
        currency: currency, locale: priceLocale, seatTiers: seatTiers)
    }

    /// Whether the customer may have the group's introductory offer.
    public var isEligibleForIntroOffer: Bool {
      get async { await Self.isEligibleForIntroOffer(for: subscriptionGroupID) }
    }

    /// Whether the customer may have the introductory offer of a group: never subscribed to
    /// it, and never had an introductory offer in it.
    public static func isEligibleForIntroOffer(for groupID: String) async -> Bool {
      Store.current.read { $0.isEligibleForIntroductoryOffer(groupID: groupID) }
    }

    /// The statuses of the group's subscriptions (one per family member; one here).
    public var status: [Status] {
      get async throws { try await Self.status(for: subscriptionGroupID) }
    }

    /// The statuses of a group's subscriptions.
    ///
    /// - Throws: ``StoreKitError`` (a simulated error of `subscriptionStatus`).
    public static func status(for groupID: String) async throws -> [Status] {
      let store = Store.current
      try store.call(.subscriptionStatus)
      return store.read { session in
        session.status(forGroup: groupID).map { [store.status($0)] } ?? []
      }
    }

    /// The status of the subscription a transaction belongs to.
    ///
    /// - Throws: ``StoreKitError`` (a simulated error of `subscriptionStatus`).
    public static func status(transactionID: UInt64) async throws -> Status? {
      let store = Store.current
      try store.call(.subscriptionStatus)
      return store.read { session in
        guard let group = session.transaction(transactionID)?.subscriptionGroupID else {
          return nil
        }
        return session.status(forGroup: group).map { store.status($0) }
      }
    }
  }

  /// A subscription's or an offer's period (StoreKit's `Product.SubscriptionPeriod`).
  public struct SubscriptionPeriod: Equatable, Hashable, Sendable, CustomDebugStringConvertible {
    /// The unit of a period.
    public enum Unit: Equatable, Hashable, Sendable, Comparable, CustomDebugStringConvertible {
      /// Days.
      case day
      /// Weeks.
      case week
      /// Months.
      case month
      /// Years.
      case year

      /// `day`, `week` … (spelled out: interpolating `self` would call this again).
      public var debugDescription: String {
        switch self {
        case .day: "day"
        case .week: "week"
        case .month: "month"
        case .year: "year"
        }
      }
      /// For a person.
      public var localizedDescription: String {
        switch self {
        case .day: "Day"
        case .week: "Week"
        case .month: "Month"
        case .year: "Year"
        }
      }
    }

    /// Day, week, month or year: what `value` counts.
    public let unit: Unit
    /// How many units.
    public let value: Int

    init(unit: Unit, value: Int) {
      self.unit = unit
      self.value = value
    }

    init(_ period: StoreConfiguration.SubscriptionPeriod) {
      let unit: Unit =
        switch period.unit {
        case .day: .day
        case .week: .week
        case .month: .month
        case .year: .year
        }
      self.init(unit: unit, value: period.value)
    }

    /// A period from ISO 8601 (`P1M`, `P3D`).
    init?(iso8601 text: String) {
      guard let period = StoreConfiguration.SubscriptionPeriod(iso8601: text) else { return nil }
      self.init(period)
    }

    /// `3 month`.
    public var debugDescription: String { "\(value) \(unit)" }

    /// The dates a period starting at `referenceDate` spans (Gregorian calendar).
    public func dateRange(referenceDate: Date = .now) -> Range<Date> {
      var calendar = Calendar(identifier: .gregorian)
      calendar.timeZone = TimeZone(identifier: "UTC")!
      let component: Calendar.Component =
        switch unit {
        case .day: .day
        case .week: .weekOfYear
        case .month: .month
        case .year: .year
        }
      let end = calendar.date(byAdding: component, value: value, to: referenceDate)!
      return referenceDate..<end
    }

    /// One week.
    public static var weekly: SubscriptionPeriod { .init(unit: .week, value: 1) }
    /// One month.
    public static var monthly: SubscriptionPeriod { .init(unit: .month, value: 1) }
    /// One year.
    public static var yearly: SubscriptionPeriod { .init(unit: .year, value: 1) }
    /// Three days.
    public static var everyThreeDays: SubscriptionPeriod { .init(unit: .day, value: 3) }
    /// Two weeks.
    public static var everyTwoWeeks: SubscriptionPeriod { .init(unit: .week, value: 2) }
    /// Two months.
    public static var everyTwoMonths: SubscriptionPeriod { .init(unit: .month, value: 2) }
    /// Three months.
    public static var everyThreeMonths: SubscriptionPeriod { .init(unit: .month, value: 3) }
    /// Six months.
    public static var everySixMonths: SubscriptionPeriod { .init(unit: .month, value: 6) }
  }

  /// A subscription offer (StoreKit's `Product.SubscriptionOffer`).
  public struct SubscriptionOffer: Equatable, Hashable, Sendable {
    /// The kind of an offer.
    public struct OfferType: RawRepresentable, Equatable, Hashable, Sendable {
      /// The kind's name.
      public let rawValue: String
      /// A kind by name.
      public init(rawValue: String) { self.rawValue = rawValue }
      /// An introductory offer.
      public static let introductory = OfferType(rawValue: "introductory")
      /// A promotional offer.
      public static let promotional = OfferType(rawValue: "promotional")
      /// A win-back offer.
      public static let winBack = OfferType(rawValue: "winBack")
      /// For a person.
      public var localizedDescription: String { rawValue }
    }

    /// How an offer is paid.
    public struct PaymentMode: RawRepresentable, Equatable, Hashable, Sendable {
      /// The mode's name.
      public let rawValue: String
      /// A mode by name.
      public init(rawValue: String) { self.rawValue = rawValue }
      /// A reduced price each period.
      public static let payAsYouGo = PaymentMode(rawValue: "payAsYouGo")
      /// One payment for its periods.
      public static let payUpFront = PaymentMode(rawValue: "payUpFront")
      /// Free for its periods.
      public static let freeTrial = PaymentMode(rawValue: "freeTrial")
      /// For a person.
      public var localizedDescription: String { rawValue }
    }

    /// A promotional offer's signature from the app's server.
    @available(*, deprecated, message: "Sign promotional offers with JWS")
    public struct Signature: Equatable, Hashable, Sendable {
      /// The key's identifier.
      public var keyID: String
      /// The one-use value the server signed, which the App Store refuses twice.
      public var nonce: UUID
      /// When it was signed, in milliseconds since 1970.
      public var timestamp: Int
      /// The server's ECDSA signature over the offer's fields (DER).
      public var signature: Data

      /// A signature.
      public init(keyID: String, nonce: UUID, timestamp: Int, signature: Data) {
        self.keyID = keyID
        self.nonce = nonce
        self.timestamp = timestamp
        self.signature = signature
      }
    }

    /// The offer's identifier (`nil` for an introductory offer).
    public let id: String?
    /// Its kind.
    public let type: OfferType
    /// The price per period (or in all, paid up front).
    public let price: Decimal
    /// The price, formatted.
    public let displayPrice: String
    /// One period of the offer.
    public let period: SubscriptionPeriod
    /// How many periods it lasts.
    public let periodCount: Int
    /// How it is paid.
    public let paymentMode: PaymentMode

    init(_ offer: CatalogOffer, currency: String, locale: Locale) {
      id = offer.id
      type =
        switch offer.kind {
        case .introductory: .introductory
        case .winBack: .winBack
        case .promotional, .code: .promotional
        }
      price = Decimal(offer.price) / 1000
      displayPrice = Product.format(price, currency: currency, locale: locale)
      period = SubscriptionPeriod(offer.period)
      periodCount = offer.paymentMode == .payAsYouGo ? offer.periodCount : 1
      paymentMode =
        switch offer.paymentMode {
        case .payAsYouGo: .payAsYouGo
        case .payUpFront, .oneTime: .payUpFront  // one-time offers belong to no subscription
        case .free, .none: .freeTrial
        }
    }
  }
}

/// `Product.SubscriptionInfo`.
public typealias SubscriptionInfo = Product.SubscriptionInfo
/// `Product.SubscriptionPeriod`.
public typealias SubscriptionPeriod = Product.SubscriptionPeriod
