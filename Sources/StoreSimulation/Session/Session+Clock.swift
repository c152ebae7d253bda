import StoreConfiguration

extension Session {
  /// When the next scheduled transition (a renewal, the end of a grace or retry period, an
  /// expiry) of any customer is due, if any.
  ///
  /// - Complexity: O(1).
  public var nextScheduledEvent: Instant? {
    storage.customers.wakes.min.map { Instant(milliseconds: $0.due) }
  }

  /// Moves the clock to `target`, firing every transition due on the way in time order. Each
  /// event carries its due time.
  ///
  /// - Throws: ``SessionError`` when `target` is in the past or the span would cause more than
  ///   ``SessionOptions/maximumEventsPerVerb`` events; nothing changes then.
  /// - Complexity: O(*e* (log *g* + log *c*)) for *e* transitions in *g* groups of *c*
  ///   customers, whatever the span; the customers with nothing due are not looked at.
  public mutating func advance(to target: Instant, _ sink: EventSink) throws(SessionError) {
    try check(.advance(to: target))
    while addressEarliestDue(upTo: target.milliseconds) != nil,
      let entry = popDue(upTo: target.milliseconds)
    {
      let group = Int(entry.group)
      fire(group: group, due: entry.due, stamp: entry.due, sink)
      reschedule(group: group)
    }
    addressCurrent()
    now = target
    settle(sink)
  }

  /// Moves the clock toward `target` as ``advance(to:_:)`` does, telling `mark` after each
  /// transition its due time and whether it made events (the moments a step back can go to),
  /// and stopping early after `limit` transitions, at a moment none is left half done (the
  /// clock then stands at the last one's due time), so that a caller can look at the session on
  /// the way.
  ///
  /// - Returns: whether the clock reached `target`.
  /// - Throws: ``SessionError`` as ``advance(to:_:)`` does; nothing changes then.
  @discardableResult
  public mutating func advance(
    to target: Instant, atMost limit: Int = .max,
    marking mark: (_ due: Instant, _ eventful: Bool) -> Void, _ sink: EventSink
  ) throws(SessionError) -> Bool {
    try check(.advance(to: target))
    var count = 0
    var last: Int64?
    while let due = addressEarliestDue(upTo: target.milliseconds) {
      if count >= limit, let last, due > last {
        addressCurrent()
        now = Instant(milliseconds: last)
        settle(sink)
        return false
      }
      guard let entry = popDue(upTo: target.milliseconds) else { break }
      let group = Int(entry.group)
      let before = emittedEventCount
      fire(group: group, due: entry.due, stamp: entry.due, sink)
      reschedule(group: group)
      mark(Instant(milliseconds: entry.due), emittedEventCount > before)
      count += 1
      last = entry.due
    }
    addressCurrent()
    now = target
    settle(sink)
    return true
  }

  /// Moves the clock to the next scheduled transition and fires it (with any due at the same
  /// moment).
  ///
  /// - Throws: ``SessionError`` when nothing is scheduled.
  public mutating func advanceToNextEvent(_ sink: EventSink) throws(SessionError) {
    try check(.advanceToNextEvent)
    try advance(to: max(nextScheduledEvent ?? now, now), sink)
  }

  /// Why the clock cannot move to `target`: it is in the past, beyond ``Instant/latest``, or the
  /// span would cause more events than a verb may.
  func checkAdvance(to target: Instant) throws(SessionError) {
    guard target >= now else {
      throw SessionError(.clockBackwards(now: now, target: target))
    }
    guard target <= .latest else {
      throw SessionError(.clockBeyondLatest(target: target))
    }
    try checkEventBudget(until: target.milliseconds)
  }

  /// Fires the current customer's due transitions up to `limit`. With a floor, events are
  /// stamped no earlier than it (catch-up of a back-dated purchase happens now, about past
  /// periods).
  mutating func runScheduled(until limit: Int64, timeFloor: Int64?, _ sink: EventSink) {
    while let entry = popDue(upTo: limit) {
      let group = Int(entry.group)
      fire(group: group, due: entry.due, stamp: max(entry.due, timeFloor ?? entry.due), sink)
      reschedule(group: group)
    }
  }

