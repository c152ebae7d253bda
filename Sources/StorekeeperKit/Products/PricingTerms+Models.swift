public import Foundation
internal import StoreSimulation

extension Product.SubscriptionInfo {
  /// The price charged at each billing event, and the period between renewals.
  public struct BillingInfo: Equatable, Hashable, Sendable {
    /// The price charged at each billing event, in local currency.
    public let price: Decimal
    /// The price, formatted for the storefront.
    public let displayPrice: String
    /// The period between renewals.
    public let period: Product.SubscriptionInfo.BillingPeriod
  }
}

extension Product.SubscriptionInfo.PricingTerms {
  /// How these terms price the subscription: one price (bought alone), or by the seat (bought
  /// with `seats(_:)`). StoreKit may add models: switch with `@unknown default`.
  public enum PricingModel: Equatable, Hashable, Sendable {
    /// One price for the subscription.
    case singlePrice(SinglePrice)
    /// A per-seat price for each of up to five tiers of seats.
    case seatBased(SeatBasedPricing)
  }

  /// The price and commitment of a subscription bought alone.
  public struct SinglePrice: Equatable, Hashable, Sendable {
    /// The price charged at each billing event, and the period between renewals.
    public let billingInfo: Product.SubscriptionInfo.BillingInfo
    /// The commitment: its length and total price.
    public let commitmentInfo: Product.SubscriptionInfo.CommitmentInfo
  }

  /// The per-seat price tiers of a multiseat subscription: one for per-seat pricing, up to
  /// five for volume pricing; each seat costs its own tier's price.
  public struct SeatBasedPricing: Equatable, Hashable, Sendable {
    /// A per-seat price for a range of seats.
    public struct PriceTier: Equatable, Hashable, Sendable {
      /// The seat count at which the tier's range starts.
      public let minimumSeats: Int
      /// The last seat of the range; `nil` for every seat after the tiers before.
      public let maximumSeats: Int?
      /// The price of one seat in this tier, and the period between renewals.
      public let billingInfo: Product.SubscriptionInfo.BillingInfo
    }

    /// The tiers, in ascending order of seat count.
    public let priceTiers: [PriceTier]
  }
}

extension Product.SubscriptionInfo {
  /// The seat-based terms of a subscription that sells seats (Storekeeper's tiers: one at
  /// the product's price unless `set seat-pricing` gives others), paid up front each period.
  static func seatTerms(
    _ tiers: [SeatTier], period: Product.SubscriptionPeriod, currency: String, locale: Locale
  ) -> PricingTerms? {
    func billing(_ milliunits: Int64) -> BillingInfo {
      let price = Decimal(milliunits) / 1000
      return BillingInfo(
        price: price, displayPrice: Product.format(price, currency: currency, locale: locale),
        period: period)
    }
    var minimum = 1
    let priceTiers = tiers.map { tier in
      defer { minimum = (tier.maximumSeats ?? minimum) + 1 }
      return PricingTerms.SeatBasedPricing.PriceTier(
        minimumSeats: minimum, maximumSeats: tier.maximumSeats, billingInfo: billing(tier.price))
    }
    guard let first = priceTiers.first?.billingInfo else { return nil }
    return PricingTerms(
      billingDisplayPrice: first.displayPrice, billingPeriod: period, billingPlanType: .upFront,
      billingPrice: first.price,
      commitmentInfo: CommitmentInfo(
        displayPrice: first.displayPrice, period: period, price: first.price),
      subscriptionOffers: [], pricingModel: .seatBased(.init(priceTiers: priceTiers)))
  }
}
