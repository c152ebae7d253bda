import StoreConfiguration

/// One customer as a list of customers shows them: where their subscription stands, since when,
/// how much they paid. Made by ``Session/customerSummaries()``.
public struct CustomerSummary: Equatable, Sendable {
  /// Who.
  public var customer: Customer
  /// Their subscription's state in StoreKit's words (`subscribed`, `expired`,
  /// `inBillingRetryPeriod`, `inGracePeriod`, `revoked`); `nil` for one who never subscribed.
  /// With subscriptions in several groups, the one that is active (else the one that ended
  /// last) speaks for them.
  public var status: RenewalState?
  /// The product of that subscription's current (or last) period.
  public var productID: String?
  /// That subscription's original transaction.
  public var originalTransactionID: UInt64?
  /// When the state began: the start of the current run of paid periods for a subscriber, the
  /// end of the last paid period otherwise.
  public var since: Instant?
  /// How many of their transactions are renewals.
  public var renewals: Int
  /// How many transactions they have (deleted ones excluded).
  public var transactions: Int
  /// The storefront of their latest transaction (their device's before they bought anything).
  public var storefront: Storefront
  /// What they paid, less refunds, in milliunits, by ISO 4217 currency.
  public var revenue: [String: Int64]

  /// The status's word, `none` for a customer who never subscribed.
  public var statusName: String { status?.rawValue ?? "none" }
}

extension Session {
  /// Every customer (the session's own first, then the named ones as they were made), as a
  /// list of customers shows them.
  ///
  /// - Complexity: O(*n* + *c* × *g*) for *n* transactions of *c* customers in *g* groups.
  public func customerSummaries() -> [CustomerSummary] {
    var result: [CustomerSummary] = []
    result.reserveCapacity(storage.customers.count)
    let storefronts = storage.storefronts
    storage.customers.forEach { state in
      result.append(summary(of: state, storefronts: storefronts))
    }
    return result
  }

  private func summary(of state: CustomerState, storefronts: [Storefront]) -> CustomerSummary {
    var summary = CustomerSummary(
      customer: state.customer, renewals: 0, transactions: state.ledger.liveCount,
      storefront: state.settings.storefront, revenue: [:])
    var latestStorefront: UInt8?
    for record in state.ledger.records where !record.isDeleted && record.state == .purchased {
      if record.flags.contains(.pendingApproval) { continue }
      let currency = storefronts[Int(record.storefront)].currency
      var paid = record.price
      if record.isRevoked {
        paid -=
          record.refundedShare > 0 ? record.price * Int64(record.refundedShare) / 100_000 : paid
      }
      summary.revenue[currency, default: 0] += paid
      if record.flags.contains(.renewal) { summary.renewals += 1 }
      latestStorefront = record.storefront
    }
    if let latestStorefront { summary.storefront = storefronts[Int(latestStorefront)] }
    let speaking = state.groups.indices.filter { state.groups[$0].phase != .none }.max {
      let (a, b) = (state.groups[$0], state.groups[$1])
      return (a.isActive ? 1 : 0, a.periodEnd) < (b.isActive ? 1 : 0, b.periodEnd)
    }
    if let speaking {
      let group = state.groups[speaking]
      summary.status = group.renewalState
      summary.productID = catalog.products[Int(group.product)].productID
      summary.originalTransactionID = group.originalID
      summary.since = Instant(
        milliseconds: group.phase == .subscribed ? group.recentStart : group.periodEnd)
    }
    return summary
  }
}
