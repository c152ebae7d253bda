import StoreConfiguration

extension Session {
  /// Starts a subscription in a group the customer is not subscribed in: a first purchase (a new
  /// chain, `id == originalID`) or a resubscription (the group's original id is kept).
  mutating func startSubscription(
    group index: Int, product productIndex: Int, _ options: PurchaseOptions, date: Int64,
    delivery: Delivery, reusing request: Int?, _ sink: EventSink
  ) {
    var group = groups[index]
    let continuesRun = resubscriptionContinuesRun(group, at: date)
    // A member's own purchase after their seat ended starts a chain of their own.
    let resubscribing =
      group.phase != .none && !group.isAssigned
      && self.options.fidelity.resubscriptionKeepsOriginalID
    group.isAssigned = false
    let position = openPeriod(
      group: &group, product: productIndex, options, start: date,
      originalID: resubscribing ? group.originalID : TransactionRecord.ownID,
      originalPurchaseDate: resubscribing ? originalPurchaseDate(of: group) : date, reusing: request
    )
    group.willAutoRenew = options.renewal == .automatic
    group.graceEnd = TransactionRecord.none
    group.retryEnd = TransactionRecord.none
    group.priceIncrease = .noIncreasePending
    group.declinedPriceIncrease = false
    group.increase = nil
    if !continuesRun { group.recentStart = date }
    groups[index] = group
    reschedule(group: index)
    announcePurchase(position, delivery: delivery, options: options, sink)
    emitStatus(group: index, at: now.milliseconds, sink)
    if date < now.milliseconds {
      runScheduled(until: now.milliseconds, timeFloor: now.milliseconds, sink)
    }
  }

  /// Whether a resubscription at `date` continues the group's latest run of paid service
  /// (`recentSubscriptionStartDate` stays): the lapse since the service ended (the last
  /// period's end, or a refund) is shorter than Apple's 60 days, at the session's rate.
  func resubscriptionContinuesRun(_ group: GroupState, at date: Int64) -> Bool {
    let ended: Int64
    switch group.phase {
    case .expired: ended = group.periodEnd
    case .revoked:
      guard let position = ledger.position(of: group.current), ledger[position].isRevoked else {
        return false
      }
      ended = min(group.periodEnd, ledger[position].revocationDate)
    default: return false
    }
    let limit = settings.timeRate.end(
      of: SubscriptionPeriod(Self.resubscriptionGapDays, .day),
      startingAt: Instant(milliseconds: ended))
    return date < limit.milliseconds
  }

  /// Apple's threshold: a lapse shorter than this many days keeps `recentSubscriptionStartDate`.
  static let resubscriptionGapDays = 60

  /// Buying a product of a group the customer is subscribed in: the same product hands back
  /// the current transaction (and cancels a pending downgrade, or queues an offer); a higher
  /// level, or the same level and duration, switches now (upgrade, crossgrade); a lower level or
  /// another duration switches at the next renewal (downgrade).
  mutating func changePlan(
    group index: Int, to productIndex: Int, _ options: PurchaseOptions, delivery: Delivery,
    replacing request: Int?, _ sink: EventSink
  ) {
    let stamp = now.milliseconds
    let group = groups[index]
    let current = product(at: group.product)
    let wanted = catalog.products[productIndex]
    let immediate =
      wanted.level < current.level
      || (wanted.level == current.level && wanted.period == current.period)
    if Int32(productIndex) == group.product || !immediate {
      var offers: [GroupState.UpcomingOffer] = []
      if options.offer != nil,
        case .apply(let plan) = offerEligibility(options, product: productIndex)
      {
        offers = plan
      }
      if let request { removeRequest(request, sink) }
      groups[index].renewalProduct = Int32(productIndex)
      if !offers.isEmpty {
        groups[index].upcoming = queue(
          offers, after: groups[index].upcoming, product: Int32(productIndex))
      }
      guard let position = ledger.position(of: group.current) else { return }
      announcePurchase(position, delivery: delivery, options: options, sink)
      if groups[index].renewalProduct != group.renewalProduct || !offers.isEmpty {
        emitStatus(group: index, at: stamp, sink, redeemed: !offers.isEmpty)
      }
      return
    }
    // Upgrade or crossgrade of the same duration: a new period of the new product starts now.
    if let old = ledger.position(of: group.current) {
      ledger.update(old) { $0.flags.insert(.upgraded) }
      emitTransaction(old, delivery: .updates, at: stamp, sink)
    }
    var updated = groups[index]
    let position = openPeriod(
      group: &updated, product: productIndex, options, start: stamp, originalID: group.originalID,
      originalPurchaseDate: originalPurchaseDate(of: group), reusing: request)
    groups[index] = updated
    reschedule(group: index)
    announcePurchase(position, delivery: delivery, options: options, sink)
    emitStatus(group: index, at: stamp, sink)
  }

