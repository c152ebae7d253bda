/// A purchase refused: its quantity, date, offer or billing plan, Ask to Buy and purchase issues.
///
/// A case and its message are the two edits a new refusal of this family costs: the front
/// ends map the family as a whole unless they name the case.
public enum PurchaseRefusal: Equatable, Sendable {
  /// A quantity outside 1 to `maximum`.
  case quantityOutOfRange(maximum: Int)
  /// The quantity times the price overflows a price.
  case priceOverflow(productID: String, quantity: Int)
  /// A back-dated purchase dated after now.
  case purchaseDateInFuture(date: Instant, now: Instant)
  /// A lasting product bought again while its purchase stands.
  case alreadyPurchased(productID: String, transaction: UInt64)
  /// An introductory-offer JWS on a product that is no subscription.
  case introJWSNeedsSubscription(productID: String)
  /// A back-dated purchase whose renewals up to now would pass the event budget.
  case backdatedTooManyRenewals(date: Instant, budget: Int, rate: String)
  /// A family member's device buys: the purchaser buys, the family shares.
  case memberCannotBuy(member: String)
  /// A subscription offer on a one-time product.
  case offerOnOneTimeProduct(productID: String)
  /// `offer=intro` on a product without one.
  case noIntroductoryOffer(productID: String)
  /// An offer the product does not have: its kind's noun and the names it has.
  case noSuchOffer(productID: String, noun: String, name: String, known: [String])
  /// A win-back offer id no product has.
  case noSuchWinBackOffer(String)
  /// A billing plan the product does not have (`plans` are those it has).
  case noSuchBillingPlan(productID: String, plan: String, plans: [String])
  /// An offer the MONTHLY plan does not have (`offers` are those it has, as `kind:name`), or
  /// one that does not last whole months.
  case offerWithMonthlyPlan(productID: String, offer: String, offers: [String])
  /// The monthly plan in a storefront Apple does not offer it in.
  case noCommitmentsInStorefront(String)
  /// Ask to Buy: the transaction waits for no approval (`state` is what it is).
  case notAwaitingApproval(transaction: UInt64, state: String)
  /// Ask to Buy: the request was declined already.
  case alreadyDeclined(transaction: UInt64)
  /// `resolve` of a transaction without an issue.
  case noIssueToResolve(transaction: UInt64, state: String)
  /// `resolve` of a renewal whose subscription left billing retry.
  case noLongerInBillingRetry(transaction: UInt64)

  /// What is wrong, for a person: the state that forbids the verb.
  public var message: String {
    switch self {
    case .quantityOutOfRange(let maximum): return "the quantity must be 1 to \(maximum)"
    case .priceOverflow(let productID, let quantity):
      return "\(quantity) × the price of \(productID) is more than a price can hold"
    case .purchaseDateInFuture(let date, let now):
      return "the purchase date \(date.iso8601) is after now (\(now.iso8601)); dates in the "
        + "future aren't valid"
    case .alreadyPurchased(let productID, let transaction):
      return "\(productID) is already purchased (transaction \(transaction)); delete that "
        + "transaction to buy it again"
    case .introJWSNeedsSubscription(let productID):
      return "\(productID) is not an auto-renewable subscription; intro-jws is for one"
    case .backdatedTooManyRenewals(let date, let budget, let rate):
      return "a purchase dated \(date.iso8601) renewing until now would make more than "
        + "\(budget) renewals at \(rate); choose a later date or renew=once"
    case .memberCannotBuy(let member):
      return "\(member)'s device cannot buy: a family member receives what the purchaser "
        + "shares (purchases are the purchaser's session's)"
    case .offerOnOneTimeProduct(let productID):
      return "\(productID) is not an auto-renewable subscription; a one-time product has only "
        + "offer codes (offer=code:<referenceName>)"
    case .noIntroductoryOffer(let productID): return "\(productID) has no introductory offer"
    case .noSuchOffer(let productID, let noun, let name, let known):
      let has =
        known.isEmpty
        ? "it has none" : "it has " + known.map { "\"\($0)\"" }.joined(separator: ", ")
      return "\(productID) has no \(noun) \"\(name)\"; \(has)"
    case .noSuchWinBackOffer(let offerID): return "there is no win-back offer \"\(offerID)\""
    case .noSuchBillingPlan(let productID, let plan, let plans):
      return plans.isEmpty
        ? "\(productID) has no billing plans (a subscription's billingPlans, configuration "
          + "format 5.0)"
        : "\(productID) has no \(plan) billing plan; its plans are "
          + plans.joined(separator: ", ")
    case .offerWithMonthlyPlan(let productID, let offer, let offers):
      return "\(productID)'s MONTHLY billing plan has no offer \(offer) lasting whole months "
        + "(a plan's offers are the file's offers whose billingPlanType is MONTHLY); "
        + (offers.isEmpty ? "it has none" : "its offers are " + offers.joined(separator: ", "))
    case .noCommitmentsInStorefront(let storefront):
      return "Apple offers monthly billing with a 12-month commitment everywhere but the USA "
        + "and Singapore; set storefront to another one (the storefront is \(storefront))"
    case .notAwaitingApproval(let id, let state):
      return "transaction \(id) is not awaiting approval (it is \(state))"
    case .alreadyDeclined(let id): return "transaction \(id) was already declined"
    case .noIssueToResolve(let id, let state):
      return "transaction \(id) has no issue to resolve (it is \(state))"
    case .noLongerInBillingRetry(let id):
      return "transaction \(id)'s subscription is no longer in billing retry"
    }
  }
}
