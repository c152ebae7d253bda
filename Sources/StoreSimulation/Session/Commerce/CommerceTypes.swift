import StoreConfiguration

/// What App Store Connect's generic Advanced Commerce product sells (`set advanced-commerce
/// <productID> subscription|one-time`): the developer hosts the catalog of SKUs, each purchase
/// names its items in a request the developer's server signs.
public enum CommerceKind: String, Sendable, CaseIterable {
  /// Subscriptions with items (`CREATE_SUBSCRIPTION`, `MODIFY_SUBSCRIPTION`, …).
  case subscription
  /// One-time charges (`CREATE_ONE_TIME_CHARGE`).
  case oneTime = "one-time"
}

/// An Advanced Commerce subscription's billing period (Apple's `Period`).
public enum CommercePeriod: String, Sendable, CaseIterable {
  case oneWeek = "P1W"
  case oneMonth = "P1M"
  case twoMonths = "P2M"
  case threeMonths = "P3M"
  case sixMonths = "P6M"
  case oneYear = "P1Y"

  /// The period as the clock steps it.
  public var subscriptionPeriod: SubscriptionPeriod {
    SubscriptionPeriod(iso8601: rawValue) ?? SubscriptionPeriod(1, .month)
  }
}

/// When a change takes effect (Apple's `Effective`).
public enum CommerceEffective: String, Sendable, CaseIterable {
  case immediately = "IMMEDIATELY"
  case nextBillCycle = "NEXT_BILL_CYCLE"
}

/// What the customer sees of a subscription or a charge (`Descriptors`).
public struct CommerceDescriptors: Equatable, Sendable {
  /// `description`: at most 45 characters.
  public var description: String
  /// `displayName`: at most 30 characters.
  public var displayName: String

  /// Descriptors.
  public init(description: String, displayName: String) {
    self.description = description
    self.displayName = displayName
  }
}

/// A discount on an item for its first periods (`Offer`).
public struct CommerceOffer: Equatable, Sendable {
  /// `period`: Apple's offer period (P3D … P1Y).
  public var period: String
  /// `periodCount`: 1 to 12.
  public var periodCount: Int
  /// `price` in milliunits.
  public var price: Int64
  /// `reason`: ACQUISITION, WIN_BACK or RETENTION.
  public var reason: String
  /// Billing periods the offer still applies to (the current one included while it is
  /// charged at the offer's price).
  public var remaining: Int

  /// An offer with all its periods to come.
  public init(period: String, periodCount: Int, price: Int64, reason: String) {
    self.period = period
    self.periodCount = periodCount
    self.price = price
    self.reason = reason
    remaining = periodCount
  }
}

/// A price change the developer's server asked for (Change Subscription Price) that the next
/// renewals carry (`priceIncreaseInfo`, and the price itself for a decrease).
public struct CommercePriceIncrease: Equatable, Sendable {
  /// The new price (milliunits).
  public var price: Int64
  /// `SCHEDULED` (no consent needed), `PENDING` (waiting for the customer's consent) or
  /// `ACCEPTED`.
  public var status: String
  /// `dependentSKUs`.
  public var dependentSKUs: [String]
  /// The first renewal at or after this instant (milliseconds) charges it: Apple's 24 hours
  /// before a renewal date.
  var from: Int64
}

/// A refund of an item (`AdvancedCommerceRefund`).
public struct CommerceRefund: Equatable, Sendable {
  /// `refundAmount` in milliunits.
  public var amount: Int64
  /// `refundDate`.
  public var date: Instant
  /// `refundReason`.
  public var reason: String
  /// `refundType`: FULL, PRORATED or CUSTOM.
  public var type: String
}

/// One SKU of a charge or subscription: Apple's transaction and renewal items.
public struct CommerceItem: Equatable, Sendable {
  /// `SKU`: at most 128 characters.
  public var sku: String
  /// `description`.
  public var description: String
  /// `displayName`.
  public var displayName: String
  /// `price` in milliunits of the request's currency (without an offer).
  public var price: Int64
  /// `offer`, while it applies.
  public var offer: CommerceOffer?
  /// A price change the renewals carry (renewal items only).
  public var priceIncrease: CommercePriceIncrease?
  /// `refunds` (transaction items only).
  public var refunds: [CommerceRefund] = []
  /// `revocationDate` (transaction items only).
  public var revocationDate: Instant?

  /// An item.
  public init(
    sku: String, description: String, displayName: String, price: Int64,
    offer: CommerceOffer? = nil
  ) {
    self.sku = sku
    self.description = description
    self.displayName = displayName
    self.price = price
    self.offer = offer
  }

  /// What a period of it costs: the offer's price while it applies.
  public var charged: Int64 { offer.map { $0.remaining > 0 ? $0.price : price } ?? price }
}

/// The terms of an Advanced Commerce charge or subscription: what a transaction charged
/// (`AdvancedCommerceTransactionInfo`), or what renews (`AdvancedCommerceRenewalInfo`).
public struct CommerceTerms: Equatable, Sendable {
  /// `descriptors`.
  public var descriptors: CommerceDescriptors
  /// `items`.
  public var items: [CommerceItem]
  /// `period` (subscriptions).
  public var period: CommercePeriod?
  /// `taxCode`.
  public var taxCode: String
  /// `requestReferenceId` of the request that last made these terms.
  public var requestReferenceID: String
  /// The ISO 4217 currency of the prices.
  public var currency: String

  /// The price of a period: every item's, offers applied.
  public var price: Int64 { items.reduce(0) { $0 + $1.charged } }

  /// What the next renewal charges: ``price`` with the price changes that do not wait for the
  /// customer's consent.
  public var nextPrice: Int64 {
    items.reduce(0) { total, item in
      guard let change = item.priceIncrease, change.status != "PENDING" else {
        return total + item.charged
      }
      return total + (item.offer.map { $0.remaining > 0 ? $0.price : change.price } ?? change.price)
    }
  }

