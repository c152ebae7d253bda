extension Session {
  /// Turns auto-renew off or on for the subscription a transaction belongs to
  /// (`disableAutoRenewForTransaction` / `enableAutoRenewForTransaction`). No transaction is made;
  /// the renewal info changes.
  ///
  /// - Throws: ``SessionError`` when the transaction is not a subscription's, the subscription is
  ///   over, or auto-renew is already so.
  public mutating func setAutoRenew(
    _ id: UInt64, enabled: Bool, _ sink: EventSink
  )
    throws(SessionError)
  {
    try check(.setAutoRenew(id, enabled: enabled))
    let groupIndex = try activeGroup(ofTransaction: id)
    groups[groupIndex].willAutoRenew = enabled
    if enabled { groups[groupIndex].declinedPriceIncrease = false }
    emitStatus(group: groupIndex, at: now.milliseconds, sink)
    settle(sink)
  }

  /// Expires a subscription now (`expireSubscription`): auto-renew off and the current period's
  /// `expirationDate` set to now; the reason `didNotConsentToPriceIncrease` after a declined
  /// price increase, `autoRenewDisabled` otherwise.
  ///
  /// - Throws: ``SessionError`` when the product is not an auto-renewable subscription or is not
  ///   the customer's current subscription.
  public mutating func expireSubscription(
    _ productID: String, _ sink: EventSink
  )
    throws(SessionError)
  {
    try check(.expireSubscription(productID: productID))
    let groupIndex = try activeGroup(ofProduct: productID)
    let stamp = now.milliseconds
    if let position = ledger.position(of: groups[groupIndex].current),
      ledger[position].expirationDate > stamp
    {
      ledger.update(position) { $0.expirationDate = max(stamp, $0.purchaseDate) }
      emitTransaction(position, delivery: nil, at: stamp, sink)
    }
    // Expired after declining a price increase, the reason is the decline (WWDC22's
    // "What's new in StoreKit testing" expires the subscription to see it).
    let declined = groups[groupIndex].declinedPriceIncrease
    groups[groupIndex].willAutoRenew = false
    groups[groupIndex].periodEnd = stamp
    expire(
      group: groupIndex, reason: declined ? .didNotConsentToPriceIncrease : .autoRenewDisabled,
      at: stamp, sink)
    reschedule(group: groupIndex)
    settle(sink)
  }

  /// Renews a subscription now (`forceRenewalOfSubscription`): the current period ends now and
  /// a renewal transaction starts a new one; auto-renew is turned on and a pending price
  /// increase is cleared. A subscription in grace or billing retry is renewed too.
  ///
  /// - Throws: ``SessionError`` when the product is not the customer's current subscription.
  public mutating func forceRenewal(_ productID: String, _ sink: EventSink) throws(SessionError) {
    try check(.forceRenewal(productID: productID))
    let groupIndex = try activeGroup(ofProduct: productID)
    let stamp = now.milliseconds
    if let position = ledger.position(of: groups[groupIndex].current) {
      let record = ledger[position]
      if record.expirationDate > stamp || record.flags.contains(.purchaseIssue) {
        ledger.update(position) {
          $0.expirationDate = min($0.expirationDate, max(stamp, $0.purchaseDate))
          $0.flags.remove(.purchaseIssue)
        }
        emitTransaction(position, delivery: nil, at: stamp, sink)
      }
    }
    groups[groupIndex].willAutoRenew = true
    groups[groupIndex].declinedPriceIncrease = false
    // Forcing a renewal clears a pending increase (one already agreed to stays).
    if groups[groupIndex].priceIncrease == .pending { groups[groupIndex].increase = nil }
    groups[groupIndex].priceIncrease = .noIncreasePending
    groups[groupIndex].graceEnd = TransactionRecord.none
    groups[groupIndex].retryEnd = TransactionRecord.none
    renew(group: groupIndex, periodStart: stamp, stamp: stamp, sink)
    reschedule(group: groupIndex)
    settle(sink)
  }

  /// The group of a transaction whose subscription is running or being retried.
  func activeGroup(ofTransaction id: UInt64) throws(SessionError) -> Int {
    let position = try requireTransaction(id)
    let product = product(at: ledger[position].product)
    guard let groupIndex = product.groupIndex else {
      throw SessionError(.notAutoRenewable(transaction: id, productID: product.productID))
    }
    let group = groups[groupIndex]
    guard ledger[position].state == .purchased, group.originalID == ledger[position].originalID,
      group.phase != .none
    else {
      throw SessionError(.notPartOfSubscription(transaction: id))
    }
    guard group.isActive else {
      throw SessionError(
        .subscriptionOver(transaction: id, state: group.renewalState?.rawValue ?? "over"))
    }
    try refuseAssigned(group: groupIndex)
    return groupIndex
  }

  /// The group whose current subscription is `productID`.
  func activeGroup(ofProduct productID: String) throws(SessionError) -> Int {
    let index = try requireProduct(productID)
    guard let groupIndex = catalog.products[index].groupIndex else {
      throw SessionError(.productNotAutoRenewable(productID: productID))
    }
    let group = groups[groupIndex]
    guard group.isActive, group.product == Int32(index) else {
      throw SessionError(
        .noActiveSubscription(
          productID: productID,
          held: group.isActive ? product(at: group.product).productID : nil))
    }
    try refuseAssigned(group: groupIndex)
    return groupIndex
  }
}
