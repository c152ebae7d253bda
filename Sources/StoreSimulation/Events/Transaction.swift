import StoreConfiguration

/// A transaction as StoreKit 2 reports it (`Transaction`), plus what the Transaction Manager
/// shows about it (`SKTestTransaction`'s state and flags). A value: a snapshot at one moment.
public struct Transaction: Equatable, Sendable {
  /// The transaction's id; never reused.
  public var id: UInt64
  /// The id of the first purchase of a subscription; `id` for everything else.
  public var originalID: UInt64
  /// The product identifier.
  public var productID: String
  /// The kind of product.
  public var productType: ProductKind
  /// Auto-renewable subscriptions: the group's id.
  public var subscriptionGroupID: String?
  /// When it was bought (or renewed).
  public var purchaseDate: Instant
  /// When the original transaction was bought.
  public var originalPurchaseDate: Instant
  /// Auto-renewable subscriptions: when the period ends.
  public var expirationDate: Instant?
  /// How many were bought.
  public var purchasedQuantity: Int
  /// The price paid in milliunits of `currency` (unit price times quantity, or the offer price).
  public var price: Int64
  /// ISO 4217 currency of the storefront it was bought in.
  public var currency: String
  /// The storefront's alpha-3 code.
  public var storefront: String
  /// Apple's storefront id.
  public var storefrontID: String
  /// Purchase or renewal.
  public var reason: TransactionReason
  /// The offer that applied to this period.
  public var offer: TransactionOffer?
  /// When it was refunded.
  public var revocationDate: Instant?
  /// Why it was refunded.
  public var revocationReason: RevocationReason?
  /// A full or a prorated refund.
  public var revocationType: RevocationType?
  /// How much was refunded, in thousandths of a percent (100,000 is everything), as Apple's
  /// `revocationPercentage` says it.
  public var revocationPercentage: Int?
  /// Whether the customer asked Apple for a refund that is not yet decided.
  public var hasRefundRequest: Bool = false
  /// Whether a higher-level subscription of the group replaced it.
  public var isUpgraded: Bool
  /// The app's account token, if the purchase carried one.
  public var appAccountToken: String?
  /// SK1 payment state of the Transaction Manager entry.
  public var state: PaymentTransactionState
  /// Whether the app has not finished it.
  public var isFinished: Bool
  /// An interrupted purchase or a failed renewal that `resolve` can settle.
  public var hasPurchaseIssue: Bool
  /// Ask to Buy: waiting for a parent's approval.
  public var pendingAskToBuyConfirmation: Bool
  /// Ask to Buy: a parent declined it.
  public var isAskToBuyDeclined: Bool
  /// The error of a failed attempt.
  public var failure: SimulatedError?
  /// When the app received it unverified (a simulated verification error), the error.
  public var verificationError: SimulatedError?
  /// Whose transaction it is: the purchaser's, or a family member's share of one of the
  /// purchaser's.
  public var owner: Account = .purchaser
  /// A product with billing plans: the plan paid (`MONTHLY`, `BILLED_UPFRONT`).
  public var billingPlanType: BillingPlanType?
  /// A `MONTHLY` plan's payment: where it stands in its commitment.
  public var commitment: TransactionCommitment?
  /// Apple's values of an imported transaction (`storekeeper import`); `nil` for one the
  /// session made.
  public var imported: ImportedValues?
  /// A multiseat purchase's seat terms (`multiSeatInfo`); ``purchasedQuantity`` is its seats
  /// and ``price`` their total. `nil` for any other transaction.
  public var seats: TransactionSeats?
  /// An Advanced Commerce transaction's items, prices, descriptors and period
  /// (`advancedCommerceInfo`): what it charged.
  public var advancedCommerce: CommerceTerms?
  /// StoreKit's environment: always `Xcode`.
  public var environment: String { "Xcode" }
  /// `purchased`, `familyShared` for a family member's, `assigned` for a multiseat member's
  /// (`inAppOwnershipType`).
  public var ownershipType: String { ownership.caseName }
  /// How the account holds it: bought, or shared by the purchaser (an imported transaction's as
  /// Apple said).
  public var ownership: Ownership {
    imported?.ownership ?? (seats?.assignedBy != nil ? .assigned : owner.ownership)
  }
  /// `appTransactionId`: the owner's (an imported customer's is Apple's).
  public var appTransactionID: String { imported?.appTransactionID ?? owner.appTransactionID }
  /// `webOrderLineItemId`: an auto-renewable period's, which is the transaction id unless Apple
  /// gave another; `nil` for other products.
  public var webOrderLineItemID: String? {
    imported?.webOrderLineItemID ?? (productType == .autoRenewable ? String(id) : nil)
  }

