import StoreSimulation

/// Turns the engine's events into the notifications the App Store would send, following the
/// spec's event table. Keeps what it needs to tell an initial buy from a resubscription, a
/// renewal from a billing recovery, an upgrade from a downgrade, a refund from its reversal.
///
/// A family member's subscription is followed apart from the purchaser's (each account's
/// state by ``key(_:_:)``): a member gains access (`SUBSCRIBED`), renews with the purchaser
/// (`DID_RENEW`), follows the purchaser's renewal status changes, and loses access (`REVOKE`).
public struct NotificationMapper: Sendable {
  /// Per account's group (``key(_:_:)``), its status as last seen.
  private var statuses: [String: SubscriptionStatus] = [:]
  /// Per account's group, its current transaction as last seen.
  private var currentTransactions: [String: Transaction] = [:]
  private var purchased = Set<UInt64>()
  private var revoked = Set<UInt64>()
  /// Per group, the offers queued for the renewals to come.
  private var queuedOffers: [String: [QueuedOffer]] = [:]
  /// What makes this session's notification UUIDs its own: the signer's bundle id and
  /// environment and the session's identity.
  private let namespace: String

  /// A mapper that has seen nothing; `session` gives the state it starts from. `namespace`
  /// keeps the UUIDs of different sessions, apps and environments apart (see
  /// ``Signer/notificationNamespace(session:)``).
  public init(session: Session? = nil, namespace: String = "") {
    self.namespace = namespace
    guard let session else { return }
    for customer in session.customers {
      let customerView = session.view(of: Account(customer: customer))
      for account in [Account(customer: customer)]
        + customerView.everyFamilyMember.map({ Account(customer: customer, member: $0) })
      {
        remember(session.view(of: account), as: account, offers: customerView)
      }
    }
  }

  /// What an account's device holds at the start.
  private mutating func remember(_ view: SessionView, as account: Account, offers: SessionView) {
    for status in view.subscriptionStatuses() {
      let key = Self.key(status.groupID, account)
      statuses[key] = status
      currentTransactions[key] = view.transaction(status.transactionID)
      if account.isPurchaser {
        queuedOffers[key] = offers.queuedOffers(groupID: status.groupID)
      }
    }
    view.forEachTransaction { transaction in
      if transaction.state == .purchased { purchased.insert(transaction.id) }
      if transaction.revocationDate != nil { revoked.insert(transaction.id) }
    }
  }

  /// The key of an account's group: the group's id for the own customer, with the member's
  /// name for a member, and the customer's number for a named customer.
  static func key(_ groupID: String, _ account: Account) -> String {
    let ownKey = account.isPurchaser ? groupID : "\(groupID)\u{0}\(account.name)"
    return account.customer.isOwn ? ownKey : "\(ownKey)\u{0}\(account.customer.number)"
  }

  /// The notifications that `events` cause. `events` are the latest the session emitted, all
  /// of them and in order; `session` is the state after them, which tells an offer redeemed
  /// for the renewals to come from a plain change of plan. Each notification carries the
  /// transaction and status as they were right after its event.
  public mutating func notifications(
    for events: [StoreEvent], in session: Session
  ) -> [ServerNotification] {
    var batch = NotificationBatch(events: events, session: session, namespace: namespace)
    for index in events.indices {
      batch.begin(index)
      switch events[index].kind {
      case .transaction(let transaction, _): changed(transaction, &batch)
      case .status(let status): changed(status, &batch)
      case .refundRequested(let id, let reason):
        let t = batch.transaction(id)
        batch.add(
          "CONSUMPTION_REQUEST", nil, transaction: t,
          status: statusAfter(group: t?.subscriptionGroupID, t?.owner ?? .purchaser, in: batch),
          reason: reason)
      case .refundDeclined(let id):
        let t = batch.transaction(id)
        batch.add(
          "REFUND_DECLINED", nil, transaction: t,
          status: statusAfter(group: t?.subscriptionGroupID, t?.owner ?? .purchaser, in: batch))
      case .renewalExtension(let extended):
        let t = batch.transaction(extended.transactionID)
        let status = t.flatMap { t in
          t.subscriptionGroupID.flatMap { statuses[Self.key($0, t.owner)] }
        }
        if extended.failure == nil {
          batch.add("RENEWAL_EXTENDED", nil, transaction: t, status: status)
        } else {
          batch.add("RENEWAL_EXTENSION", "FAILURE", transaction: t, status: status)
        }
      case .renewalExtensionSummary(let summary):
        batch.add("RENEWAL_EXTENSION", "SUMMARY", transaction: nil, status: nil, summary: summary)
      case .notice(let notice): batch.add(notice)
      default: continue
      }
    }
    return batch.made
  }

