/// `Product.SubscriptionInfo.RenewalState`.
public enum RenewalState: String, Sendable, CaseIterable {
  /// The customer is subscribed.
  case subscribed
  /// The subscription ended.
  case expired
  /// Renewal failed and Apple keeps retrying; no service.
  case inBillingRetryPeriod
  /// Renewal failed; service goes on until the grace period ends.
  case inGracePeriod
  /// Refunded or revoked.
  case revoked

  /// Apple's number for the state, as the App Store Server API's `status` and a notification's
  /// `data.status` give it: 1 active, 2 expired, 3 billing retry, 4 grace period, 5 revoked.
  public var statusNumber: Int {
    switch self {
    case .subscribed: 1
    case .expired: 2
    case .inBillingRetryPeriod: 3
    case .inGracePeriod: 4
    case .revoked: 5
    }
  }
}

/// `Product.SubscriptionInfo.RenewalInfo.ExpirationReason`.
public enum ExpirationReason: String, Sendable {
  /// The customer turned auto-renew off.
  case autoRenewDisabled
  /// Billing failed.
  case billingError
  /// The customer did not agree to a price increase.
  case didNotConsentToPriceIncrease
  /// The product was not available to renew.
  case productUnavailable
  /// Any other reason.
  case unknown
}

/// `Product.SubscriptionInfo.RenewalInfo.PriceIncreaseStatus`.
public enum PriceIncreaseStatus: String, Sendable {
  /// No price increase awaits consent.
  case noIncreasePending
  /// A price increase awaits consent.
  case pending
  /// The customer agreed to the price increase.
  case agreed
}

/// `Product.SubscriptionInfo.RenewalInfo`: what happens at the next renewal.
public struct RenewalInfo: Equatable, Sendable {
  /// The original transaction of the subscription.
  public var originalTransactionID: UInt64
  /// The product of the current period.
  public var currentProductID: String
  /// The product the next renewal is for (differs after a downgrade or crossgrade).
  public var autoRenewPreference: String
  /// Whether the subscription renews.
  public var willAutoRenew: Bool
  /// Why it expired (or, in billing retry, why it is failing).
  public var expirationReason: ExpirationReason?
  /// Whether renewal payments are being retried.
  public var isInBillingRetry: Bool
  /// When the billing grace period ends.
  public var gracePeriodExpirationDate: Instant?
  /// The state of a price increase.
  public var priceIncreaseStatus: PriceIncreaseStatus
  /// The offer that applies to the next renewal.
  public var offer: TransactionOffer?
  /// When the next renewal happens, or would have happened: present whether or not the
  /// subscription renews, as Apple's `renewalDate` always is.
  public var renewalDate: Instant?
  /// The start of the latest uninterrupted run of periods.
  public var recentSubscriptionStartDate: Instant
  /// The price of the next renewal, in milliunits.
  public var renewalPrice: Int64?
  /// The renewal price's currency.
  public var currency: String
  /// Win-back offers the customer may redeem, best first.
  public var eligibleWinBackOfferIDs: [String]
  /// The app account token the subscription was bought with.
  public var appAccountToken: String?
  /// A product with billing plans: the plan of the next payment (`renewalBillingPlanType`).
  public var billingPlanType: BillingPlanType?
  /// A `MONTHLY` plan: the commitment's renewal.
  public var commitment: RenewalCommitment?
  /// A multiseat subscription that renews: the seats that renew (`renewalQuantity`);
  /// ``renewalPrice`` is then the average of a seat.
  public var renewalSeats: Int?
  /// The seats that renew at each price (`renewalPriceTiers`).
  public var renewalSeatTiers: [SeatCharge] = []
  /// An Advanced Commerce subscription: what renews (`advancedCommerceInfo`).
  public var advancedCommerce: CommerceTerms?
  /// Its `consistencyToken`: the value a request that changes it quotes.
  public var consistencyToken: String?
}

/// `Product.SubscriptionInfo.Status`: a group's state with its latest transaction and renewal
/// info, plus the end of billing retry that the Transaction Manager's inspector shows.
public struct SubscriptionStatus: Equatable, Sendable {
  /// The subscription group's id.
  public var groupID: String
  /// The renewal state.
  public var state: RenewalState
  /// The latest transaction's id.
  public var transactionID: UInt64
  /// What renews next: product, auto-renew, offer, price increase, expiration intent.
  public var renewalInfo: RenewalInfo
  /// In grace or billing retry: when retrying stops and the subscription expires.
  public var billingRetryExpirationDate: Instant?
  /// Whose subscription it is: the purchaser's, or a family member's share of it.
  public var owner: Account = .purchaser
  /// An imported customer's `appTransactionId` (Apple's); `nil` for every other.
  var importedAppTransaction: UInt64?
  /// `appTransactionId`: the owner's, or an imported customer's Apple gave.
  public var appTransactionID: String {
    importedAppTransaction.map { String($0) } ?? owner.appTransactionID
  }
}
