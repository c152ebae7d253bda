/// The customers at a glance: how many, how many subscribe now, are in billing retry or a
/// grace period, or churned, and how many had paid access at each month's end. Made by
/// ``Session/overview(statuses:slots:holding:)`` from the customers' summaries and transactions.
public struct CustomerOverview: Equatable, Sendable {
  /// Customers listed (the session's own left out when others exist and it bought nothing).
  public var customers: Int
  /// Subscribed now (grace periods included).
  public var subscribers = 0
  /// In billing retry now.
  public var inRetry = 0
  /// In a grace period now.
  public var inGrace = 0
  /// Whose subscription expired or was revoked.
  public var churned = 0
  /// At each calendar month's end (UTC) from the first purchase's month to now, how many
  /// customers held a paid period of an auto-renewable subscription (not refunded by then).
  public var subscribersAtMonthEnds: [(end: Instant, count: Int)] = []

  /// No customers.
  public init(customers: Int = 0) { self.customers = customers }

  /// Whether two overviews say the same (the month ends compared one by one).
  public static func == (lhs: CustomerOverview, rhs: CustomerOverview) -> Bool {
    (lhs.customers, lhs.subscribers, lhs.inRetry, lhs.inGrace, lhs.churned)
      == (rhs.customers, rhs.subscribers, rhs.inRetry, rhs.inGrace, rhs.churned)
      && lhs.subscribersAtMonthEnds.map(\.end) == rhs.subscribersAtMonthEnds.map(\.end)
      && lhs.subscribersAtMonthEnds.map(\.count) == rhs.subscribersAtMonthEnds.map(\.count)
  }
}

/// Which month ends each customer held a paid period at: the month ends, and a bit per month
/// end for each customer (by slot), so that an overview of any subset of customers counts bits
/// instead of reading transactions again.
public struct MonthEndHolding: Sendable {
  /// The month ends (UTC calendar months), oldest first, at most the last 24.
  public let ends: [Instant]
  /// Bit *i* set: the customer in that slot held a paid period at `ends[i]`.
  public let masks: [UInt32]

  /// No month ended yet (or `masks` for `ends`).
  public init(ends: [Instant] = [], masks: [UInt32] = []) {
    self.ends = ends
    self.masks = masks
  }
}

extension Session {
  /// The overview of customers whose statuses are `statuses` and who are in `slots` of
  /// `holding` (two collections in the same order, read once each: a view filtering thousands
  /// of customers as you type passes indices, not summaries).
  ///
  /// - Complexity: O(*c* × *m*) for *c* customers over *m* months.
  public static func overview(
    statuses: [RenewalState?], slots: [Int], holding: MonthEndHolding
  ) -> CustomerOverview {
    var overview = CustomerOverview(customers: statuses.count)
    for status in statuses {
      switch status {
      case .subscribed?: overview.subscribers += 1
      case .inGracePeriod?:
        overview.subscribers += 1
        overview.inGrace += 1
      case .inBillingRetryPeriod?: overview.inRetry += 1
      case .expired?, .revoked?: overview.churned += 1
      case nil: break
      }
    }
    var counts = [Int](repeating: 0, count: holding.ends.count)
    for slot in slots where slot < holding.masks.count {
      var mask = holding.masks[slot]
      while mask != 0 {
        counts[mask.trailingZeroBitCount] += 1
        mask &= mask - 1
      }
    }
    overview.subscribersAtMonthEnds = zip(holding.ends, counts).map { ($0, $1) }
    return overview
  }

  /// At each calendar month's end (UTC) from the first purchase's month to now (the last 24),
  /// which customers held a paid period of an auto-renewable subscription, not refunded by then.
  ///
  /// - Complexity: O(*n* + *c* × *m*) for *n* transactions of *c* customers over *m* months.
  public func monthEndHolding() -> MonthEndHolding {
    var first = Int64.max
    storage.customers.forEach { state in
      if let record = state.ledger.records.first { first = min(first, record.purchaseDate) }
    }
    guard first < now.milliseconds else { return MonthEndHolding(ends: [], masks: []) }
    var ends: [Int64] = []
    var civil = CivilDateTime(Instant(milliseconds: first))
    civil = CivilDateTime(year: civil.year, month: civil.month, day: 1, millisecondOfDay: 0)
    while true {
      let end = civil.addingMonths(Int64(ends.count + 1), preferredDay: 1).instant.milliseconds
      guard end <= now.milliseconds else { break }
      ends.append(end)
    }
    let shown = Array(ends.suffix(24))
    var masks: [UInt32] = []
    masks.reserveCapacity(storage.customers.count)
    storage.customers.forEach { state in
      var mask: UInt32 = 0
      for record in state.ledger.records where record.hasExpiration && !record.isDeleted {
        guard record.state == .purchased, !record.flags.contains(.pendingApproval) else { continue }
        let stop =
          record.isRevoked
          ? min(record.expirationDate, record.revocationDate) : record.expirationDate
        var index = Self.firstIndex(in: shown, atLeast: record.purchaseDate)
        while index < shown.count, shown[index] < stop {
          mask |= 1 << UInt32(index)
          index += 1
        }
      }
      masks.append(mask)
    }
    return MonthEndHolding(ends: shown.map { Instant(milliseconds: $0) }, masks: masks)
  }

  /// The index of the first of the ascending `values` at least `value` (binary search).
  private static func firstIndex(in values: [Int64], atLeast value: Int64) -> Int {
    var (low, high) = (0, values.count)
    while low < high {
      let middle = (low + high) / 2
      if values[middle] < value { low = middle + 1 } else { high = middle }
    }
    return low
  }
}
