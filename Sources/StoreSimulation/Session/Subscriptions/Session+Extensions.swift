import StoreConfiguration

extension Session {
  /// Extends a subscription's renewal date, as the App Store Server API's "Extend a
  /// Subscription Renewal Date" does: the current period ends `days` days later (days at the
  /// session's rate), and so does every renewal after it.
  ///
  /// - Parameter id: any transaction of the subscription (Apple takes the original one).
  /// - Throws: ``SessionError`` when `days` is not 1 to 90, the transaction is not of a
  ///   subscription, or the subscription is not eligible (Apple's list: in a free offer period,
  ///   in billing retry or grace, extended twice in the past year, expired or refunded).
  public mutating func extendRenewalDate(
    _ id: UInt64, days: Int, reason: ExtendReason = .undeclared, _ sink: EventSink
  ) throws(SessionError) {
    try check(.extendRenewalDate(id, days: days, reason: reason))
    let groupIndex = try extensionGroup(id, days: days)
    extend(group: groupIndex, days: days, reason: reason, request: nil, sink)
    settle(sink)
  }

  /// Extends the renewal date of every active subscriber of a product, as "Extend Subscription
  /// Renewal Dates for All Active Subscribers" does: each eligible subscription is extended,
  /// each ineligible one is reported as a failure, then a summary.
  ///
  /// - Parameters:
  ///   - requestIdentifier: the request's identifier; by default one made of the product and
  ///     the moment.
  ///   - storefronts: Apple's `storefrontCountryCodes`: only subscribers in these storefronts
  ///     (the session's storefront is the customer's) are extended; empty, all of them. The
  ///     summary carries them.
  /// - Throws: ``SessionError`` when `days` is not 1 to 90, the product is not an
  ///   auto-renewable subscription, or a storefront code is not one of Apple's.
  public mutating func extendRenewalDates(
    of productID: String, days: Int, reason: ExtendReason = .undeclared,
    requestIdentifier: String? = nil, storefronts: [String] = [], _ sink: EventSink
  ) throws(SessionError) {
    try check(
      .extendRenewalDates(
        productID: productID, days: days, reason: reason, requestIdentifier: requestIdentifier,
        storefronts: storefronts))
    let productIndex = try requireProduct(productID)
    let request = requestIdentifier ?? "\(productID)-\(now.milliseconds)"
    var succeeded = 0
    var failed = 0
    forEachCustomer { session in
      let counts = session.extendSubscribers(
        of: productIndex, days: days, reason: reason, request: request,
        storefronts: storefronts, sink)
      succeeded += counts.succeeded
      failed += counts.failed
      // The others' families follow now; the current customer's, after the summary.
      if session.addressedCustomer != session.customer { session.settle(sink) }
    }
    let summary = RenewalExtensionSummary(
      productID: productID, requestIdentifier: request, storefrontCountryCodes: storefronts,
      succeededCount: succeeded, failedCount: failed)
    makeUnique()
    storage.massExtensions[
      MassExtensionKey(productID: productID, requestIdentifier: request)] = MassExtension(
        summary: summary, completeDate: now)
    emit(.renewalExtensionSummary(summary), at: now.milliseconds, sink)
    settle(sink)
  }

  /// Extends the current customer's subscriptions to `productIndex` for a mass extension, and
  /// tells how many were and were not.
  private mutating func extendSubscribers(
    of productIndex: Int, days: Int, reason: ExtendReason, request: String,
    storefronts: [String], _ sink: EventSink
  ) -> (succeeded: Int, failed: Int) {
    var counts = (succeeded: 0, failed: 0)
    guard storefronts.isEmpty || storefronts.contains(settings.storefront.countryCode) else {
      return counts
    }
    let productID = catalog.products[productIndex].productID
    for groupIndex in groups.indices
    where groups[groupIndex].isActive && groups[groupIndex].product == Int32(productIndex) {
      if let why = extensionIneligibility(group: groupIndex) {
        counts.failed += 1
        emit(
          .renewalExtension(
            RenewalExtension(
              originalTransactionID: groups[groupIndex].originalID,
              transactionID: groups[groupIndex].current, productID: productID, days: days,
              reason: reason, requestIdentifier: request, newExpirationDate: nil, failure: why)),
          at: now.milliseconds, sink)
      } else {
        counts.succeeded += 1
        extend(group: groupIndex, days: days, reason: reason, request: request, sink)
      }
    }
    return counts
  }

