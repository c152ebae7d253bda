public import Foundation
internal import StoreConfiguration
internal import StoreSimulation

extension Product.SubscriptionInfo {
  /// How a subscription is billed: up front, or monthly over a 12-month commitment.
  public struct BillingPlanType: RawRepresentable, Equatable, Hashable, Sendable {
    /// The plan's name as the App Store writes it (`BILLED_UPFRONT`, `MONTHLY`).
    public let rawValue: String
    /// A plan by name.
    public init(rawValue: String) { self.rawValue = rawValue }
    /// A payment each month of a 12-month commitment.
    public static let monthly = BillingPlanType(rawValue: "MONTHLY")
    /// One payment for the whole period.
    public static let upFront = BillingPlanType(rawValue: "BILLED_UPFRONT")
  }

  /// How often a plan bills.
  public typealias BillingPeriod = Product.SubscriptionPeriod

  /// The commitment a plan asks for: its length and what it costs in all.
  public struct CommitmentInfo: Equatable, Hashable, Sendable {
    /// The commitment's whole price, formatted for the storefront.
    public let displayPrice: String
    /// How long the commitment lasts.
    public let period: Product.SubscriptionPeriod
    /// The commitment's whole price.
    public let price: Decimal
  }

  /// One way to pay for the subscription (a billing plan of the configuration's
  /// `billingPlans`, or the product's own price when it has none).
  public struct PricingTerms: Equatable, Hashable, Sendable {
    /// What one billing costs, formatted for the storefront.
    public let billingDisplayPrice: String
    /// How often it bills.
    public let billingPeriod: BillingPeriod
    /// How it bills: up front, or monthly over a commitment.
    public let billingPlanType: BillingPlanType
    /// What one billing costs.
    public let billingPrice: Decimal
    /// The 12-month commitment a monthly plan runs in: its total price and payments.
    public let commitmentInfo: CommitmentInfo
    /// The offers of this plan.
    public let subscriptionOffers: [Product.SubscriptionOffer]
    /// One price, or seat-based (a multiseat subscription's tiers).
    public let pricingModel: PricingModel

    /// The plan's offers of one type.
    public subscript(offers type: Product.SubscriptionOffer.OfferType) -> [Product
      .SubscriptionOffer]
    {
      subscriptionOffers.filter { $0.type == type }
    }
  }

  /// The pricing terms of a subscription: one per enabled billing plan (a monthly plan bills
  /// each month of a 12-month commitment); a subscription without billing plans has one, its own
  /// price paid up front for its period; then, for one that sells seats, its seat-based terms.
  static func pricingTerms(
    _ product: CatalogProduct, offers: [Product.SubscriptionOffer], currency: String,
    locale: Locale, seatTiers: [SeatTier]?
  ) -> [PricingTerms] {
    let period = Product.SubscriptionPeriod(product.period ?? .init(1, .month))
    let seats = seatTiers.flatMap {
      seatTerms($0, period: period, currency: currency, locale: locale)
    }
    return singlePriceTerms(product, offers: offers, currency: currency, locale: locale)
      + (seats.map { [$0] } ?? [])
  }

  private static func singlePriceTerms(
    _ product: CatalogProduct, offers: [Product.SubscriptionOffer], currency: String,
    locale: Locale
  ) -> [PricingTerms] {
    let period = Product.SubscriptionPeriod(product.period ?? .init(1, .month))
    func money(_ milliunits: Int64) -> (Decimal, String) {
      let price = Decimal(milliunits) / 1000
      return (price, Product.format(price, currency: currency, locale: locale))
    }
    guard !product.billingPlans.isEmpty else {
      let (price, text) = money(product.price)
      let commitment = CommitmentInfo(displayPrice: text, period: period, price: price)
      let billing = BillingInfo(price: price, displayPrice: text, period: period)
      return [
        PricingTerms(
          billingDisplayPrice: text, billingPeriod: period, billingPlanType: .upFront,
          billingPrice: price, commitmentInfo: commitment, subscriptionOffers: offers,
          pricingModel: .singlePrice(.init(billingInfo: billing, commitmentInfo: commitment)))
      ]
    }
    return product.billingPlans.map { plan in
      let (price, text) = money(plan.price)
      let (total, totalText) = money(plan.commitmentPrice)
      let commitment = plan.isMonthly ? Product.SubscriptionPeriod(unit: .year, value: 1) : period
      let billingPeriod =
        plan.isMonthly ? Product.SubscriptionPeriod(unit: .month, value: 1) : period
      let commitmentInfo = CommitmentInfo(
        displayPrice: totalText, period: commitment, price: total)
      let billing = BillingInfo(price: price, displayPrice: text, period: billingPeriod)
      return PricingTerms(
        billingDisplayPrice: text, billingPeriod: billingPeriod,
        billingPlanType: BillingPlanType(rawValue: plan.type), billingPrice: price,
        commitmentInfo: commitmentInfo,
        subscriptionOffers: plan.offers.map {
          Product.SubscriptionOffer($0, currency: currency, locale: locale)
        }, pricingModel: .singlePrice(.init(billingInfo: billing, commitmentInfo: commitmentInfo)))
    }
  }
}