  /// Writes the first transaction of a new run of periods of `product` starting at `start`,
  /// with the offers the purchase gets, and makes it the group's current period.
  private mutating func openPeriod(
    group: inout GroupState, product productIndex: Int, _ options: PurchaseOptions, start: Int64,
    originalID: UInt64, originalPurchaseDate: Int64, reusing request: Int?
  ) -> Int {
    var plan: [GroupState.UpcomingOffer] = []
    if case .apply(let offers) = offerEligibility(options, product: productIndex) {
      plan = offers
    }
    // A monthly plan's payments take their offer as they are made (applyMonthlyPlan).
    let monthly = options.billingPlan == "MONTHLY"
    let first = monthly ? nil : plan.first
    if !monthly && !plan.isEmpty {
      if plan[0].remaining <= 1 { plan.removeFirst() } else { plan[0].remaining -= 1 }
    }
    var anchorDay: Int8 = 0
    let (expiration, price) = periodTerms(
      product: Int32(productIndex), offer: first, start: start, anchor: &anchorDay)
    var record = TransactionRecord(
      id: 0, originalID: originalID, purchaseDate: start,
      originalPurchaseDate: originalPurchaseDate,
      expirationDate: expiration, price: price, product: Int32(productIndex),
      storefront: storefrontIndex(), state: .purchased)
    if let first {
      record.offerKind = first.kind
      record.offerIndex = first.index
    }
    group.billingPeriod = 0
    group.commitmentEnd = TransactionRecord.none
    if monthly {
      // Payment 1 of a 12-month commitment, the plan's offer (if any) on its first payments.
      group.anchorDay = anchorDay
      applyMonthlyPlan(number: 1, to: &record, group: &group, offers: &plan)
      anchorDay = group.anchorDay
    }
    let position = place(&record, token: options.appAccountToken, reusing: request)
    if options.seats != nil || !storage.seats.isEmpty {
      openSeats(at: position, seats: options.seats)
    }
    if let terms = options.commerceTerms {
      openCommerce(at: position, terms: terms, anchor: &anchorDay)
    } else if !storage.commerce.isEmpty, storage.commerce[ledger[position].originalID] != nil {
      // A resubscription without a request is no Advanced Commerce one.
      makeUnique()
      storage.commerce.close(ledger[position].originalID)
    }
    group.phase = .subscribed
    group.originalID = ledger[position].originalID
    group.current = ledger[position].id
    group.product = Int32(productIndex)
    group.renewalProduct = Int32(productIndex)
    group.periodEnd = ledger[position].expirationDate
    group.expirationReason = nil
    group.anchorDay = anchorDay
    group.upcoming = plan
    group.purchasedCount += 1
    return position
  }

  /// Offers redeemed by a subscriber: after what is queued when `offers` stack on it, instead of
  /// it otherwise.
  private func queue(
    _ offers: [GroupState.UpcomingOffer], after queued: [GroupState.UpcomingOffer], product: Int32
  ) -> [GroupState.UpcomingOffer] {
    let stackable = offers.allSatisfy { offer in
      offer.kind != UInt8(OfferKind.allCases.firstIndex(of: .code)!)
        || (self.offer(of: offer)?.isStackable ?? false)
    }
    let kept = stackable ? queued.filter { $0.product == product } : []
    return kept + offers
  }

  /// An Ask to Buy request that resolved into nothing new: it leaves the ledger.
  mutating func removeRequest(_ position: Int, _ sink: EventSink) {
    let id = ledger[position].id
    ledger.update(position) { $0.flags.insert(.deleted) }
    emit(.transactionRemoved(id: id), at: now.milliseconds, sink)
  }

  /// Refuses a back-dated purchase whose catch-up renewals would exceed the event budget.
  func checkCatchUpBudget(product productIndex: Int, from date: Int64) throws(SessionError) {
    guard let period = catalog.products[productIndex].period else { return }
    var due = settings.timeRate.end(of: period, startingAt: Instant(milliseconds: date))
      .milliseconds
    var count = 0
    let budget = options.maximumEventsPerVerb / 2
    while due <= now.milliseconds {
      count += 1
      if count > budget {
        throw SessionError(
          .backdatedTooManyRenewals(
            date: Instant(milliseconds: date), budget: budget,
            rate: settings.timeRate.displayName))
      }
      due = settings.timeRate.end(of: period, startingAt: Instant(milliseconds: due)).milliseconds
    }
  }
}