  /// What an imported transaction keeps of Apple's that the session would otherwise derive.
  /// Apple's ids are decimal numbers, kept as integers: a snapshot copies them without
  /// reference counting.
  public struct ImportedValues: Equatable, Sendable {
    var lineItem: UInt64?
    var appTransaction: UInt64?
    /// `inAppOwnershipType`.
    public var ownership: Ownership

    /// `webOrderLineItemId`, when Apple gave one.
    public var webOrderLineItemID: String? { lineItem.map { String($0) } }
    /// The customer's `appTransactionId`.
    public var appTransactionID: String? { appTransaction.map { String($0) } }
  }
}

/// StoreKit 2's `Product.ProductType`.
public enum ProductKind: String, Sendable, CaseIterable {
  /// Used up and bought again.
  case consumable
  /// Bought once, kept forever.
  case nonConsumable
  /// A subscription that does not renew.
  case nonRenewable
  /// A subscription that renews.
  case autoRenewable

  /// The StoreKit 2 kind of a configuration product type.
  public init(_ type: ProductType) {
    switch type {
    case .consumable: self = .consumable
    case .nonConsumable: self = .nonConsumable
    case .nonRenewingSubscription: self = .nonRenewable
    case .autoRenewableSubscription: self = .autoRenewable
    }
  }
}

/// `Transaction.Reason`: a purchase, or a renewal.
public enum TransactionReason: String, Sendable {
  /// Bought by the customer.
  case purchase
  /// Renewed by the store.
  case renewal
}

/// `Transaction.RevocationReason`.
public enum RevocationReason: String, Sendable, CaseIterable {
  /// Refunded for a problem in the app.
  case developerIssue
  /// Refunded for any other reason.
  case other
}

/// `Transaction.RevocationType` (Apple's `revocationType`): how much a refund returned.
public enum RevocationType: String, Sendable, CaseIterable {
  /// `REFUND_FULL`: the whole price refunded.
  case refundFull
  /// `REFUND_PRORATED`: part of it (``Transaction/revocationPercentage``).
  case refundProrated
  /// `FAMILY_REVOKE` (StoreKit's `familyRevocation`): a family member lost what the purchaser
  /// shared.
  case familyRevoke
  /// `ASSIGNMENT_REVOKE` [unverified: Apple's pages name only StoreKit's
  /// `assignmentRevocation`]: a multiseat member lost their seat (removed, or the purchaser
  /// refunded).
  case assignmentRevoke
}

/// Why a customer asks Apple for a refund (Apple's `consumptionRequestReason`).
public enum RefundRequestReason: String, Sendable, CaseIterable {
  /// Bought by mistake.
  case unintendedPurchase
  /// Not delivered.
  case fulfillmentIssue
  /// Not what the customer expected.
  case unsatisfiedWithPurchase
  /// For a legal reason.
  case legal
  /// Any other reason.
  case other
}

