public import Foundation

extension Product.SubscriptionInfo {
  /// What happens at a subscription's next renewal, as the App Store signed it (StoreKit's
  /// `Product.SubscriptionInfo.RenewalInfo`): read from its JWS payload.
  public struct RenewalInfo: Sendable {
    /// The JWS payload.
    public var jsonRepresentation: Data { payload.json }
    /// The subscription's original transaction.
    public let originalTransactionID: UInt64
    /// The product of the current period.
    public let currentProductID: String
    /// Whether it renews.
    public let willAutoRenew: Bool
    /// The product the next renewal is for.
    public let autoRenewPreference: String?
    /// Why it expired (or why renewing fails).
    public let expirationReason: ExpirationReason?
    /// The state of a price increase.
    public let priceIncreaseStatus: PriceIncreaseStatus
    /// Whether the App Store is retrying a failed renewal.
    public let isInBillingRetry: Bool
    /// When the grace period ends.
    public let gracePeriodExpirationDate: Date?
    /// The offer that applies to the next renewal (an offer code redeemed, a promotional or
    /// win-back offer).
    public let offer: Transaction.Offer?
    /// The environment that signed it.
    public let environment: AppStore.Environment
    /// The win-back offers the customer may redeem.
    public let eligibleWinBackOfferIDs: [String]
    /// The device verification hash.
    public let deviceVerification: Data
    /// The nonce of the device verification.
    public let deviceVerificationNonce: UUID
    /// When the App Store signed it.
    public let signedDate: Date
    /// What an Advanced Commerce subscription renews, with its consistency token.
    public let advancedCommerceInfo: AdvancedCommerceInfo?

    let payload: Payload
    let jws: String

    init(jws: String) {
      let p = Payload(jws: jws)
      payload = p
      self.jws = jws
      originalTransactionID = p.id("originalTransactionId")
      currentProductID = p.string("productId") ?? ""
      willAutoRenew = p.int("autoRenewStatus") == 1
      autoRenewPreference = p.string("autoRenewProductId")
      expirationReason = p.int("expirationIntent").map(ExpirationReason.init(rawValue:))
      priceIncreaseStatus =
        switch p.int("priceIncreaseStatus") {
        case 0?: .pending
        case 1?: .agreed
        default: .noIncreasePending
        }
      isInBillingRetry = p.bool("isInBillingRetryPeriod")
      gracePeriodExpirationDate = p.date("gracePeriodExpiresDate")
      offer = Transaction.Offer(p)
      environment = AppStore.Environment(rawValue: p.string("environment") ?? "Xcode")
      eligibleWinBackOfferIDs = p.strings("eligibleWinBackOfferIds")
      deviceVerification = p.data("deviceVerification")
      deviceVerificationNonce = p.uuid("deviceVerificationNonce") ?? .zero
      signedDate = p.date("signedDate") ?? Date(timeIntervalSince1970: 0)
      advancedCommerceInfo = AdvancedCommerceInfo(p)
    }

    /// When the latest uninterrupted run of periods began.
    public var recentSubscriptionStartDate: Date {
      payload.date("recentSubscriptionStartDate") ?? Date(timeIntervalSince1970: 0)
    }
    /// When the next renewal happens (or would).
    public var renewalDate: Date? { payload.date("renewalDate") }
    /// The next renewal's price.
    public var renewalPrice: Decimal? { payload.price("renewalPrice") }
    /// The renewal price's currency.
    public var currency: Locale.Currency? { payload.string("currency").map { Locale.Currency($0) } }
    /// The app's account token of the subscription.
    public var appAccountToken: UUID? { payload.uuid("appAccountToken") }
    /// The app transaction's id.
    public var appTransactionID: String { payload.string("appTransactionId") ?? "0" }

    /// A monthly plan: what happens when the commitment ends (iOS 26.4).
    public var commitmentInfo: CommitmentInfo? {
      payload.nested("commitmentInfo").map(CommitmentInfo.init)
    }

    /// The renewal of a 12-month commitment.
    public struct CommitmentInfo: Equatable, Hashable, Sendable {
      /// The product the commitment renews to.
      public let autoRenewPreference: String
      /// The plan it renews with.
      public let renewalBillingPlanType: Product.SubscriptionInfo.BillingPlanType
      /// When it renews.
      public let renewalDate: Date
      /// What the next commitment costs.
      public let renewalPrice: Decimal
      /// Whether it renews.
      public let willAutoRenew: Bool