  /// One transition of a group at its due time.
  private mutating func fire(group index: Int, due: Int64, stamp: Int64, _ sink: EventSink) {
    switch groups[index].phase {
    case .subscribed:
      // A monthly plan's payments go on through the commitment, auto-renew or not.
      if !groups[index].willAutoRenew && !isCommitted(group: index) {
        let declined = groups[index].declinedPriceIncrease
        expire(
          group: index, reason: declined ? .didNotConsentToPriceIncrease : .autoRenewDisabled,
          at: stamp, sink)
      } else if !product(at: groups[index].renewalProduct).isAvailable {
        // The product left the configuration: it is no longer for sale.
        expire(group: index, reason: .productUnavailable, at: stamp, sink)
      } else if groups[index].priceIncrease == .pending
        && options.fidelity.unansweredPriceIncrease == .expire
      {
        // It does not renew: auto-renew is off in the renewal info from now on, as after a
        // decline [unverified].
        groups[index].willAutoRenew = false
        expire(group: index, reason: .didNotConsentToPriceIncrease, at: stamp, sink)
      } else if settings.shouldEnterBillingRetryOnRenewal {
        failRenewal(group: index, due: due, stamp: stamp, sink)
      } else {
        renew(group: index, periodStart: due, stamp: stamp, sink)
      }
    case .gracePeriod:
      groups[index].phase = .billingRetry
      emitStatus(group: index, at: stamp, sink)
    case .billingRetry:
      groups[index].willAutoRenew = false
      expire(group: index, reason: .billingError, at: stamp, sink)
    case .none, .expired, .revoked:
      break
    }
    syncFamily(at: stamp, sink)
    syncSeatMembers(at: stamp, sink)
  }

  mutating func expire(
    group index: Int, reason: ExpirationReason, at stamp: Int64, _ sink: EventSink
  ) {
    groups[index].phase = .expired
    groups[index].expirationReason = reason
    groups[index].upcoming = []
    emitStatus(group: index, at: stamp, sink)
  }

  private mutating func failRenewal(group index: Int, due: Int64, stamp: Int64, _ sink: EventSink) {
    let rate = settings.timeRate
    let period = product(at: groups[index].product).period ?? SubscriptionPeriod(1, .month)
    if let position = ledger.position(of: groups[index].current) {
      ledger.update(position) { $0.flags.insert(.purchaseIssue) }
      emitTransaction(position, delivery: nil, at: stamp, sink)
    }
    groups[index].retryEnd = due + rate.billingRetryPeriod
    groups[index].expirationReason = .billingError
    if settings.billingGracePeriodIsEnabled {
      groups[index].phase = .gracePeriod
      groups[index].graceEnd = due + rate.gracePeriod(for: period)
    } else {
      groups[index].phase = .billingRetry
    }
    emitStatus(group: index, at: stamp, sink)
    emit(
      .message(.billingIssue, productID: product(at: groups[index].product).productID), at: stamp,
      sink)
  }

