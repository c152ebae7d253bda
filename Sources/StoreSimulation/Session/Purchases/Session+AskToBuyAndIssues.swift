extension Session {
  /// Approves an Ask to Buy request: the same transaction becomes a purchase (keeping its date)
  /// and reaches the app on `Transaction.updates`, unfinished.
  ///
  /// - Throws: ``SessionError`` when the transaction is not awaiting approval.
  public mutating func approveAskToBuy(_ id: UInt64, _ sink: EventSink) throws(SessionError) {
    try check(.approveAskToBuy(id))
    let position = try pendingRequest(id)
    let record = ledger[position]
    let options = PurchaseOptions(
      quantity: Int(record.quantity), appAccountToken: ledger.details(of: record)?.appAccountToken,
      origin: .store)
    completePurchase(
      Int(record.product), options, date: record.purchaseDate, delivery: .updates,
      reusing: position, sink)
    settle(sink)
  }

  /// Declines an Ask to Buy request. The app receives nothing; the entry stays, no longer
  /// pending (the Transaction Manager keeps showing it).
  ///
  /// - Throws: ``SessionError`` when the transaction is not awaiting approval.
  public mutating func declineAskToBuy(_ id: UInt64, _ sink: EventSink) throws(SessionError) {
    try check(.declineAskToBuy(id))
    let position = try pendingRequest(id)
    ledger.update(position) {
      $0.flags.remove(.pendingApproval)
      $0.flags.insert(.declined)
    }
    emitTransaction(position, delivery: nil, at: now.milliseconds, sink)
    settle(sink)
  }

  func pendingRequest(_ id: UInt64) throws(SessionError) -> Int {
    let position = try requireTransaction(id)
    guard ledger[position].flags.contains(.pendingApproval) else {
      throw SessionError(
        ledger[position].flags.contains(.declined)
          ? .purchase(.alreadyDeclined(transaction: id))
          : .purchase(.notAwaitingApproval(transaction: id, state: stateLabel(position))))
    }
    return position
  }

  /// Resolves an issue: an interrupted purchase completes as a new transaction for the same
  /// product and quantity; a subscription in grace or billing retry renews now.
  ///
  /// - Throws: ``SessionError`` when the transaction has no issue (or its subscription already
  ///   left billing retry).
  public mutating func resolveIssue(_ id: UInt64, _ sink: EventSink) throws(SessionError) {
    try check(.resolveIssue(id))
    let position = try issuePosition(id)
    let record = ledger[position]
    let stamp = now.milliseconds
    if record.state == .failed {
      ledger.update(position) { $0.flags.remove(.purchaseIssue) }
      emitTransaction(position, delivery: nil, at: stamp, sink)
      let options = PurchaseOptions(
        quantity: Int(record.quantity),
        appAccountToken: ledger.details(of: record)?.appAccountToken,
        origin: .store)
      completePurchase(Int(record.product), options, date: stamp, delivery: .updates, sink)
      settle(sink)
      return
    }
    guard let groupIndex = product(at: record.product).groupIndex else { return }
    ledger.update(position) { $0.flags.remove(.purchaseIssue) }
    emitTransaction(position, delivery: nil, at: stamp, sink)
    let missed = groups[groupIndex].periodEnd
    groups[groupIndex].graceEnd = TransactionRecord.none
    groups[groupIndex].retryEnd = TransactionRecord.none
    let start = options.fidelity.billingRecoveryStart == .resolution ? stamp : missed
    renew(group: groupIndex, periodStart: start, stamp: stamp, sink)
    reschedule(group: groupIndex)
    runScheduled(until: stamp, timeFloor: stamp, sink)
    settle(sink)
  }

  /// The position of a transaction with an issue `resolve` can settle: an interrupted purchase,
  /// or a failed renewal of a subscription still in grace or billing retry.
  func issuePosition(_ id: UInt64) throws(SessionError) -> Int {
    let position = try requireTransaction(id)
    let record = ledger[position]
    guard record.flags.contains(.purchaseIssue) else {
      throw SessionError(.noIssueToResolve(transaction: id, state: stateLabel(position)))
    }
    guard record.state != .failed else { return position }
    guard let groupIndex = product(at: record.product).groupIndex, groups[groupIndex].current == id,
      groups[groupIndex].phase == .gracePeriod || groups[groupIndex].phase == .billingRetry
    else {
      throw SessionError(.noLongerInBillingRetry(transaction: id))
    }
    return position
  }

  /// The position of a transaction that was purchased (and so can be refunded, unless it was).
  func refundablePosition(_ id: UInt64) throws(SessionError) -> Int {
    let position = try requireTransaction(id)
    guard ledger[position].state == .purchased else {
      throw SessionError(.neverPurchased(transaction: id, state: stateLabel(position)))
    }
    return position
  }
}