      init(_ p: Payload) {
        autoRenewPreference = p.string("commitmentAutoRenewProductId") ?? ""
        renewalBillingPlanType = .init(rawValue: p.string("commitmentRenewalBillingPlanType") ?? "")
        renewalDate = p.date("commitmentRenewalDate") ?? Date(timeIntervalSince1970: 0)
        renewalPrice = p.price("commitmentRenewalPrice") ?? 0
        willAutoRenew = p.bool("commitmentAutoRenewStatus")
      }
    }

    /// Why a subscription expired.
    public struct ExpirationReason: RawRepresentable, Equatable, Hashable, Sendable {
      /// Apple's `expirationIntent`: 1 to 5.
      public let rawValue: Int
      /// A reason by code.
      public init(rawValue: Int) { self.rawValue = rawValue }
      /// The customer turned auto-renew off.
      public static let autoRenewDisabled = ExpirationReason(rawValue: 1)
      /// Billing failed.
      public static let billingError = ExpirationReason(rawValue: 2)
      /// The customer did not consent to a price increase.
      public static let didNotConsentToPriceIncrease = ExpirationReason(rawValue: 3)
      /// The product was not available to renew.
      public static let productUnavailable = ExpirationReason(rawValue: 4)
      /// Any other reason.
      public static let unknown = ExpirationReason(rawValue: 5)
      /// The subscription left a bundle (never, locally: `.storekit` files have no bundles;
      /// its code, 6, is Storekeeper's guess).
      public static var unbundled: ExpirationReason { ExpirationReason(rawValue: 6) }
      /// For a person.
      public var localizedDescription: String {
        switch rawValue {
        case 1: "Auto-renew disabled"
        case 2: "Billing error"
        case 3: "Did not consent to price increase"
        case 4: "Product unavailable"
        case 6: "Unbundled"
        default: "Unknown"
        }
      }
    }

    /// Whether the customer agreed to a price increase.
    @frozen public enum PriceIncreaseStatus: Equatable, Hashable, Sendable {
      /// No increase waits for consent.
      case noIncreasePending
      /// An increase waits for consent.
      case pending
      /// The customer agreed.
      case agreed
    }
  }
}

extension Product.SubscriptionInfo.RenewalInfo: Equatable, Hashable {
  /// Two renewal infos are equal when their payloads are.
  public static func == (lhs: Self, rhs: Self) -> Bool {
    lhs.jsonRepresentation == rhs.jsonRepresentation
  }

  /// Hashes the payload.
  public func hash(into hasher: inout Hasher) { hasher.combine(jsonRepresentation) }
}

extension Product.SubscriptionInfo.RenewalInfo: CustomDebugStringConvertible {
  /// The payload's JSON.
  public var debugDescription: String { String(decoding: jsonRepresentation, as: UTF8.self) }
}

extension Product.SubscriptionInfo.RenewalInfo: StoreKitSignedValue {
  /// The compact JWS.
  public var _jwsRepresentation: String { jws }
}

// MARK: - Deprecated accessors StoreKit keeps

extension Product.SubscriptionInfo.RenewalInfo {
  /// The offer's identifier.
  @available(*, deprecated, renamed: "offer.id")
  public var offerID: String? { offer?.id }
  /// The offer's type.
  @available(*, deprecated, renamed: "offer.type")
  public var offerType: Transaction.OfferType? { offer?.type }
  /// The offer's payment mode, as the payload writes it.
  @available(*, deprecated, renamed: "offer.paymentMode.rawValue")
  public var offerPaymentModeStringRepresentation: String? { offer?.paymentMode?.rawValue }
  /// The offer's period, ISO 8601.
  @available(*, deprecated, message: "Use offer.period instead.")
  public var offerPeriodStringRepresentation: String? { payload.string("offerPeriod") }
  /// The environment's name.
  @available(*, deprecated, renamed: "environment.rawValue")
  public var environmentStringRepresentation: String { environment.rawValue }
  /// The currency's ISO code.
  @available(*, deprecated, renamed: "currency.identifier")
  public var currencyCode: String? { payload.string("currency") }
}