  /// The status right after the batch's current event for `group`: the next status event of
  /// the group at the same instant, unless another of its transactions comes first; else the
  /// latest seen.
  private func statusAfter(
    group: String?, _ owner: Account = .purchaser, in batch: NotificationBatch
  ) -> SubscriptionStatus? {
    guard let group else { return nil }
    for later in batch.simultaneousLater {
      switch later.kind {
      case .status(let status) where status.groupID == group && status.owner == owner:
        return status
      case .transaction(let t, _) where t.subscriptionGroupID == group && t.owner == owner:
        return statuses[Self.key(group, owner)]
      default: continue
      }
    }
    return statuses[Self.key(group, owner)]
  }

  /// A transaction seen: refunded (`REFUND`, or `REVOKE` for what a member loses), its refund
  /// reversed, or newly purchased.
  private mutating func changed(_ t: Transaction, _ batch: inout NotificationBatch) {
    batch.seen[t.id] = t
    let key = t.subscriptionGroupID.map { Self.key($0, t.owner) }
    if let key, statuses[key]?.transactionID == t.id || currentTransactions[key]?.id == t.id {
      currentTransactions[key] = t
    }
    if t.revocationDate != nil && !revoked.contains(t.id) {
      revoked.insert(t.id)
      // A member who loses what the purchaser shared: REVOKE (Apple: "an in-app purchase the
      // customer was entitled to through Family Sharing is no longer available").
      batch.add(
        t.revocationType == .familyRevoke ? "REVOKE" : "REFUND", nil, transaction: t,
        status: statusAfter(group: t.subscriptionGroupID, t.owner, in: batch))
      return
    }
    if t.revocationDate == nil && revoked.contains(t.id) {
      revoked.remove(t.id)
      batch.add(
        "REFUND_REVERSED", nil, transaction: t,
        status: statusAfter(group: t.subscriptionGroupID, t.owner, in: batch))
      return
    }
    guard t.state == .purchased, !purchased.contains(t.id) else { return }
    purchased.insert(t.id)
    guard let group = t.subscriptionGroupID, let key else {
      batch.add("ONE_TIME_CHARGE", nil, transaction: t, status: nil)
      return
    }
    currentTransactions[key] = t
    let after = statusAfter(group: group, t.owner, in: batch)
    purchased(t, previous: statuses[key], after: after, &batch)
  }

  /// A subscription's new transaction: a renewal (or a billing recovery), an upgrade while
  /// subscribed, or a first purchase or resubscription.
  private func purchased(
    _ t: Transaction, previous: SubscriptionStatus?, after: SubscriptionStatus?,
    _ batch: inout NotificationBatch
  ) {
    if t.reason == .renewal {
      let recovering =
        previous.map { [.inGracePeriod, .inBillingRetryPeriod].contains($0.state) } ?? false
      batch.add(
        "DID_RENEW", recovering ? "BILLING_RECOVERY" : nil, transaction: t, status: after)
    } else if let previous,
      [.subscribed, .inGracePeriod, .inBillingRetryPeriod].contains(previous.state)
    {
      // A member redeems nothing: the purchaser did.
      let redeemed =
        t.owner.isPurchaser && t.offer.map { $0.type != .introductory } ?? false
      batch.add(
        redeemed ? "OFFER_REDEEMED" : "DID_CHANGE_RENEWAL_PREF", "UPGRADE", transaction: t,
        status: after)
    } else {
      // Apple's notificationType: OFFER_REDEEMED is for "a customer with an active
      // subscription"; a first purchase or a resubscription is SUBSCRIBED whatever offer it
      // redeemed (the transaction carries the offer).
      batch.add(
        "SUBSCRIBED", previous == nil ? "INITIAL_BUY" : "RESUBSCRIBE", transaction: t,
        status: after)
    }
  }

