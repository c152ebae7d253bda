public import Foundation

/// A purchase or a renewal as the App Store signed it (StoreKit's `Transaction`): every field
/// is read from its JWS payload, as StoreKit reads it.
public struct Transaction: Identifiable, Sendable {
  /// A transaction's identifier.
  public typealias ID = UInt64

  /// The JWS payload (the JSON StoreKit's `jsonRepresentation` returns).
  public var jsonRepresentation: Data { payload.json }
  /// The transaction's identifier.
  public let id: UInt64
  /// The original purchase's identifier (a subscription's first transaction).
  public let originalID: UInt64
  /// A subscription's web order line item (renewals across devices).
  public let webOrderLineItemID: String?
  /// The product bought.
  public let productID: String
  /// The subscription's group.
  public let subscriptionGroupID: String?
  /// The app's bundle id.
  public let appBundleID: String
  /// When it was bought or renewed.
  public let purchaseDate: Date
  /// When the original purchase was made.
  public let originalPurchaseDate: Date
  /// When a subscription's period ends.
  public let expirationDate: Date?
  /// How many were bought.
  public let purchasedQuantity: Int
  /// Whether the customer upgraded to another subscription of the group.
  public let isUpgraded: Bool
  /// When the App Store refunded or revoked it.
  public let revocationDate: Date?
  /// Why it was refunded or revoked.
  public let revocationReason: RevocationReason?
  /// A full or prorated refund, or a revocation from Family Sharing (iOS 26.4).
  public let revocationType: RevocationType?
  /// The kind of product.
  public let productType: Product.ProductType
  /// The app's account token given with the purchase.
  public let appAccountToken: UUID?
  /// Bought by the customer or shared by a family member.
  public let ownershipType: OwnershipType
  /// When the App Store signed it.
  public let signedDate: Date
  /// The device verification hash.
  public let deviceVerification: Data
  /// The nonce of the device verification.
  public let deviceVerificationNonce: UUID
  /// The offer that applied.
  public let offer: Offer?
  /// The environment that signed it.
  public let environment: AppStore.Environment
  /// A purchase or a renewal.
  public let reason: Reason
  /// The storefront it was bought in.
  public let storefront: Storefront
  /// The advanced commerce data (not simulated: always `nil`).
  public let advancedCommerceInfo: AdvancedCommerceInfo?

  let payload: Payload
  let jws: String
  /// The store it came from (what `finish()` reaches).
  let store: Store?

  /// A transaction read from its JWS.
  init(jws: String, store: Store?) {
    let p = Payload(jws: jws)
    payload = p
    self.jws = jws
    self.store = store
    id = p.id("transactionId")
    originalID = p.id("originalTransactionId")
    webOrderLineItemID = p.string("webOrderLineItemId")
    productID = p.string("productId") ?? ""
    subscriptionGroupID = p.string("subscriptionGroupIdentifier")
    appBundleID = p.string("bundleId") ?? ""
    purchaseDate = p.date("purchaseDate") ?? Date(timeIntervalSince1970: 0)
    originalPurchaseDate = p.date("originalPurchaseDate") ?? purchaseDate
    expirationDate = p.date("expiresDate")
    purchasedQuantity = p.int("quantity") ?? 1
    isUpgraded = p.bool("isUpgraded")
    revocationDate = p.date("revocationDate")
    revocationReason = p.int("revocationReason").map(RevocationReason.init(rawValue:))
    revocationType = p.string("revocationType").map(RevocationType.init(rawValue:))
    productType = Product.ProductType(payloadType: p.string("type") ?? "")
    appAccountToken = p.uuid("appAccountToken")
    ownershipType = OwnershipType(rawValue: p.string("inAppOwnershipType") ?? "PURCHASED")
    signedDate = p.date("signedDate") ?? purchaseDate
    deviceVerification = p.data("deviceVerification")
    deviceVerificationNonce = p.uuid("deviceVerificationNonce") ?? .zero
    offer = Offer(p)
    environment = AppStore.Environment(rawValue: p.string("environment") ?? "Xcode")
    reason = Reason(rawValue: p.string("transactionReason") ?? "PURCHASE")
    storefront = Storefront(countryCode: p.string("storefront") ?? "USA")
    advancedCommerceInfo = AdvancedCommerceInfo(p)
  }