/// What the customer picks in the app's refund sheet (`Transaction.beginRefundRequest`).
///
/// Xcode's and the sandbox's sheet offer an issue with the app or any other reason, which "maps
/// one-to-one to the RevocationReason" (WWDC22, "What's new in StoreKit testing"); with the
/// session's `refund-review` setting the sheet submits a request that waits for the App Store's
/// review, with one of Apple's request reasons.
public enum RefundSheetReason: String, Sendable, CaseIterable {
  /// An issue with the app: refunded with ``RevocationReason/developerIssue`` (reviewed, it is
  /// a fulfillment issue).
  case developerIssue
  /// Any other reason: refunded with ``RevocationReason/other``.
  case other
  /// Bought by mistake (a request's reason).
  case unintendedPurchase
  /// Not delivered (a request's reason; refunded at once, an issue with the app).
  case fulfillmentIssue
  /// Not what the customer expected (a request's reason).
  case unsatisfiedWithPurchase
  /// For a legal reason (a request's reason).
  case legal

  /// The revocation reason of the refund the sheet gives at once.
  public var revocationReason: RevocationReason {
    self == .developerIssue || self == .fulfillmentIssue ? .developerIssue : .other
  }

  /// The request's reason when the refund waits for review (Apple's `consumptionRequestReason`).
  public var requestReason: RefundRequestReason {
    switch self {
    case .developerIssue, .fulfillmentIssue: .fulfillmentIssue
    case .other: .other
    case .unintendedPurchase: .unintendedPurchase
    case .unsatisfiedWithPurchase: .unsatisfiedWithPurchase
    case .legal: .legal
    }
  }
}

/// SK1's `SKPaymentTransactionState`, as `SKTestTransaction.state` reports it.
public enum PaymentTransactionState: String, Sendable {
  /// In the queue.
  case purchasing
  /// Paid; the app should deliver and finish it.
  case purchased
  /// Not paid.
  case failed
  /// Restored from an earlier purchase.
  case restored
  /// Waiting for Ask to Buy approval.
  case deferred
}

/// `Transaction.Offer`: the offer a transaction or a renewal carries.
public struct TransactionOffer: Equatable, Sendable {
  /// The offer's kind.
  public var type: OfferType
  /// The offer id: `offerID`, or an offer code's reference name; `nil` for introductory offers.
  public var id: String?
  /// How it is paid.
  public var paymentMode: OfferPaymentMode
  /// How long the whole offer lasts (`offer.period`, Apple's `offerPeriod`): one period times
  /// the number of periods, `P3M` for three monthly pay-as-you-go periods; `nil` for a one-time
  /// product's offer code.
  public var period: SubscriptionPeriod?

  /// An offer as a payload names it.
  public init(
    type: OfferType, id: String?, paymentMode: OfferPaymentMode, period: SubscriptionPeriod?
  ) {
    self.type = type
    self.id = id
    self.paymentMode = paymentMode
    self.period = period
  }
}

/// `Transaction.OfferType`.
public enum OfferType: String, Sendable {
  /// An introductory offer.
  case introductory
  /// A promotional offer the app signs.
  case promotional
  /// An offer code redeemed.
  case code
  /// A win-back offer to a former subscriber.
  case winBack

  init(_ kind: OfferKind) {
    switch kind {
    case .introductory: self = .introductory
    case .promotional: self = .promotional
    case .code: self = .code
    case .winBack: self = .winBack
    }
  }
}

/// `Transaction.Offer.PaymentMode`.
public enum OfferPaymentMode: String, Sendable {
  /// Free for its periods.
  case freeTrial
  /// A reduced price each period.
  case payAsYouGo
  /// A reduced price paid once for all periods.
  case payUpFront
  /// A one-time product bought at a reduced price (`ONE_TIME`).
  case oneTime

  init(_ mode: PaymentMode) {
    switch mode {
    case .free, .none: self = .freeTrial
    case .payAsYouGo: self = .payAsYouGo
    case .payUpFront: self = .payUpFront
    case .oneTime: self = .oneTime
    }
  }
}
