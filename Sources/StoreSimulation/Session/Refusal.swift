/// Why the engine refused a verb: what was refused and why, with the values a message needs.
///
/// The engine decides every rule; a front end maps a reason to its own shape (the App Store
/// Server API's error code, a StoreKit or `SKTestError` error, ``message`` for a person) and
/// decides nothing again. A ``SessionError`` carries one.
public enum Refusal: Equatable, Sendable {
  // MARK: Transactions and products
  /// No live transaction has this id.
  case noTransaction(UInt64)
  /// `last`, in a session without transactions.
  case noLastTransaction
  /// `last:<product>`, for a product never bought.
  case noTransactionOfProduct(String)
  /// No available product has this id.
  case noProduct(String)

  // MARK: Purchases
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

  // MARK: Offers and billing plans
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

  // MARK: Ask to Buy, purchase issues, refunds
  /// Ask to Buy: the transaction waits for no approval (`state` is what it is).
  case notAwaitingApproval(transaction: UInt64, state: String)
  /// Ask to Buy: the request was declined already.
  case alreadyDeclined(transaction: UInt64)
  /// `resolve` of a transaction without an issue.
  case noIssueToResolve(transaction: UInt64, state: String)
  /// `resolve` of a renewal whose subscription left billing retry.
  case noLongerInBillingRetry(transaction: UInt64)
  /// A refund of a transaction never purchased.
  case neverPurchased(transaction: UInt64, state: String)
  /// A refund of a refunded transaction.
  case alreadyRefunded(transaction: UInt64)
  /// A refund's percentage outside (0, 100].
  case refundPercentageOutOfRange
  /// A second refund request while one waits.
  case refundRequestWaiting(transaction: UInt64)
  /// `refund-decline` without a request waiting.
  case noRefundRequest(transaction: UInt64)
  /// `refund-reverse` of a transaction not refunded.
  case notRefunded(transaction: UInt64)
  /// `refund-reverse` after the subscription was bought again.
  case boughtAgainSinceRefund(transaction: UInt64, current: UInt64)
  /// Consumption information without a refund request waiting.
  case noConsumptionRequest(transaction: UInt64)
  /// Consumption information more than 12 hours after the request.
  case consumptionRequestTooOld(transaction: UInt64)
  /// Consumption information for a transaction never paid for.
  case neverPaidFor(transaction: UInt64)
  /// A change of a family member's transaction that only the purchaser's takes (an app account
  /// token, an extension).
  case familySharedTransaction(transaction: UInt64)
  /// A change Apple makes by original transaction id only (Set App Account Token), given
  /// another of the purchase's ids.
  case notOriginalTransaction(transaction: UInt64, original: UInt64)

  // MARK: Subscriptions
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

  // MARK: Extensions
  /// An extension of a transaction that is not its subscription's latest run.
  case notLatestRun(transaction: UInt64)
  /// An extension Apple refuses (SubscriptionExtensionIneligibleError), and why.
  case notExtendable(transaction: UInt64, because: ExtensionIneligibility)
  /// A storefront code that is not Apple's.
  case unknownStorefront(String)
  /// An extension outside 1 to 90 days.
  case extensionDaysOutOfRange(Int)

  // MARK: The clock
  /// A move of the clock backwards.
  case clockBackwards(now: Instant, target: Instant)
  /// A move past the latest instant a session reaches.
  case clockBeyondLatest(target: Instant)
  /// A move that would cause more than `budget` events.
  case tooManyEvents(budget: Int, transitions: Int)
  /// `advance next` with nothing scheduled.
  case nothingScheduled

  // MARK: API calls and notices
  /// `call purchase`/`call verification`, which buying exercises.
  case callExercisedByBuying(api: String)
  /// `call refund-request` without a transaction.
  case refundRequestNeedsTransaction
  /// An external purchase token created after now.
  case tokenCreatedInFuture(now: Instant)
  /// An external purchase token that expires before it was created.
  case tokenExpiresBeforeCreation(expires: Instant, created: Instant)
  /// An external purchase id that is not one word.
  case externalPurchaseIDNotOneWord(String)

  // MARK: Family Sharing
  /// A member nobody of that name ever was (`members`: who was).
  case noSuchMember(name: String, members: [String])
  /// `family join` of a member in the family.
  case alreadyInFamily(String)
  /// `family join` of a sixth member.
  case familyFull(maximum: Int, members: [String])
  /// `family join` of a new name when the family has had as many members as ids have room for.
  case familyNamesUsedUp(maximum: Int)
  /// `family leave` of someone not in the family (`members`: who is).
  case notInFamily(name: String, members: [String])
  /// A name a member cannot have.
  case invalidMemberName(String)
  /// Sharing of a kind of product Family Sharing does not share.
  case kindNotShared(productID: String, kind: String)
  /// Sharing of a product the configuration does not make family-shareable.
  case notFamilyShareable(productID: String)
  /// Sharing already as asked.
  case sharingAlready(productID: String, shared: Bool)

  // MARK: Customers
  /// `customer <name>` with a name a customer cannot have.
  case invalidCustomerName(String)
  /// A customer of that name is not in the session (`customers`: who is).
  case noSuchCustomer(name: String, customers: [String])
  /// `customer number=…` without a name.
  case customerNumberWithoutName
  /// A number given to an existing customer that is not theirs.
  case customerNumberNotTheirs(name: String, number: Int)
  /// A customer number past the id ranges there are.
  case customerNumberOutOfRange(Int, maximum: Int)
  /// A new customer's number another customer has.
  case customerNumberTaken(Int, by: String)

  // MARK: Commands outside a session's history or deliveries
  /// `back`/`undo` applied to a bare session.
  case stepBackNeedsHistory
  /// `notify …` applied to a bare session.
  case notifyNeedsDelivery

  // MARK: Imported customers
  /// `import transaction` of an id a transaction of the session already has.
  case importedIDTaken(UInt64)
  /// `import renewal` of a subscription no imported transaction began.
  case noImportedSubscription(originalID: UInt64)
  /// `import transaction` of a `webOrderLineItemId` or `appTransactionId` that is not a decimal
  /// number (Apple's ids are).
  case importedIDNotDecimal(field: String, value: String)

  // MARK: Retention Messaging
  /// A retention action refused, by the rule it broke.
  case retention(RetentionRefusal)
  /// A seat change refused, by the rule it broke.
  case seats(SeatRefusal)
  /// An Advanced Commerce request refused, by the rule it broke.
  case commerce(CommerceRefusal)
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