  /// The group of the subscription a transaction belongs to, when `days` is a valid extension
  /// and the subscription is eligible for one.
  func extensionGroup(_ id: UInt64, days: Int) throws(SessionError) -> Int {
    try checkExtensionDays(days)
    let position = try requirePurchasersTransaction(id)
    guard let groupIndex = product(at: ledger[position].product).groupIndex,
      groups[groupIndex].phase != .none,
      groups[groupIndex].originalID == ledger[position].originalID
        || groups[groupIndex].current == id
    else {
      throw SessionError(.notLatestRun(transaction: id))
    }
    if let why = extensionIneligibility(group: groupIndex) {
      throw SessionError(.notExtendable(transaction: id, because: why))
    }
    return groupIndex
  }

  /// Why a list of storefront codes is not Apple's (ISO 3166-1 alpha-3 of its storefronts).
  func checkStorefronts(_ codes: [String]) throws(SessionError) {
    for code in codes where Storefront(countryCode: code) == nil {
      throw SessionError(.unknownStorefront(code))
    }
  }

  /// How many days one extension may add: Apple's 1 to 90 ("extendByDays … maximum 90").
  public static let extensionDays = 1...90

  func checkExtensionDays(_ days: Int) throws(SessionError) {
    guard Self.extensionDays.contains(days) else {
      throw SessionError(.extensionDaysOutOfRange(days))
    }
  }

  /// Why a group's subscription cannot be extended now, if it cannot (Apple's
  /// SubscriptionExtensionIneligibleError).
  /// The yearly limit comes first: whatever else holds, a subscription extended twice this
  /// year is refused for that (Apple's SubscriptionMaxExtensionError, 4030005).
  func extensionIneligibility(group index: Int) -> ExtensionIneligibility? {
    let group = groups[index]
    if recentExtensionCount(ofTransaction: group.current) >= 2 { return .extendedTwiceThisYear }
    switch group.phase {
    case .subscribed: break
    case .gracePeriod: return .inGracePeriod
    case .billingRetry: return .inBillingRetry
    case .expired: return .expired
    case .revoked: return .refunded
    case .none: return .neverBought
    }
    if let current = ledger.position(of: group.current),
      let offer = snapshot(current).offer, offer.paymentMode == .freeTrial
    {
      return .inFreeOffer
    }
    return nil
  }

  /// How many times the subscription of a transaction was extended in the past year (0 when
  /// it is not a subscription's).
  public func recentExtensionCount(ofTransaction id: UInt64) -> Int {
    guard let position = ledger.position(of: id),
      let groupIndex = product(at: ledger[position].product).groupIndex
    else { return 0 }
    let rate = settings.timeRate
    return groups[groupIndex].extensions.filter {
      rate.end(of: SubscriptionPeriod(1, .year), startingAt: Instant(milliseconds: $0)) > now
    }.count
  }

  /// Moves the group's current period end `days` later and tells it.
  private mutating func extend(
    group index: Int, days: Int, reason: ExtendReason, request: String?, _ sink: EventSink
  ) {
    let stamp = now.milliseconds
    let end = settings.timeRate.end(
      of: SubscriptionPeriod(days, .day), startingAt: Instant(milliseconds: groups[index].periodEnd)
    )
    groups[index].periodEnd = end.milliseconds
    groups[index].anchorDay = Int8(CivilDateTime(end).day)
    groups[index].extensions = Array((groups[index].extensions + [stamp]).suffix(2))
    reschedule(group: index)
    if let position = ledger.position(of: groups[index].current) {
      ledger.update(position) { $0.expirationDate = end.milliseconds }
      emitTransaction(position, delivery: .updates, at: stamp, sink)
    }
    emitStatus(group: index, at: stamp, sink)
    emit(
      .renewalExtension(
        RenewalExtension(
          originalTransactionID: groups[index].originalID, transactionID: groups[index].current,
          productID: product(at: groups[index].product).productID, days: days, reason: reason,
          requestIdentifier: request, newExpirationDate: end, failure: nil)), at: stamp, sink)
  }
}
