/// A subscription verb refused: renewal, auto-renew, price increases, finishing and extensions.
///
/// A case and its message are the two edits a new refusal of this family costs: the front
/// ends map the family as a whole unless they name the case.
public enum SubscriptionRefusal: Equatable, Sendable {
  /// A subscription verb on a transaction of another kind of product.
  case notAutoRenewable(transaction: UInt64, productID: String)
  /// A subscription verb on a transaction that belongs to no subscription's run.
  case notPartOfSubscription(transaction: UInt64)
  /// A subscription verb on a subscription that is over (`state` is its renewal state).
  case subscriptionOver(transaction: UInt64, state: String)
  /// A subscription verb on a product that is no auto-renewable subscription.
  case productNotAutoRenewable(productID: String)
  /// `expire`/`renew` of a product not active (`held` is the group's current product).
  case noActiveSubscription(productID: String, held: String?)
  /// `auto-renew` to the state it is in.
  case autoRenewAlready(on: Bool)
  /// A price-increase request without a positive price.
  case newPriceNotAboveZero
  /// A new price given to consent or decline.
  case priceOnlyOnRequest
  /// Consent or decline without a price increase pending.
  case noPriceIncreasePending(transaction: UInt64)
  /// `finish` of a finished transaction.
  case alreadyFinished(transaction: UInt64)
  /// An extension of a transaction that is not its subscription's latest run.
  case notLatestRun(transaction: UInt64)
  /// An extension Apple refuses (SubscriptionExtensionIneligibleError), and why.
  case notExtendable(transaction: UInt64, because: ExtensionIneligibility)
  /// A storefront code that is not Apple's.
  case unknownStorefront(String)
  /// An extension outside 1 to 90 days.
  case extensionDaysOutOfRange(Int)

  /// What is wrong, for a person: the state that forbids the verb.
  public var message: String {
    switch self {
    case .notAutoRenewable(let id, let productID):
      return "transaction \(id) is for \(productID), not an auto-renewable subscription"
    case .notPartOfSubscription(let id): return "transaction \(id) is not part of a subscription"
    case .subscriptionOver(let id, let state):
      return "the subscription of transaction \(id) is \(state)"
    case .productNotAutoRenewable(let productID):
      return "\(productID) is not an auto-renewable subscription"
    case .noActiveSubscription(let productID, let held):
      return "there is no active subscription to \(productID)"
        + (held.map { " (the group's subscription is \($0))" } ?? "")
    case .autoRenewAlready(let on): return "auto-renew is already \(on ? "on" : "off")"
    case .newPriceNotAboveZero: return "a new price must be above zero"
    case .priceOnlyOnRequest: return "only a request sets the new price"
    case .noPriceIncreasePending(let id):
      return "no price increase is pending for transaction \(id)'s subscription; request one "
        + "first"
    case .alreadyFinished(let id): return "transaction \(id) is already finished"
    case .notLatestRun(let id):
      return "transaction \(id) is not of an auto-renewable subscription's latest run"
    case .notExtendable(let id, let why):
      return "transaction \(id)'s subscription cannot be extended: \(why.message)"
    case .unknownStorefront(let code):
      return "\"\(code)\" is not an App Store storefront (ISO 3166-1 alpha-3, such as USA)"
    case .extensionDaysOutOfRange(let days):
      let range = Session.extensionDays
      return "an extension is \(range.lowerBound) to \(range.upperBound) days, not \(days)"
    }
  }
}

/// Why Apple would not extend a subscription (SubscriptionExtensionIneligibleError, and the
/// two-a-year limit's SubscriptionMaxExtensionError).
public enum ExtensionIneligibility: Equatable, Sendable {
  /// In a grace period, its expiration in the past.
  case inGracePeriod
  /// In billing retry: a renewal failed and Apple still retries it.
  case inBillingRetry
  /// Expired: nothing to extend.
  case expired
  /// Refunded: Apple does not extend a revoked subscription.
  case refunded
  /// Never bought: the group has no subscription.
  case neverBought
  /// In a free offer period.
  case inFreeOffer
  /// Extended twice in the past year.
  case extendedTwiceThisYear
}

extension ExtensionIneligibility {
  /// Why, for a person.
  public var message: String {
    switch self {
    case .inGracePeriod: "it is in a grace period, its expiration in the past"
    case .inBillingRetry: "it is in billing retry"
    case .expired: "it expired"
    case .refunded: "it was refunded"
    case .neverBought: "it was never bought"
    case .inFreeOffer: "it is in a free offer period"
    case .extendedTwiceThisYear: "it was extended twice in the past year"
    }
  }
}