  /// A subscription's status seen: what changed since the last one (``statusChange(from:to:
  /// redeemed:)``), and an offer redeemed for the renewals to come.
  private mutating func changed(_ status: SubscriptionStatus, _ batch: inout NotificationBatch) {
    let key = Self.key(status.groupID, status.owner)
    let previous = statuses[key]
    statuses[key] = status
    let isMember = !status.owner.isPurchaser
    let queued = isMember ? [] : batch.customerView().queuedOffers(groupID: status.groupID)
    defer { if !isMember { queuedOffers[key] = queued } }
    guard let previous else { return }
    // A purchase that made no transaction but queued an offer redeemed it.
    let redeemed =
      !isMember && previous.transactionID == status.transactionID
      && !batch.redeemedIn.contains(status.groupID)
      && !Self.consumed(queuedOffers[key] ?? [], into: queued)
    if redeemed { batch.redeemedIn.insert(status.groupID) }
    let current =
      batch.seen[status.transactionID] ?? currentTransactions[key]
      ?? batch.transaction(status.transactionID)
    for (type, subtype) in Self.statusChange(from: previous, to: status, redeemed: redeemed) {
      batch.add(type, subtype, transaction: current, status: status)
    }
  }

  /// Whether renewals alone can turn queue `old` into `new`: they use up periods from the front,
  /// or drop the queue when the plan changes; anything else was redeemed.
  static func consumed(_ old: [QueuedOffer], into new: [QueuedOffer]) -> Bool {
    guard let first = new.first else { return true }
    return old.indices.contains { start in
      var rest = old[start...]
      guard var head = rest.popFirst(), head.offer == first.offer,
        head.productID == first.productID,
        head.periods >= first.periods
      else { return false }
      head.periods = first.periods
      return [head] + rest == new
    }
  }

  /// The notifications a status change causes, as (type, subtype).
  private static func statusChange(
    from previous: SubscriptionStatus, to status: SubscriptionStatus, redeemed: Bool
  ) -> [(String, String?)] {
    let old = previous.renewalInfo
    let new = status.renewalInfo
    if previous.state != status.state {
      switch (previous.state, status.state) {
      case (.subscribed, .inGracePeriod): return [("DID_FAIL_TO_RENEW", "GRACE_PERIOD")]
      case (.subscribed, .inBillingRetryPeriod): return [("DID_FAIL_TO_RENEW", nil)]
      case (.inGracePeriod, .inBillingRetryPeriod): return [("GRACE_PERIOD_EXPIRED", nil)]
      case (_, .expired):
        let subtype: String? =
          switch new.expirationReason {
          case .autoRenewDisabled?: "VOLUNTARY"
          case .billingError?: "BILLING_RETRY"
          case .didNotConsentToPriceIncrease?: "PRICE_INCREASE"
          case .productUnavailable?: "PRODUCT_NOT_FOR_SALE"
          default: nil
          }
        return [("EXPIRED", subtype)]
      default: return []
      }
    }
    var made: [(String, String?)] = []
    if old.willAutoRenew != new.willAutoRenew && status.state != .expired {
      made.append(
        (
          "DID_CHANGE_RENEWAL_STATUS",
          new.willAutoRenew ? "AUTO_RENEW_ENABLED" : "AUTO_RENEW_DISABLED"
        ))
    }
    let preferenceChanged =
      old.autoRenewPreference != new.autoRenewPreference
      && previous.transactionID == status.transactionID
    if preferenceChanged || redeemed {
      let reverted = new.autoRenewPreference == new.currentProductID
      made.append(
        (redeemed ? "OFFER_REDEEMED" : "DID_CHANGE_RENEWAL_PREF", reverted ? nil : "DOWNGRADE"))
    }
    if old.priceIncreaseStatus != new.priceIncreaseStatus {
      switch new.priceIncreaseStatus {
      case .pending: made.append(("PRICE_INCREASE", "PENDING"))
      case .agreed: made.append(("PRICE_INCREASE", "ACCEPTED"))
      case .noIncreasePending: break
      }
    }
    return made
  }
}
