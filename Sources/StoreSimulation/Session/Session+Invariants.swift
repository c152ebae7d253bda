/// How a session checks the engine's invariants after each verb.
///
/// A check of the whole state walks every transaction; after every verb that makes a session's
/// life quadratic. ``amortized`` (debug builds, so `swift run` and the tests) checks what each
/// verb touched, and the whole state once the verbs since the last whole check have paid for it
/// (a share of the ledger's size each), so a session of any length stays linear.
public enum InvariantChecking: Equatable, Sendable {
  /// No checks (release builds).
  case off
  /// After every verb: the transactions it added and every group's state; the whole state once
  /// the verbs since the last whole check have each paid for
  /// ``Progress/transactionsPerVerb`` of its transactions.
  case amortized
  /// The whole state after every verb: quadratic over a session, for fuzzing.
  case everyVerb

  /// How far the ``amortized`` checks got.
  struct Progress: Equatable {
    /// How many transactions of a whole check each verb pays for: a whole check of *n*
    /// transactions falls due *n* / 32 verbs after the last one.
    static let transactionsPerVerb = 32
    /// The ledger's size at the last check: later positions were added since.
    var checkedCount = 0
    /// Verbs since the last whole check.
    var verbsSinceWholeCheck = 0
    /// How many transactions the checks visited in all (what the tests hold linear).
    var transactionsVisited = 0
  }
}

extension Session {
  /// Checks the invariants as ``SessionOptions/invariantChecking`` says; a broken one stops the
  /// process, naming it.
  mutating func verify() {
    let problem: String?
    switch options.invariantChecking {
    case .off: return
    case .everyVerb:
      storage.customers.addressedState.checked.transactionsVisited += ledger.records.count
      problem = invariantViolation()
    case .amortized:
      var progress = storage.customers.addressedState.checked
      let count = ledger.records.count
      progress.verbsSinceWholeCheck += 1
      if progress.verbsSinceWholeCheck * InvariantChecking.Progress.transactionsPerVerb >= count {
        progress.verbsSinceWholeCheck = 0
        progress.transactionsVisited += count
        problem = invariantViolation()
      } else {
        let start = min(progress.checkedCount, count)
        progress.transactionsVisited += count - start
        problem = recentViolation(from: start)
      }
      progress.checkedCount = count
      storage.customers.addressedState.checked = progress
    }
    if let problem { preconditionFailure("Storekeeper engine invariant broken: \(problem)") }
  }

  /// The first broken invariant, or `nil`: ids consecutive, renewals chained to a live original
  /// of their group, expirations not before purchases, at most one running period per group,
  /// group state pointing at live transactions, counters and indexes matching the ledger.
  ///
  /// - Complexity: O(*n*) in the number of transactions.
  func invariantViolation() -> String? {
    var unfinished = 0
    var running = [Int](repeating: 0, count: groups.count)
    var purchased = [Int](repeating: 0, count: groups.count)
    for position in ledger.records.indices {
      if let problem = recordViolation(at: position) { return problem }
      let record = ledger[position]
      guard !record.isDeleted else { continue }
      if !record.flags.contains(.finished) { unfinished += 1 }
      if let groupIndex = product(at: record.product).groupIndex, record.state == .purchased {
        purchased[groupIndex] += 1
        if !record.isRevoked && !record.flags.contains(.upgraded)
          && record.expirationDate > now.milliseconds
          && ledger.details(of: record)?.seats?.isAddition != true
        {
          running[groupIndex] += 1
        }
      }
    }
    if unfinished != ledger.unfinishedCount { return "the unfinished count drifted" }
    if let drift = ledger.indexViolation() { return drift }
    for index in groups.indices {
      if running[index] > 1 {
        return "group \(catalog.groups[index].id) has \(running[index]) running periods"
      }
      if purchased[index] != groups[index].purchasedCount {
        return "group \(catalog.groups[index].id)'s purchase count drifted"
      }
    }
    return wakeViolation() ?? groupsViolation()
  }

  /// Whether the addressed customer's wake says when their schedule is next due (a view of a
  /// member's device has no schedule of its own, and is not checked).
  func wakeViolation() -> String? {
    let book = storage.customers
    let wake = book.wakes.due(of: book.addressed)
    guard wake == scheduler.nextDue(groups: groups) else {
      return
        "customer \(addressedCustomer)'s wake (\(wake.map(String.init) ?? "none")) is not their "
        + "schedule's next due time"
    }
    return nil
  }

  /// The first broken invariant of the transactions from ledger position `start` on and of the
  /// groups' state, or `nil`.
  ///
  /// - Complexity: O(*k* + *g*) in the transactions checked and the groups.
  func recentViolation(from start: Int) -> String? {
    for position in start..<ledger.records.count {
      if let problem = recordViolation(at: position) { return problem }
    }
    return groupsViolation()
  }

  /// What must hold of the transaction at `position` by itself.
  private func recordViolation(at position: Int) -> String? {
    let record = ledger[position]
    if ledger.placed == nil
      ? record.id != ledger.firstID + UInt64(position) : !ledger.holds(record.id)
    {
      return "transaction \(record.id) is not where its id says, at \(position)"
    }
    guard !record.isDeleted else { return nil }
    if record.hasExpiration && record.expirationDate < record.purchaseDate {
      return "transaction \(record.id) expires before it was bought"
    }
    if record.flags.contains(.renewal) {
      let groupIndex = product(at: record.product).groupIndex
      guard record.originalID < record.id, let original = ledger.position(of: record.originalID),
        product(at: ledger[original].product).groupIndex == groupIndex
      else { return "renewal \(record.id) is not chained to a live original in its group" }
    }
    return nil
  }

  /// What must hold of each group's state: it points at a live transaction of its own group, is
  /// not entitled through a refunded one, and is not subscribed past its period.
  private func groupsViolation() -> String? {
    for (index, group) in groups.enumerated() where group.phase != .none {
      let id = catalog.groups[index].id
      guard let position = ledger.position(of: group.current) else {
        return "group \(id) points at a missing transaction \(group.current)"
      }
      if product(at: ledger[position].product).groupIndex != index {
        return "group \(id)'s current transaction belongs to another group"
      }
      if group.isEntitled && ledger[position].isRevoked {
        return "group \(id) is entitled through a refunded transaction"
      }
      if group.phase == .subscribed && group.periodEnd < now.milliseconds {
        return "group \(id) is subscribed past its period's end"
      }
    }
    return nil
  }
}
