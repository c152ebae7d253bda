extension Session {
  /// The first broken invariant, or `nil`. Checked after every verb in debug and test builds:
  /// ids consecutive, renewals chained to a live original of their group, expirations not
  /// before purchases, at most one running period per group, group state pointing at live
  /// transactions, counters and indexes matching the ledger.
  ///
  /// - Complexity: O(*n*) in the number of transactions.
  func invariantViolation() -> String? {
    var unfinished = 0
    var running = [Int](repeating: 0, count: groups.count)
    var purchased = [Int](repeating: 0, count: groups.count)
    for (position, record) in ledger.records.enumerated() {
      if record.id != ledger.firstID + UInt64(position) {
        return "transaction ids are not consecutive at \(position)"
      }
      guard !record.isDeleted else { continue }
      if !record.flags.contains(.finished) { unfinished += 1 }
      if record.hasExpiration && record.expirationDate < record.purchaseDate {
        return "transaction \(record.id) expires before it was bought"
      }
      let groupIndex = product(at: record.product).groupIndex
      if record.flags.contains(.renewal) {
        guard record.originalID < record.id, let original = ledger.position(of: record.originalID),
          product(at: ledger[original].product).groupIndex == groupIndex
        else { return "renewal \(record.id) is not chained to a live original in its group" }
      }
      if let groupIndex, record.state == .purchased {
        purchased[groupIndex] += 1
        if !record.isRevoked && !record.flags.contains(.upgraded)
          && record.expirationDate > now.milliseconds
        {
          running[groupIndex] += 1
        }
      }
    }
    if unfinished != ledger.unfinishedCount { return "the unfinished count drifted" }
    if let drift = ledger.indexViolation() { return drift }
    for (index, group) in groups.enumerated() {
      if running[index] > 1 {
        return "group \(catalog.groups[index].id) has \(running[index]) running periods"
      }
      if purchased[index] != group.purchasedCount {
        return "group \(catalog.groups[index].id)'s purchase count drifted"
      }
      guard group.phase != .none else { continue }
      guard let position = ledger.position(of: group.current) else {
        return "group \(catalog.groups[index].id) points at a missing transaction \(group.current)"
      }
      if product(at: ledger[position].product).groupIndex != index {
        return "group \(catalog.groups[index].id)'s current transaction belongs to another group"
      }
      if group.isEntitled && ledger[position].isRevoked {
        return "group \(catalog.groups[index].id) is entitled through a refunded transaction"
      }
      if group.phase == .subscribed && group.periodEnd < now.milliseconds {
        return "group \(catalog.groups[index].id) is subscribed past its period's end"
      }
    }
    return nil
  }
}
