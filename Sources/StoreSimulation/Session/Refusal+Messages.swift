extension Refusal {
  /// What is wrong, for a person: the state that forbids the verb.
  public var message: String {
    switch self {
    case .noTransaction(let id): "there is no transaction \(id)"
    case .noLastTransaction: "there is no transaction yet, so no last one"
    case .noTransactionOfProduct(let productID): "there is no transaction for \(productID)"
    case .noProduct(let productID): "there is no product \"\(productID)\" in the configuration"
    // Every refusal named, so that a new one is a compile error until it has its message.
    case .quantityOutOfRange, .priceOverflow, .purchaseDateInFuture, .alreadyPurchased,
      .introJWSNeedsSubscription, .backdatedTooManyRenewals, .memberCannotBuy,
      .offerOnOneTimeProduct, .noIntroductoryOffer, .noSuchOffer, .noSuchWinBackOffer,
      .noSuchBillingPlan, .offerWithMonthlyPlan, .noCommitmentsInStorefront, .notAwaitingApproval,
      .alreadyDeclined, .noIssueToResolve, .noLongerInBillingRetry:
      purchaseMessage
    case .neverPurchased, .alreadyRefunded, .refundPercentageOutOfRange, .refundRequestWaiting,
      .noRefundRequest, .notRefunded, .boughtAgainSinceRefund, .noConsumptionRequest,
      .consumptionRequestTooOld, .neverPaidFor, .familySharedTransaction, .notOriginalTransaction:
      refundMessage
    case .notAutoRenewable, .notPartOfSubscription, .subscriptionOver, .productNotAutoRenewable,
      .noActiveSubscription, .autoRenewAlready, .newPriceNotAboveZero, .priceOnlyOnRequest,
      .noPriceIncreasePending, .alreadyFinished, .notLatestRun, .notExtendable, .unknownStorefront,
      .extensionDaysOutOfRange, .clockBackwards, .clockBeyondLatest, .tooManyEvents,
      .nothingScheduled:
      subscriptionMessage
    case .callExercisedByBuying, .refundRequestNeedsTransaction, .tokenCreatedInFuture,
      .tokenExpiresBeforeCreation, .externalPurchaseIDNotOneWord, .stepBackNeedsHistory,
      .notifyNeedsDelivery, .importedIDTaken, .noImportedSubscription, .importedIDNotDecimal:
      otherMessage
    case .invalidCustomerName, .noSuchCustomer, .customerNumberWithoutName,
      .customerNumberNotTheirs, .customerNumberOutOfRange, .customerNumberTaken, .noSuchMember,
      .alreadyInFamily, .familyFull, .familyNamesUsedUp, .notInFamily, .invalidMemberName,
      .kindNotShared, .notFamilyShareable, .sharingAlready:
      familyMessage
    case .retention(let refusal): refusal.message
    case .seats(let refusal): refusal.message
    case .commerce(let refusal):
      "\(refusal.message) (Apple's \(refusal.rule.appleName), \(refusal.rule.appleCode))"
    }
  }

  private var purchaseMessage: String {
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
    default: preconditionFailure("\(self) is not a purchase's refusal")
    }
  }

  private var refundMessage: String {
    switch self {
    case .neverPurchased(let id, let state):
      return "transaction \(id) was never purchased (it is \(state)), so it cannot be refunded"
    case .alreadyRefunded(let id): return "transaction \(id) is already refunded"
    case .refundPercentageOutOfRange:
      return "a refund's percentage must be more than 0 and at most 100"
    case .refundRequestWaiting(let id):
      return "transaction \(id) already has a refund request waiting; decide it with refund or "
        + "refund-decline"
    case .noRefundRequest(let id):
      return "transaction \(id) has no refund request waiting; refund-request asks"
    case .notRefunded(let id):
      return "transaction \(id) is not refunded, so there is nothing to reverse"
    case .boughtAgainSinceRefund(let id, let current):
      return "transaction \(id)'s subscription was bought again since (transaction \(current) "
        + "is current), so its refund can no longer be reversed"
    case .noConsumptionRequest(let id):
      return "no refund request for transaction \(id) is waiting: the App Store asks for "
        + "consumption information only after one (refund-request)"
    case .consumptionRequestTooOld(let id):
      return "the refund request for transaction \(id) came more than 12 hours ago; the App "
        + "Store takes consumption information within 12 hours"
    case .neverPaidFor(let id): return "transaction \(id) was never paid for"
    case .familySharedTransaction(let id):
      return "transaction \(id) is a family member's, obtained through Family Sharing: only "
        + "the purchaser's transaction takes this"
    case .notOriginalTransaction(let id, let original):
      return "transaction \(id) is not an original transaction: name its purchase's original, "
        + "transaction \(original)"
    default: preconditionFailure("\(self) is not a refund's or a server record's refusal")
    }
  }

  private var subscriptionMessage: String {
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
    case .clockBackwards(let now, let target):
      return "the clock cannot go back (it is \(now.iso8601), asked for \(target.iso8601))"
    case .clockBeyondLatest(let target):
      return "the clock cannot pass \(Instant.latest.iso8601), the latest instant a session "
        + "reaches (asked for \(target.iso8601))"
    case .tooManyEvents(let budget, let transitions):
      return "this would cause more than \(budget) events (\(transitions) renewals or more); "
        + "advance in smaller steps or raise the limit"
    case .nothingScheduled: return "nothing is scheduled: no subscription is renewing"
    default: preconditionFailure("\(self) is not a subscription's refusal")
    }
  }

  private var otherMessage: String {
    switch self {
    case .callExercisedByBuying(let api):
      "\(api) is exercised by buying: its simulated error applies to buy"
    case .refundRequestNeedsTransaction: "a refund request needs the transaction it is for"
    case .tokenCreatedInFuture(let now):
      "a token cannot be created after the session's now (\(now.iso8601))"
    case .tokenExpiresBeforeCreation(let expires, let created):
      "a token cannot expire (\(expires.iso8601)) before it was created (\(created.iso8601))"
    case .externalPurchaseIDNotOneWord(let id): "an external purchase id is one word, not \"\(id)\""
    case .stepBackNeedsHistory:
      "stepping back needs the session's history: use it in run, a script or the inspector"
    case .notifyNeedsDelivery:
      "notify and notify-fault act on the deliveries of storekeeper serve (or the inspector's "
        + "--serve), which keep every notification with its attempts; run and the inspector "
        + "alone POST each one with quick retries"
    case .importedIDTaken(let id):
      "transaction \(id) is already in the session: an imported transaction keeps Apple's id, "
        + "which no other transaction may have"
    case .importedIDNotDecimal(let field, let value):
      "\(field) must be a decimal number, as Apple's ids are, not \"\(value.prefix(40))\""
    case .noImportedSubscription(let original):
      "no imported subscription has original transaction \(original): import its transactions "
        + "first (import transaction …)"
    default: preconditionFailure("\(self) is not a call's or a notice's refusal")
    }
  }

  private var familyMessage: String {
    switch self {
    case .invalidCustomerName(let name):
      "\"\(name.prefix(40))\" cannot name a customer: use 1 to 32 letters, digits, '.', '-' or "
        + "'_', starting with a letter or a digit (and not \"purchaser\")"
    case .noSuchCustomer(let name, let customers):
      "there is no customer \"\(name.prefix(40))\""
        + (customers.isEmpty
          ? " (the session has only its own: customer <name> makes one)"
          : " (customers: \(customers.prefix(20).joined(separator: ", "))"
            + (customers.count > 20 ? " and \(customers.count - 20) more" : "") + ")")
    case .customerNumberWithoutName:
      "number= goes with a customer's name: customer <name> number=<n>"
    case .customerNumberNotTheirs(let name, let number):
      "\(name) is customer number \(number); leave number= out or give theirs"
    case .customerNumberOutOfRange(let number, let maximum):
      "customer number \(number) is not 1 to \(maximum)"
    case .customerNumberTaken(let number, let name):
      "customer number \(number) is \(name)'s; give the new customer another"
    case .noSuchMember(_, let members):
      "nobody of that name was ever in the family"
        + (members.isEmpty
          ? " (nobody was: family join <name> adds one)"
          : " (members: \(members.joined(separator: ", ")))")
    case .alreadyInFamily(let name): "\(name) is already in the family"
    case .familyFull(let maximum, let members):
      "a family shares with at most \(maximum) members, and "
        + "\(members.joined(separator: ", ")) are in it: family leave <name> first"
    case .familyNamesUsedUp(let maximum):
      "\(maximum) different members have joined this family, as many as its transaction ids "
        + "have room for: one who was in it may join again"
    case .notInFamily(let name, let members):
      "\(name) is not in the family"
        + (members.isEmpty
          ? " (nobody is: family join <name> adds a member)"
          : " (its members: \(members.joined(separator: ", ")))")
    case .invalidMemberName(let name):
      "\"\(name.prefix(40))\" cannot name a member: use 1 to 32 letters, digits, '.', '-' or "
        + "'_', starting with a letter or a digit (and not \"purchaser\")"
    case .kindNotShared(let productID, let kind):
      "\(productID) is a \(kind) product: Family Sharing shares only non-consumables and "
        + "auto-renewable subscriptions"
    case .notFamilyShareable(let productID):
      "\(productID) is not family-shareable (its familyShareable is false in the configuration)"
    case .sharingAlready(let productID, let shared):
      "the purchaser already \(shared ? "shares" : "does not share") \(productID)"
    default: preconditionFailure("\(self) is not a family's or a customer's refusal")
    }
  }
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
