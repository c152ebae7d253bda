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
  /// Whether the subscription that speaks for them is a seat of another customer's multiseat
  /// subscription (an Apple-hosted member's, `ASSIGNED`).
  public var holdsAssignedSeat = false

  /// The status's word, `none` for a customer who never subscribed.
  public var statusName: String { status?.rawValue ?? "none" }
}

extension CustomerSummary {
  /// Where a customer's subscription stands: what the summary reads from their groups (the
  /// rest it reads from their transactions). Kept in a ledger snapshot, so a listing of
  /// customers needs no replay.
  struct Standing: Equatable {
    var status: RenewalState
    var product: Int32
    var originalID: UInt64
    var since: Int64
    /// A member's seat of another customer's subscription.
    var isAssigned = false
  }

  /// A summary from a customer's live transactions and standing.
  ///
  /// - Complexity: O(*n*) for the customer's *n* transactions.
  init(
    customer: Customer, records: some Sequence<TransactionRecord>, storefronts: [Storefront],
    device: Storefront, standing: Standing?, catalog: Catalog
  ) {
    self.init(
      customer: customer, renewals: 0, transactions: 0, storefront: device, revenue: [:])
    var latestStorefront: UInt8?
    for record in records where !record.isDeleted {
      transactions += 1
      guard record.state == .purchased, !record.flags.contains(.pendingApproval) else { continue }
      var paid = record.price
      if record.isRevoked {
        paid -=
          record.refundedShare > 0 ? record.price * Int64(record.refundedShare) / 100_000 : paid
      }
      revenue[storefronts[Int(record.storefront)].currency, default: 0] += paid
      if record.flags.contains(.renewal) { renewals += 1 }
      latestStorefront = record.storefront
    }
    if let latestStorefront { storefront = storefronts[Int(latestStorefront)] }
    if let standing {
      status = standing.status
      productID = catalog.products[Int(standing.product)].productID
      originalTransactionID = standing.originalID
      since = Instant(milliseconds: standing.since)
      holdsAssignedSeat = standing.isAssigned
    }
  }
}

extension Session {
  /// Every customer (the session's own first, then the named ones as they were made), as a
  /// list of customers shows them.
  ///
  /// - Complexity: O(*n* + *c* × *g*) for *n* transactions of *c* customers in *g* groups.
  public func customerSummaries() -> [CustomerSummary] {
    var result: [CustomerSummary] = []
    result.reserveCapacity(storage.customers.count)
    forEachCustomerSummary { result.append($0) }
    return result
  }

  /// Calls `body` with every customer's summary in turn, as ``customerSummaries()`` lists
  /// them, holding one at a time (a population's totals at its end).
  public func forEachCustomerSummary(_ body: (CustomerSummary) -> Void) {
    let storefronts = storage.storefronts
    storage.customers.forEach { state in
      body(
        CustomerSummary(
          customer: state.customer, records: state.ledger.records, storefronts: storefronts,
          device: state.settings.storefront, standing: Self.standing(of: state.groups),
          catalog: catalog))
    }
  }

  /// The standing of the subscription that speaks for a customer: the active one, else the one
  /// that ended last; `nil` before any.
  static func standing(of groups: [GroupState]) -> CustomerSummary.Standing? {
    let speaking = groups.indices.filter { groups[$0].phase != .none }.max {
      let (a, b) = (groups[$0], groups[$1])
      return (a.isActive ? 1 : 0, a.periodEnd) < (b.isActive ? 1 : 0, b.periodEnd)
    }
    guard let speaking, let status = groups[speaking].renewalState else { return nil }
    let group = groups[speaking]
    return CustomerSummary.Standing(
      status: status, product: group.product, originalID: group.originalID,
      since: group.phase == .subscribed ? group.recentStart : group.periodEnd,
      isAssigned: group.isAssigned && group.isActive)
  }
}