  /// A renewal: a new transaction for the renewal preference starting at `periodStart`.
  mutating func renew(group index: Int, periodStart: Int64, stamp: Int64, _ sink: EventSink) {
    let productIndex = groups[index].renewalProduct
    let payment = nextBillingPeriod(group: index)
    let offer = payment == nil ? groups[index].takeOffer(for: productIndex) : nil
    // A local anchor: an inout argument into `groups` while `self` is read for the call would
    // copy the session's storage.
    var anchor = groups[index].anchorDay
    var (expiration, price) = periodTerms(
      product: productIndex, offer: offer, start: periodStart, anchor: &anchor)
    if offer == nil { price = standardPrice(group: index, product: productIndex) }
    var commerce: CommerceTerms?
    if !storage.commerce.isEmpty, storage.commerce[groups[index].originalID] != nil {
      (expiration, price, commerce) = renewCommerce(
        group: index, start: periodStart, anchor: &anchor)
    }
    var record = TransactionRecord(
      id: 0, originalID: groups[index].originalID, purchaseDate: periodStart,
      originalPurchaseDate: originalPurchaseDate(group: index), expirationDate: expiration,
      price: price, product: productIndex, storefront: storefrontIndex(), state: .purchased,
      flags: .renewal)
    if let offer {
      record.offerKind = offer.kind
      record.offerIndex = offer.index
    }
    // A renewal carries its purchase's details (the app account token); an imported period's
    // are its own (Apple's line item id), so a renewal of one gets only the token.
    var ownDetails: TransactionDetails?
    if let current = ledger.position(of: groups[index].current) {
      if storage.ids.isEmpty {
        record.details = ledger[current].details
      } else {
        (record.details, ownDetails) = ledger.renewalDetails(of: current)
      }
    }
    if groups[index].billingPeriod != 0 || groups[index].anchorDay != anchor {
      groups[index].billingPeriod = 0
      groups[index].anchorDay = anchor
    }
    if let payment {
      var group = groups[index]
      var offers = group.upcoming
      applyMonthlyPlan(number: payment, to: &record, group: &group, offers: &offers)
      group.upcoming = offers
      groups[index] = group
    }
    if !storage.seats.isEmpty {
      if ownDetails == nil { ownDetails = ledger.details(of: record) }
      renewSeats(&record, details: &ownDetails, originalID: groups[index].originalID)
      if ownDetails?.seats == nil { ownDetails = nil }
    }
    if let commerce {
      if ownDetails == nil { ownDetails = ledger.details(of: record) ?? TransactionDetails() }
      ownDetails?.commerce = commerce
    }
    let id = ownDetails == nil ? appendMade(record) : appendMade(record, details: ownDetails)
    let cause = NotificationCause.renewal(after: groups[index].told)
    groups[index].renewed(as: id, product: productIndex, until: record.expirationDate)
    emitTransaction(ledger.records.count - 1, delivery: .updates, at: stamp, sink, cause: cause)
    emitStatus(group: index, at: stamp, sink)
  }

  /// The end and price of a period of `product` starting at `start`, under `offer` if any.
  ///
  /// - Parameter anchor: the group's day of the month (``GroupState/anchorDay``), which the
  ///   period keeps and leaves as the next period must read it: a period of months or years
  ///   starts the anchor where there is none (on its own first day); one of days or weeks
  ///   clears it, so that the paid months after a week's trial fall on the day the trial ended,
  ///   as Apple bills them.
  func periodTerms(
    product productIndex: Int32, offer: GroupState.UpcomingOffer?, start: Int64,
    anchor: inout Int8, rate: TimeRate? = nil
  ) -> (expiration: Int64, price: Int64) {
    let product = product(at: productIndex)
    var terms = (period: product.period ?? SubscriptionPeriod(1, .month), price: product.price)
    if let offer, let offered = self.offer(of: offer) { terms = (offered.period, offered.price) }
    return (periodEnd(of: terms.period, start: start, anchor: &anchor, rate: rate), terms.price)
  }

  /// The end of a period starting at `start`, keeping the group's day of the month as
  /// ``periodTerms(product:offer:start:anchor:rate:)`` says.
  func periodEnd(
    of period: SubscriptionPeriod, start: Int64, anchor: inout Int8, rate: TimeRate? = nil
  ) -> Int64 {
    let startInstant = Instant(milliseconds: start)
    guard period.unit == .month || period.unit == .year else {
      anchor = 0
      return (rate ?? settings.timeRate).end(of: period, startingAt: startInstant).milliseconds
    }
    if anchor == 0 { anchor = Int8(CivilDateTime(startInstant).day) }
    return (rate ?? settings.timeRate).end(
      of: period, startingAt: startInstant, anchorDay: Int(anchor)
    ).milliseconds
  }

  /// ``originalPurchaseDate(of:)`` of group `index`, read in place.
  func originalPurchaseDate(group index: Int) -> Int64 {
    ledger.position(of: groups[index].originalID).map { ledger[$0].purchaseDate }
      ?? groups[index].recentStart
  }

