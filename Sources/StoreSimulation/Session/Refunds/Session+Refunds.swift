extension Session {
  /// Refunds a transaction (the Transaction Manager's "Refund", or Apple granting a request):
  /// it is re-emitted with `revocationDate`, `revocationReason` and how much was refunded, and
  /// leaves the entitlements. Refunding a subscription's current period revokes the
  /// subscription; refunding a past period revokes only that transaction.
  ///
  /// - Parameter share: a prorated refund's share in thousandths of a percent (50,000 is
  ///   half); `nil` or 100,000 refunds everything.
  /// - Throws: ``SessionError`` when it was never purchased, is already refunded, or the share
  ///   is not above 0 and at most 100%.
  public mutating func refund(
    _ id: UInt64, reason: RevocationReason = .other, share: Int? = nil, _ sink: EventSink
  ) throws(SessionError) {
    try check(.refund(id, reason: reason, share: share))
    let position = try refundablePosition(id)
    let record = ledger[position]
    let stamp = now.milliseconds
    ledger.update(position) {
      $0.revocationDate = stamp
      $0.refundedShare = share.map { $0 == 100_000 ? 0 : Int32($0) } ?? 0
      $0.flags.remove(.refundRequested)
      if reason == .developerIssue { $0.flags.insert(.revokedForDeveloperIssue) }
    }
    emitTransaction(position, delivery: .updates, at: stamp, sink, cause: .init(.refund))
    let product = product(at: record.product)
    if let groupIndex = product.groupIndex {
      if groups[groupIndex].current == id && groups[groupIndex].isActive {
        groups[groupIndex].phase = .revoked
        groups[groupIndex].willAutoRenew = false
        groups[groupIndex].upcoming = []
        reschedule(group: groupIndex)
        emitStatus(group: groupIndex, at: stamp, sink)
        emit(.revokedEntitlements(productIDs: [product.productID]), at: stamp, sink)
      }
    } else if product.type != .consumable {
      emit(.revokedEntitlements(productIDs: [product.productID]), at: stamp, sink)
    }
    settle(sink)
  }

  /// The customer asks Apple for a refund (from the App Store's "Report a Problem", or the
  /// app's refund sheet once submitted). Nothing is refunded yet: the App Store asks the app's
  /// server for consumption information, and a subscription stops renewing, as Apple does
  /// after a refund request. ``refund(_:reason:share:_:)`` grants it,
  /// ``declineRefund(_:_:)`` declines it.
  ///
  /// - Throws: ``SessionError`` when it was never purchased, is already refunded, or a request
  ///   for it is already waiting.
  public mutating func requestRefund(
    _ id: UInt64, reason: RefundRequestReason = .other, _ sink: EventSink
  ) throws(SessionError) {
    try check(.requestRefund(id, reason: reason))
    let position = try refundablePosition(id)
    let stamp = now.milliseconds
    ledger.update(position) { $0.flags.insert(.refundRequested) }
    serverRecords.refundRequests[id] = stamp
    emitTransaction(position, delivery: nil, at: stamp, sink)
    emit(.refundRequested(transactionID: id, reason: reason), at: stamp, sink)
    if let groupIndex = product(at: ledger[position].product).groupIndex,
      groups[groupIndex].current == id, groups[groupIndex].isActive,
      groups[groupIndex].willAutoRenew
    {
      groups[groupIndex].willAutoRenew = false
      reschedule(group: groupIndex)
      emitStatus(group: groupIndex, at: stamp, sink)
    }
    settle(sink)
  }

  /// Apple declines a refund request: the transaction stays as it was (a subscription keeps
  /// its auto-renew off).
  ///
  /// - Throws: ``SessionError`` when no refund request for it is waiting.
  public mutating func declineRefund(_ id: UInt64, _ sink: EventSink) throws(SessionError) {
    try check(.declineRefund(id))
    let position = try requestedRefundPosition(id)
    let stamp = now.milliseconds
    ledger.update(position) { $0.flags.remove(.refundRequested) }
    emitTransaction(position, delivery: nil, at: stamp, sink)
    emit(.refundDeclined(transactionID: id), at: stamp, sink)
    settle(sink)
  }

  /// Apple reverses a refund it granted (the customer's dispute went the developer's way): the
  /// transaction loses its revocation and the customer gets the product back. A subscription's
  /// current period is active again until its end, without renewing. [unverified: Apple does
  /// not say whether auto-renew comes back.]
  ///
  /// - Throws: ``SessionError`` when the transaction is not refunded.
  public mutating func reverseRefund(_ id: UInt64, _ sink: EventSink) throws(SessionError) {
    try check(.reverseRefund(id))
    let position = try refundedPosition(id)
    let stamp = now.milliseconds
    ledger.update(position) {
      $0.revocationDate = TransactionRecord.none
      $0.refundedShare = 0
      $0.flags.remove(.revokedForDeveloperIssue)
      $0.flags.remove(.refundRequested)
    }
    emitTransaction(
      position, delivery: .updates, at: stamp, sink, cause: .init(.refundReversed))
    if let groupIndex = product(at: ledger[position].product).groupIndex,
      groups[groupIndex].current == id, groups[groupIndex].phase == .revoked
    {
      if groups[groupIndex].periodEnd > stamp {
        groups[groupIndex].phase = .subscribed
        groups[groupIndex].expirationReason = nil
      } else {
        groups[groupIndex].phase = .expired
        groups[groupIndex].expirationReason = .autoRenewDisabled
      }
      reschedule(group: groupIndex)
      emitStatus(group: groupIndex, at: stamp, sink)
    }
    settle(sink)
  }

  /// Why a transaction cannot be refunded: never purchased, already refunded, a multiseat
  /// member's seat, or a share out of range.
  func checkRefund(_ id: UInt64, share: Int?) throws(SessionError) {
    let position = try refundablePosition(id)
    guard !ledger[position].isRevoked else {
      throw SessionError(.alreadyRefunded(transaction: id))
    }
    if let purchaser = ledger.details(of: ledger[position])?.seats?.assignedBy {
      throw seatRefusal(
        .assignedSeat,
        "transaction \(id) is a multiseat member's seat, paid for by the purchaser: refund "
          + "the purchaser's (\(purchaser)'s subscription), or group remove the member")
    }
    if let share, !(1...100_000).contains(share) {
      throw SessionError(.refundPercentageOutOfRange)
    }
  }

  /// Why the customer cannot ask for a refund of a transaction: never purchased, already
  /// refunded, or a request already waiting.
  func checkRefundRequest(_ id: UInt64) throws(SessionError) {
    try checkRefund(id, share: nil)
    guard !ledger[try refundablePosition(id)].flags.contains(.refundRequested) else {
      throw SessionError(.refundRequestWaiting(transaction: id))
    }
  }

  /// The position of a transaction whose refund request is waiting for Apple's decision.
  func requestedRefundPosition(_ id: UInt64) throws(SessionError) -> Int {
    let position = try requireTransaction(id)
    guard ledger[position].flags.contains(.refundRequested) else {
      throw SessionError(.noRefundRequest(transaction: id))
    }
    return position
  }

  /// The position of a refunded transaction whose refund can be reversed: a subscription period
  /// that has not ended must still be its group's current one. [unverified: once the customer
  /// bought the group again, giving the old period back would make two run at once; we refuse.]
  func refundedPosition(_ id: UInt64) throws(SessionError) -> Int {
    let position = try requireTransaction(id)
    let record = ledger[position]
    guard record.isRevoked else {
      throw SessionError(.notRefunded(transaction: id))
    }
    if let groupIndex = product(at: record.product).groupIndex, groups[groupIndex].current != id,
      record.expirationDate > now.milliseconds
    {
      throw SessionError(
        .boughtAgainSinceRefund(transaction: id, current: groups[groupIndex].current))
    }
    return position
  }
}
