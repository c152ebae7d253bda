/// An App Store Server Notification V2 an event causes, as the engine decided it when it made
/// the event: Apple's `notificationType` and `subtype`. The engine is the one that knows what
/// came before (a first purchase or a resubscription, a renewal or a billing recovery, an
/// upgrade, a refund or its reversal), so nothing outside it keeps a record of its own, and a
/// step back (`back`, `undo`) leaves no shadow state behind. Two bytes.
public struct NotificationCause: Hashable, Sendable {
  /// `notificationType`.
  public var type: NotificationType
  /// `subtype`, when there is one.
  public var subtype: NotificationSubtype?

  /// A notification of `type` (and `subtype`).
  public init(_ type: NotificationType, _ subtype: NotificationSubtype? = nil) {
    self.type = type
    self.subtype = subtype
  }

  /// `SUBSCRIBED-INITIAL_BUY`: the file name's form.
  public var name: String { subtype.map { "\(type.rawValue)-\($0.rawValue)" } ?? type.rawValue }
}

/// Apple's `notificationType` values that a session sends.
public enum NotificationType: String, Sendable, CaseIterable {
  /// A customer subscribed (a first purchase, or again after a lapse).
  case subscribed = "SUBSCRIBED"
  /// A subscription renewed (or recovered from a billing failure).
  case didRenew = "DID_RENEW"
  /// A renewal failed: billing retry, or a grace period first.
  case didFailToRenew = "DID_FAIL_TO_RENEW"
  /// The grace period ended without recovery.
  case gracePeriodExpired = "GRACE_PERIOD_EXPIRED"
  /// A subscription expired.
  case expired = "EXPIRED"
  /// Auto-renew was turned on or off.
  case didChangeRenewalStatus = "DID_CHANGE_RENEWAL_STATUS"
  /// The customer changed the product the next renewal is for.
  case didChangeRenewalPref = "DID_CHANGE_RENEWAL_PREF"
  /// A subscriber redeemed an offer.
  case offerRedeemed = "OFFER_REDEEMED"
  /// A price increase was asked for, or the customer consented.
  case priceIncrease = "PRICE_INCREASE"
  /// Apple refunded a transaction.
  case refund = "REFUND"
  /// Apple declined a refund request.
  case refundDeclined = "REFUND_DECLINED"
  /// Apple reversed a refund.
  case refundReversed = "REFUND_REVERSED"
  /// A family member lost what the purchaser shared.
  case revoke = "REVOKE"
  /// The customer asked for a refund: Apple asks the app's server.
  case consumptionRequest = "CONSUMPTION_REQUEST"
  /// A subscription's renewal date was extended.
  case renewalExtended = "RENEWAL_EXTENDED"
  /// A mass extension finished, or one of its subscriptions failed.
  case renewalExtension = "RENEWAL_EXTENSION"
  /// A consumable, non-consumable or non-renewing subscription was bought.
  case oneTimeCharge = "ONE_TIME_CHARGE"
  /// The customer rescinded consent (`notify rescind-consent`).
  case rescindConsent = "RESCIND_CONSENT"
  /// An external purchase token (`notify external-purchase-token`).
  case externalPurchaseToken = "EXTERNAL_PURCHASE_TOKEN"
  /// The App Store unclaimed seats of a developer-hosted multiseat subscription.
  case unclaimSeats = "UNCLAIM_SEATS"
  /// The developer's server changed an Advanced Commerce subscription's price.
  case priceChange = "PRICE_CHANGE"
  /// The developer's server changed an Advanced Commerce subscription's SKUs, names or
  /// descriptions.
  case metadataUpdate = "METADATA_UPDATE"
  /// The developer's server migrated a subscription to the Advanced Commerce API.
  case migration = "MIGRATION"
}

/// Apple's `subtype` values that a session sends.
public enum NotificationSubtype: String, Sendable, CaseIterable {
  /// The customer's first subscription in the group.
  case initialBuy = "INITIAL_BUY"
  /// Subscribing again after the subscription lapsed.
  case resubscribe = "RESUBSCRIBE"
  /// A renewal that recovered from billing retry or grace.
  case billingRecovery = "BILLING_RECOVERY"
  /// A failed renewal with a grace period.
  case gracePeriod = "GRACE_PERIOD"
  /// Expired with auto-renew off.
  case voluntary = "VOLUNTARY"
  /// Expired when billing retry ended.
  case billingRetry = "BILLING_RETRY"
  /// Expired as the customer did not consent to a price increase.
  case priceIncrease = "PRICE_INCREASE"
  /// Expired as the product is no longer for sale.
  case productNotForSale = "PRODUCT_NOT_FOR_SALE"
  /// Auto-renew turned on.
  case autoRenewEnabled = "AUTO_RENEW_ENABLED"
  /// Auto-renew turned off.
  case autoRenewDisabled = "AUTO_RENEW_DISABLED"
  /// An upgrade (immediate).
  case upgrade = "UPGRADE"
  /// A downgrade (at the next renewal).
  case downgrade = "DOWNGRADE"
  /// A price increase waits for consent.
  case pending = "PENDING"
  /// The customer consented to a price increase.
  case accepted = "ACCEPTED"
  /// A mass extension's summary.
  case summary = "SUMMARY"
  /// A subscription a mass extension could not extend.
  case failure = "FAILURE"
  /// An external purchase token not reported.
  case unreported = "UNREPORTED"
  /// An external purchase token created.
  case created = "CREATED"
  /// A reminder about an active external purchase token.
  case activeTokenReminder = "ACTIVE_TOKEN_REMINDER"
  /// A multiseat subscription's purchaser added seats (now) or undid a reduction.
  case increaseQuantity = "INCREASE_QUANTITY"
  /// A multiseat subscription's purchaser reduced the seats that renew.
  case decreaseQuantity = "DECREASE_QUANTITY"
  /// Apple refunded some of a multiseat subscription's seats.
  case seats = "SEATS"
}

/// The notifications one event causes, in order: at most three (a change of a subscription's
/// renewal status, its preference and its price increase at once), kept inline so that the
/// renewal loop allocates nothing for them.
public struct NotificationCauses: Hashable, Sendable, RandomAccessCollection {
  private var first: NotificationCause?
  private var second: NotificationCause?
  private var third: NotificationCause?

  /// None.
  public init() {}

  /// One.
  public init(_ cause: NotificationCause) { first = cause }

  /// 0.
  public var startIndex: Int { 0 }
  /// How many there are.
  public var endIndex: Int { third != nil ? 3 : second != nil ? 2 : first != nil ? 1 : 0 }

  /// The one at `position`, in order.
  public subscript(position: Int) -> NotificationCause {
    switch position {
    case 0: first!
    case 1: second!
    default: third!
    }
  }

  /// Adds one after the others.
  ///
  /// - Precondition: fewer than three so far.
  public mutating func append(_ cause: NotificationCause) {
    if first == nil {
      first = cause
    } else if second == nil {
      second = cause
    } else {
      precondition(third == nil, "an event causes at most three notifications")
      third = cause
    }
  }
}