  /// The price paid (the offer's, for all units bought).
  public var price: Decimal? { payload.price("price") }
  /// The currency of the price.
  public var currency: Locale.Currency? { payload.string("currency").map { Locale.Currency($0) } }
  /// The app transaction's id.
  public var appTransactionID: String { payload.string("appTransactionId") ?? "0" }

  /// A subscription with billing plans: the plan paid (iOS 26.4).
  public var billingPlanType: Product.SubscriptionInfo.BillingPlanType? {
    payload.string("billingPlanType").map(Product.SubscriptionInfo.BillingPlanType.init)
  }

  /// A monthly plan's payment: where it stands in its 12-month commitment (iOS 26.4).
  public var commitmentInfo: CommitmentInfo? {
    payload.nested("commitmentInfo").map(CommitmentInfo.init)
  }

  /// Where a payment of a monthly plan stands in its commitment.
  public struct CommitmentInfo: Equatable, Hashable, Sendable {
    /// This payment's number, from 1.
    public let billingPeriodNumber: UInt64
    /// When the commitment ends.
    public let expirationDate: Date
    /// What the whole commitment costs.
    public let price: Decimal
    /// Payments in the commitment (12).
    public let totalBillingPeriods: UInt64

    init(_ p: Payload) {
      billingPeriodNumber = UInt64(p.int("billingPeriodNumber") ?? 0)
      expirationDate = p.date("commitmentExpiresDate") ?? Date(timeIntervalSince1970: 0)
      price = p.price("commitmentPrice") ?? 0
      totalBillingPeriods = UInt64(p.int("totalBillingPeriods") ?? 0)
    }
  }

  /// Tells the App Store the app delivered what was bought: it leaves `Transaction.unfinished`,
  /// and a consumable leaves the receipt.
  public func finish() async {
    guard let store else { return }
    store.finish(id)
  }

  /// The status of the subscription this transaction belongs to.
  public var subscriptionStatus: Product.SubscriptionInfo.Status? {
    get async {
      guard let subscriptionGroupID,
        let statuses = try? await Product.SubscriptionInfo.status(for: subscriptionGroupID)
      else { return nil }
      return statuses.first { $0.transaction.unsafePayloadValue.originalID == originalID }
    }
  }
}

extension Transaction: Equatable, Hashable {
  /// Two transactions are equal when their payloads are.
  public static func == (lhs: Transaction, rhs: Transaction) -> Bool {
    lhs.jsonRepresentation == rhs.jsonRepresentation
  }

  /// Hashes the payload.
  public func hash(into hasher: inout Hasher) { hasher.combine(jsonRepresentation) }
}

extension Transaction: CustomDebugStringConvertible {
  /// The payload's JSON.
  public var debugDescription: String { String(decoding: jsonRepresentation, as: UTF8.self) }
}

extension Transaction: StoreKitSignedValue {
  /// The compact JWS.
  public var _jwsRepresentation: String { jws }
}

// MARK: - Deprecated accessors StoreKit keeps

extension Transaction {
  /// The offer's type.
  @available(*, deprecated, renamed: "offer.type")
  public var offerType: OfferType? { offer?.type }
  /// The offer's identifier.
  @available(*, deprecated, renamed: "offer.id")
  public var offerID: String? { offer?.id }
  /// The offer's payment mode, as the payload writes it.
  @available(*, deprecated, renamed: "offer.paymentMode.rawValue")
  public var offerPaymentModeStringRepresentation: String? { offer?.paymentMode?.rawValue }
  /// The offer's period, ISO 8601.
  @available(*, deprecated, message: "Use offer.period instead.")
  public var offerPeriodStringRepresentation: String? { payload.string("offerPeriod") }
  /// The environment's name.
  @available(*, deprecated, renamed: "environment.rawValue")
  public var environmentStringRepresentation: String { environment.rawValue }
  /// `PURCHASE` or `RENEWAL`.
  @available(*, deprecated, renamed: "reason.rawValue")
  public var reasonStringRepresentation: String { reason.rawValue }
  /// The storefront's country code.
  @available(*, deprecated, renamed: "storefront.countryCode")
  public var storefrontCountryCode: String { storefront.countryCode }
  /// The currency's ISO code.
  @available(*, deprecated, renamed: "currency.identifier")
  public var currencyCode: String? { payload.string("currency") }
}
