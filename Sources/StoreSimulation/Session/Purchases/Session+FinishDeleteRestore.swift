extension Session {
  /// Marks a transaction finished (`Transaction.finish()`): it leaves `Transaction.unfinished`
  /// and is no longer re-delivered at launch.
  ///
  /// - Throws: ``SessionError`` when it is already finished.
  public mutating func finish(_ id: UInt64, _ sink: EventSink) throws(SessionError) {
    try check(.finish(id))
    if let share = locateShare(id) { return finishShare(share.member, share.index, sink) }
    let position = try requireTransaction(id)
    ledger.update(position) { $0.flags.insert(.finished) }
    emitTransaction(position, delivery: nil, at: now.milliseconds, sink)
    settle(sink)
  }

  /// Finishes every unfinished transaction, oldest first.
  public mutating func finishAll(_ sink: EventSink) {
    _ = finishAll(fromPosition: 0, beforePosition: recordCount, atMost: .max, sink)
  }

  /// How many records the addressed customer's ledger holds, deleted ones included: the position
  /// the next transaction takes.
  public var recordCount: Int { ledger.records.count }

  /// Finishes at most `limit` unfinished transactions at ledger positions from `start` and
  /// below `boundary`, oldest first: ``finishAll(_:)`` in steps, for a caller that keeps drawing
  /// between them. Transactions made after the first step (at or past `boundary`, the
  /// ``recordCount`` then) are left alone, so the steps together do what one `finishAll` did
  /// when they began. (Positions, not ids: an imported customer's ids are Apple's.)
  ///
  /// - Returns: the position to continue from, or `nil` when none is left below `boundary`.
  public mutating func finishAll(
    fromPosition start: Int, beforePosition boundary: Int, atMost limit: Int, _ sink: EventSink
  ) -> Int? {
    let stamp = now.milliseconds
    let end = min(boundary, recordCount)
    var position = max(start, 0)
    var finished = 0
    while let next = ledger.firstUnfinished(atOrAfter: position), next < end {
      guard finished < limit else {
        settle(sink)
        return next
      }
      ledger.update(next) { $0.flags.insert(.finished) }
      emitTransaction(next, delivery: nil, at: stamp, sink)
      finished += 1
      position = next + 1
    }
    settle(sink)
    return nil
  }

  /// Deletes a transaction as if it never happened (`deleteTransaction`). Deleting a
  /// subscription's original purchase deletes its renewals too; deleting every transaction of a
  /// group restores introductory offer eligibility; a deleted non-consumable can be bought again.
  public mutating func delete(_ id: UInt64, _ sink: EventSink) throws(SessionError) {
    try check(.delete(id))
    let position = try requireTransaction(id)
    let record = ledger[position]
    let groupIndex = product(at: record.product).groupIndex
    var doomed = [position]
    if groupIndex != nil, record.originalID == record.id {
      doomed = ledger.records.indices.filter {
        !ledger[$0].isDeleted && ledger[$0].originalID == record.id
      }
    }
    let stamp = now.milliseconds
    for position in doomed {
      let removed = ledger[position]
      ledger.update(position) { $0.flags.insert(.deleted) }
      if removed.state == .purchased, let group = product(at: removed.product).groupIndex {
        groups[group].purchasedCount -= 1
      }
      emit(.transactionRemoved(id: removed.id), at: stamp, sink)
    }
    if let groupIndex { settleAfterDeletion(group: groupIndex, sink) }
    dropSharesOfDeletedPurchases(sink)
    dropSeatsOfDeletedPurchases(sink)
    settle(sink)
  }

  /// Deletes every transaction (`clearTransactions`).
  public mutating func clear(_ sink: EventSink) {
    let stamp = now.milliseconds
    for position in ledger.records.indices where !ledger[position].isDeleted {
      ledger.update(position) { $0.flags.insert(.deleted) }
      emit(.transactionRemoved(id: ledger[position].id), at: stamp, sink)
    }
    for index in groups.indices {
      groups[index] = GroupState(generation: groups[index].generation)
      reschedule(group: index)
    }
    dropSharesOfDeletedPurchases(sink)
    dropSeatsOfDeletedPurchases(sink)
    settle(sink)
  }

  /// After deletions, points a group at its latest remaining period, or forgets the
  /// subscription when none is left.
  private mutating func settleAfterDeletion(group index: Int, _ sink: EventSink) {
    let group = groups[index]
    guard group.phase != .none, ledger.position(of: group.current) == nil else { return }
    // A period's own transaction, not the added seats' (which share its dates).
    let latest = ledger.records.lastIndex {
      !$0.isDeleted && $0.state == .purchased && $0.originalID == group.originalID
        && ledger.details(of: $0)?.seats?.isAddition != true
    }
    guard let latest else {
      groups[index] = GroupState(generation: group.generation)
      reschedule(group: index)
      return
    }
    let record = ledger[latest]
    groups[index].current = record.id
    groups[index].product = record.product
    groups[index].periodEnd = record.expirationDate
    groups[index].upcoming = []
    if record.isRevoked {
      groups[index].phase = .revoked
    } else if record.expirationDate > now.milliseconds {
      groups[index].phase = .subscribed
    } else {
      groups[index].phase = .expired
      groups[index].expirationReason = groups[index].expirationReason ?? .unknown
    }
    reschedule(group: index)
    emitStatus(group: index, at: now.milliseconds, sink)
  }

  /// The app starts and listens to `Transaction.updates`: every unfinished transaction is
  /// delivered again, newest first.
  public mutating func launch(_ sink: EventSink) {
    let stamp = now.milliseconds
    for position in ledger.unfinished.reversed() where ledger[position].state == .purchased {
      emitTransaction(position, delivery: .updates, at: stamp, sink)
    }
  }

  /// SK1 `restoreCompletedTransactions()`: every non-consumable and subscription transaction is
  /// reported `restored`, then completion.
  public mutating func restore(_ sink: EventSink) {
    let stamp = now.milliseconds
    var count = 0
    for record in ledger.records
    where !record.isDeleted && record.state == .purchased && !record.isRevoked {
      let product = product(at: record.product)
      guard product.type == .nonConsumable || product.type == .autoRenewableSubscription else {
        continue
      }
      count += 1
      emit(
        .paymentQueue(
          .init(
            productID: product.productID, state: .restored, transactionID: record.id,
            quantity: Int(record.quantity))),
        at: stamp, sink)
    }
    emit(.restoreCompleted(count: count), at: stamp, sink)
  }
}