  func originalPurchaseDate(of group: GroupState) -> Int64 {
    ledger.position(of: group.originalID).map { ledger[$0].purchaseDate } ?? group.recentStart
  }

  /// Refuses a span that would cause more events than allowed, before anything changes.
  ///
  /// Counts the transitions each group of each customer due by `limit` would go through up to
  /// it by stepping its periods; every transition causes at most three events, and as many
  /// again for each family member. A replay (no budget) counts nothing.
  ///
  /// - Complexity: O(*k* × *g*) for *k* customers due by `limit` (at most the budget), *g*
  ///   groups each: the customers with nothing due are not looked at.
  func checkEventBudget(until limit: Int64) throws(SessionError) {
    let budget = options.maximumEventsPerVerb
    guard budget < .max else { return }
    var transitions = 0
    var events = 0
    eachCustomerDue(by: limit) { groups, settings, members in
      for group in groups {
        let count = transitionCount(
          of: group, settings: settings, until: limit, stopAfter: budget)
        transitions += count
        events += count * 2 * (1 + members)
        if events > budget { return false }
      }
      return true
    }
    if events > budget {
      throw SessionError(.tooManyEvents(budget: budget, transitions: transitions))
    }
  }

  /// About how many transitions (renewals, ends of grace and retry periods, expiries) of every
  /// customer fall due from now until `limit`, counted no further than `atMost`; each causes a
  /// few events.
  ///
  /// - Complexity: O(*k* × *g*) for *k* customers due by `limit` and *g* groups at a rate with
  ///   fixed periods, else up to `atMost`.
  public func transitionsDue(until limit: Instant, atMost: Int) -> Int {
    var transitions = 0
    eachCustomerDue(by: limit.milliseconds) { groups, settings, _ in
      for group in groups where transitions <= atMost {
        transitions += transitionCount(
          of: group, settings: settings, until: limit.milliseconds,
          stopAfter: atMost - transitions)
      }
      return transitions <= atMost
    }
    return transitions
  }

  private func transitionCount(
    of group: GroupState, settings: SessionSettings, until limit: Int64, stopAfter budget: Int
  ) -> Int {
    var group = group
    guard group.isActive, let firstDue = group.nextDue, firstDue <= limit else { return 0 }
    let monthly = group.billingPeriod > 0 && group.renewalProduct == group.product
    if group.phase != .subscribed || (!group.willAutoRenew && !monthly)
      || (group.priceIncrease == .pending && options.fidelity.unansweredPriceIncrease == .expire)
      || settings.shouldEnterBillingRetryOnRenewal
      || !product(at: group.renewalProduct).isAvailable
    {
      return 3
    }
    var count = 0
    var due = firstDue
    while due <= limit && count <= budget {
      if group.upcoming.isEmpty,
        let length = fixedLength(
          of: group.renewalProduct, rate: settings.timeRate, monthly: monthly)
      {
        return count + Int((limit - due) / length) + 1
      }
      count += 1
      let offer = monthly ? nil : group.takeOffer(for: group.renewalProduct)
      let next =
        monthly
        ? settings.timeRate.monthEnd(from: due, anchorDay: Int(group.anchorDay))
        : periodTerms(
          product: group.renewalProduct, offer: offer, start: due, anchor: &group.anchorDay,
          rate: settings.timeRate
        ).expiration
      due = max(next, due + 1)
    }
    return count
  }

  /// The length of every period of a product when the rate makes it constant.
  private func fixedLength(of productIndex: Int32, rate: TimeRate, monthly: Bool = false) -> Int64?
  {
    guard let period = monthly ? SubscriptionPeriod(1, .month) : product(at: productIndex).period
    else { return nil }
    if case .calendar = rate.scale, period.unit == .month || period.unit == .year {
      return nil
    }
    let start = Instant(milliseconds: 0)
    return max(1, rate.end(of: period, startingAt: start).milliseconds)
  }
}
