import StoreConfiguration

extension Session {
  /// Sets an imported subscription's state to what Apple's status and renewal info say
  /// (``ImportedRenewal``): its phase, auto-renew status and product, expiration intent, billing
  /// retry or grace period, price increase and the offer of the next renewal. The clock then
  /// continues it: it renews at its renewal date, expires at the end of billing retry, and
  /// `resolve` recovers it. Nothing is notified.
  ///
  /// - Throws: ``SessionError`` when no imported transaction began that subscription, or a
  ///   product is unknown or of another group.
  public mutating func importRenewal(
    _ renewal: ImportedRenewal, _ sink: EventSink
  ) throws(SessionError) {
    let (index, current, next) = try importedGroup(renewal)
    var group = groups[index]
    group.product = Int32(current)
    group.renewalProduct = Int32(next)
    group.willAutoRenew = renewal.willAutoRenew
    group.expirationReason = renewal.expirationReason
    group.priceIncrease = renewal.priceIncrease
    if let date = renewal.renewalDate { group.periodEnd = date.milliseconds }
    if let start = renewal.recentStart { group.recentStart = start.milliseconds }
    group.increase = nil
    if renewal.priceIncrease != .noIncreasePending, let price = renewal.renewalPrice,
      let position = ledger.position(of: group.current)
    {
      group.increase = (group.renewalProduct, ledger[position].price, price)
    }
    // Renewals charge Apple's price when it is not the configuration's.
    if renewal.priceIncrease == .noIncreasePending, renewal.offer == nil,
      let price = renewal.renewalPrice, price != product(at: group.renewalProduct).price
    {
      group.increase = (group.renewalProduct, price, price)
    }
    group.upcoming = renewal.offer.flatMap { upcoming($0, group: group) }.map { [$0] } ?? []
    setPhase(renewal, of: &group)
    groups[index] = group
    if group.phase == .gracePeriod || group.phase == .billingRetry,
      let position = ledger.position(of: group.current)
    {
      ledger.update(position) { $0.flags.insert(.purchaseIssue) }
    }
    reschedule(group: index)
    retellQuietly(group: index, sink)
    settle(sink)
  }

  /// The group of the subscription `renewal` is about, which an imported transaction began,
  /// with the indexes of its current and its auto-renew product.
  @discardableResult
  func importedGroup(
    _ renewal: ImportedRenewal
  ) throws(SessionError) -> (group: Int, product: Int, renewalProduct: Int) {
    guard account.isPurchaser else {
      throw SessionError(.memberCannotBuy(member: account.name))
    }
    var found: [(product: Int, group: Int)] = []
    for productID in [renewal.productID, renewal.autoRenewProductID] {
      guard let index = catalog.index(of: productID) else {
        throw SessionError(
          .noProduct(productID), suggestions: catalog.productIDs(closeTo: productID))
      }
      guard let group = catalog.products[index].groupIndex else {
        throw SessionError(.productNotAutoRenewable(productID: productID))
      }
      found.append((index, group))
    }
    let groupIndex = found[0].group
    guard groups[groupIndex].phase != .none, groups[groupIndex].originalID == renewal.originalID,
      found[1].group == groupIndex
    else { throw SessionError(.noImportedSubscription(originalID: renewal.originalID)) }
    return (groupIndex, found[0].product, found[1].product)
  }

  /// The phase Apple's `status` says, with the dates billing retry and grace need.
  private func setPhase(_ renewal: ImportedRenewal, of group: inout GroupState) {
    let rate = settings.timeRate
    group.graceEnd = TransactionRecord.none
    group.retryEnd = TransactionRecord.none
    switch renewal.state {
    case .subscribed: group.phase = .subscribed
    case .expired: group.phase = .expired
    case .revoked: group.phase = .revoked
    case .inBillingRetryPeriod, .inGracePeriod:
      group.retryEnd = group.periodEnd + rate.billingRetryPeriod
      group.phase = .billingRetry
      if renewal.state == .inGracePeriod {
        group.phase = .gracePeriod
        let period = product(at: group.product).period ?? SubscriptionPeriod(1, .month)
        group.graceEnd =
          renewal.gracePeriodExpiration?.milliseconds
          ?? group.periodEnd + rate.gracePeriod(for: period)
      }
    }
  }

  /// The next renewal's offer as the group's queue holds it: the configuration's offer, with
  /// the periods it has left (those the subscription's latest periods did not already use).
  private func upcoming(
    _ offer: TransactionOffer, group: GroupState
  ) -> GroupState.UpcomingOffer? {
    guard let (kind, index) = catalogOffer(offer, product: Int(group.renewalProduct)) else {
      return nil
    }
    let terms = catalog.products[Int(group.renewalProduct)].offers(
      OfferKind.allCases[Int(kind)])[Int(index)]
    var used = 0
    var position = ledger.position(of: group.current)
    while let at = position, ledger[at].originalID == group.originalID,
      ledger[at].offerKind == kind, ledger[at].offerIndex == index,
      ledger[at].product == group.renewalProduct
    {
      used += 1
      position = at > 0 ? at - 1 : nil
    }
    let remaining = max(1, terms.billedPeriods - used)
    return GroupState.UpcomingOffer(
      kind: kind, index: index, product: group.renewalProduct, remaining: Int32(remaining))
  }
}