  /// The item of a SKU.
  public func item(_ sku: String) -> CommerceItem? { items.first { $0.sku == sku } }

  /// The terms with the price increases that waited for the customer's consent `ACCEPTED`
  /// (when they consented).
  func consented(_ agreed: Bool) -> CommerceTerms {
    guard agreed else { return self }
    var terms = self
    for index in terms.items.indices where terms.items[index].priceIncrease?.status == "PENDING" {
      terms.items[index].priceIncrease?.status = "ACCEPTED"
    }
    return terms
  }

  /// Made by the edges that read Apple's JSON (StoreCommands' Commerce readers).
  package init(
    descriptors: CommerceDescriptors, items: [CommerceItem], period: CommercePeriod?,
    taxCode: String, requestReferenceID: String, currency: String
  ) {
    self.descriptors = descriptors
    self.items = items
    self.period = period
    self.taxCode = taxCode
    self.requestReferenceID = requestReferenceID
    self.currency = currency
  }
}

/// An Advanced Commerce subscription as the App Store keeps it, by its original transaction:
/// what renews, and the token a request must quote to change it.
public struct CommerceSubscription: Equatable, Sendable {
  /// What the next renewal charges (the renewal info's `advancedCommerceInfo`); the current
  /// period's terms are its transaction's.
  public var renewal: CommerceTerms
  /// `consistencyToken`: a new one after every change.
  public var consistencyToken: String
  /// How many tokens were made (the next is made from it).
  var tokens = 0
}

/// A request's `requestInfo` (`RequestInfo`).
public struct CommerceRequestInfo: Equatable, Sendable {
  /// `requestReferenceId` (a UUID, lowercased).
  public var requestReferenceID: String
  /// `appAccountToken`.
  public var appAccountToken: String?
  /// `consistencyToken`.
  public var consistencyToken: String?

  /// Made by the edges that read Apple's JSON (StoreCommands' Commerce readers).
  package init(requestReferenceID: String, appAccountToken: String?, consistencyToken: String?) {
    self.requestReferenceID = requestReferenceID
    self.appAccountToken = appAccountToken
    self.consistencyToken = consistencyToken
  }
}

/// Why an Advanced Commerce request is refused: the rule broken (an edge maps it to Apple's
/// error object) and the words for a person.
public typealias CommerceRefusal = RuleRefusal<CommerceRule>

/// A rule of the Advanced Commerce API, by Apple's error where it has one.
public enum CommerceRule: Equatable, Sendable, CaseIterable {
  /// The signed request does not check out (`InvalidSignatureError`): key, bundle, audience,
  /// age, nonce.
  case invalidSignature
  /// The request is not JSON of Apple's shape (`MalformedPayloadError`).
  case malformedPayload
  /// No `requestInfo` (`NullRequestInfoError`).
  case nullRequestInfo
  /// No `requestReferenceId` (`NullRequestReferenceIDError`).
  case nullRequestReferenceID
  /// A `requestReferenceId` that is not a UUID (`InvalidRequestReferenceIDError`).
  case invalidRequestReferenceID
  /// A `requestReferenceId` used before with another request (`RepeatedRequestReferenceIdError`).
  case repeatedRequestReferenceID
  /// A consistency token that is not the subscription's latest (`InvalidConsistencyTokenError`).
  case invalidConsistencyToken
  /// A currency that is not the storefront's (`InvalidCurrencyError`).
  case invalidCurrency
  /// A storefront that is not one of the session's (`InvalidStorefrontError`).
  case invalidStorefront
  /// A price below 0 (`NegativePriceError`).
  case negativePrice
  /// A description over 45 characters (`DescriptionLengthExceededError`).
  case descriptionTooLong
  /// A display name over 30 characters (`DisplayNameLengthExceededError`).
  case displayNameTooLong
  /// A missing or unknown tax code (`InvalidTaxProductCodeError`).
  case invalidTaxCode
  /// An operation this request cannot be (`InvalidOperationError`).
  case invalidOperation
  /// A request that breaks another of Apple's limits (`OperationNotAllowedError`): a SKU over 128
  /// characters, a period or offer outside Apple's values, no items, a SKU twice.
  case operationNotAllowed
  /// A removed SKU the subscription does not have (`RemoveItemNotFoundError`).
  case removeItemNotFound
  /// A changed SKU the subscription does not have (`ChangeItemNotFoundError`).
  case changeItemNotFound
  /// A migration's target that is no Advanced Commerce subscription (`InvalidTargetProductIdError`).
  case invalidTargetProduct
  /// A second migration (`SubscriptionAlreadyMigratedError`).
  case alreadyMigrated
  /// A migration after a communicated price increase
  /// (`MigrationNotAllowedWhenPriceIncreaseCommunicatedError`).
  case migrationAfterPriceIncrease
  /// Revoke of a subscription that is not active (`RevokeOnInactiveSubscriptionError`).
  case revokeInactive
  /// A transaction that is no Advanced Commerce one, or no subscription
  /// (`SubscriptionNotEligibleError`).
  case notEligible
  /// A subscription created while one of the product is active (`SubscriptionAlreadyExistsError`).
  case alreadyExists
  /// A reactivation of a subscription that renews (`SubscriptionAlreadyActiveError`).
  case alreadyActive
  /// A change of a subscription that ended (`InactiveACASubError`).
  case inactive
  /// An item refunded before (`AlreadyRefundedError`).
  case alreadyRefunded
  /// A product that is not declared for this request (`ProductNotEligibleError`).
  case productNotEligible
  /// A transaction that cannot be refunded (`TransactionNotRefundableError`).
  case notRefundable
}
