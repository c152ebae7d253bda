/// A transaction as Apple's App Store Server API reported it (`JWSTransactionDecodedPayload`),
/// to be placed in the addressed customer's ledger under Apple's own ids: what `import transaction`
/// carries. Every field keeps Apple's value, the derived ones too (the web order line item id,
/// the storefront and currency, the offer as Apple named it).
public struct ImportedTransaction: Equatable, Sendable {
  /// `transactionId`.
  public var id: UInt64
  /// `originalTransactionId`.
  public var originalID: UInt64
  /// `webOrderLineItemId`, when Apple gave one.
  public var webOrderLineItemID: String?
  /// `productId`: a product of the session's configuration.
  public var productID: String
  /// `purchaseDate`.
  public var purchaseDate: Instant
  /// `originalPurchaseDate`.
  public var originalPurchaseDate: Instant
  /// `expiresDate`.
  public var expirationDate: Instant?
  /// `quantity`.
  public var quantity: Int = 1
  /// `price`, in milliunits of `currency`.
  public var price: Int64 = 0
  /// `currency`.
  public var currency: String = "USD"
  /// `storefront`: alpha-3.
  public var storefront: String = "USA"
  /// `storefrontId`.
  public var storefrontID: String = "143441"
  /// `transactionReason`.
  public var reason: TransactionReason = .purchase
  /// `offerType`, `offerIdentifier`, `offerDiscountType`, `offerPeriod`.
  public var offer: TransactionOffer?
  /// `revocationDate`.
  public var revocationDate: Instant?
  /// `revocationReason`.
  public var revocationReason: RevocationReason?
  /// `revocationPercentage`, in thousandths of a percent (100,000 is a full refund).
  public var revocationPercentage: Int?
  /// `isUpgraded`.
  public var isUpgraded = false
  /// `appAccountToken`.
  public var appAccountToken: String?
  /// `appTransactionId`: the customer's, the same on each of their transactions.
  public var appTransactionID: String?
  /// `inAppOwnershipType`.
  public var ownership: Ownership = .purchased

  /// A transaction of `productID` under `id`, bought at `purchaseDate`; the rest as a
  /// first purchase in the United States.
  public init(id: UInt64, originalID: UInt64, productID: String, purchaseDate: Instant) {
    self.id = id
    self.originalID = originalID
    self.productID = productID
    self.purchaseDate = purchaseDate
    originalPurchaseDate = purchaseDate
  }
}

/// A subscription's state as Apple's App Store Server API reported it: Get All Subscription
/// Statuses' `status` with its renewal info (`JWSRenewalInfoDecodedPayload`). What
/// `import renewal` carries; applied to the group of the subscription the imported
/// transactions began.
public struct ImportedRenewal: Equatable, Sendable {
  /// `originalTransactionId`: an imported transaction's.
  public var originalID: UInt64
  /// `status`: where the subscription stands.
  public var state: RenewalState
  /// `productId`: the current period's product.
  public var productID: String
  /// `autoRenewProductId`.
  public var autoRenewProductID: String
  /// `autoRenewStatus`.
  public var willAutoRenew: Bool
  /// `expirationIntent`.
  public var expirationReason: ExpirationReason?
  /// `gracePeriodExpiresDate`.
  public var gracePeriodExpiration: Instant?
  /// `priceIncreaseStatus`.
  public var priceIncrease: PriceIncreaseStatus = .noIncreasePending
  /// `renewalPrice`, in milliunits.
  public var renewalPrice: Int64?
  /// `renewalDate`.
  public var renewalDate: Instant?
  /// `recentSubscriptionStartDate`.
  public var recentStart: Instant?
  /// `offerType`, `offerIdentifier`, `offerDiscountType`, `offerPeriod`: the offer of the next
  /// renewal.
  public var offer: TransactionOffer?

  /// A subscription's state.
  public init(
    originalID: UInt64, state: RenewalState, productID: String, autoRenewProductID: String,
    willAutoRenew: Bool
  ) {
    self.originalID = originalID
    self.state = state
    self.productID = productID
    self.autoRenewProductID = autoRenewProductID
    self.willAutoRenew = willAutoRenew
  }
}

/// What an imported transaction keeps that the ledger's integers cannot say: Apple's values of
/// the fields Storekeeper would otherwise derive. A class, so that the details of every other
/// transaction grow by one word only.
final class ImportedDetails: Sendable {
  /// `webOrderLineItemId`, when it is not the transaction id.
  let webOrderLineItemID: UInt64?
  /// The offer as Apple named it, when the configuration has no such offer.
  let offer: TransactionOffer?
  /// `inAppOwnershipType`.
  let ownership: Ownership

  init(webOrderLineItemID: UInt64?, offer: TransactionOffer?, ownership: Ownership) {
    self.webOrderLineItemID = webOrderLineItemID
    self.offer = offer
    self.ownership = ownership
  }
}
