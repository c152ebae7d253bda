/// The customers at a glance: how many, how many subscribe now, are in billing retry or a
/// grace period, or churned, and how many had paid access at each month's end. Made by
/// ``Session/customerOverview(_:)`` from the customers' summaries and transactions.
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

extension Session {
  /// The overview of `summaries` (``customerSummaries()``'s, maybe filtered), at most the last
  /// 24 month ends.
  ///
  /// - Complexity: O(*n* + *c* × *m*) for *n* transactions of *c* customers over *m* months.
  public func customerOverview(_ summaries: [CustomerSummary]) -> CustomerOverview {
    var overview = CustomerOverview(customers: summaries.count)
    for summary in summaries {
      switch summary.status {
      case .subscribed?: overview.subscribers += 1
      case .inGracePeriod?:
        overview.subscribers += 1
        overview.inGrace += 1
      case .inBillingRetryPeriod?: overview.inRetry += 1
      case .expired?, .revoked?: overview.churned += 1
      case nil: break
      }
    }
    overview.subscribersAtMonthEnds = monthEndSubscribers(of: Set(summaries.map(\.customer.number)))
    return overview
  }

  private func monthEndSubscribers(of numbers: Set<Int>) -> [(end: Instant, count: Int)] {
    var first = Int64.max
    storage.customers.forEach { state in
      if numbers.contains(state.customer.number), let record = state.ledger.records.first {
        first = min(first, record.purchaseDate)
      }
    }
    guard first < now.milliseconds else { return [] }
    var ends: [Int64] = []
    var civil = CivilDateTime(Instant(milliseconds: first))
    civil = CivilDateTime(year: civil.year, month: civil.month, day: 1, millisecondOfDay: 0)
    while true {
      let end = civil.addingMonths(Int64(ends.count + 1), preferredDay: 1).instant.milliseconds
      guard end <= now.milliseconds else { break }
      ends.append(end)
    }
    ends = Array(ends.suffix(24))
    var counts = [Int](repeating: 0, count: ends.count)
    storage.customers.forEach { state in
      guard numbers.contains(state.customer.number) else { return }
      var held = [Bool](repeating: false, count: ends.count)
      for record in state.ledger.records where record.hasExpiration && !record.isDeleted {
        guard record.state == .purchased, !record.flags.contains(.pendingApproval) else { continue }
        let stop = min(
          record.expirationDate,
          record.revocationDate == TransactionRecord.none ? .max : record.revocationDate)
        var index = Self.firstIndex(in: ends, atLeast: record.purchaseDate)
        while index < ends.count, ends[index] < stop {
          held[index] = true
          index += 1
        }
      }
      for index in held.indices where held[index] { counts[index] += 1 }
    }
    return zip(ends, counts).map { (Instant(milliseconds: $0), $1) }
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
