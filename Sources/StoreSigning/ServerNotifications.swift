import Crypto
import Foundation
import StoreConfiguration
import StoreSimulation

/// An App Store Server Notification V2, before signing: what it says and the state it carries,
/// as of the event that caused it.
public struct ServerNotification: Equatable, Sendable {
  /// `notificationType`: `SUBSCRIBED`, `DID_RENEW` …
  public var type: String
  /// `subtype`, when there is one: `INITIAL_BUY`, `GRACE_PERIOD` …
  public var subtype: String?
  /// When it happened (its `signedDate`).
  public var time: Instant
  /// The transaction it carries (`signedTransactionInfo`), as it was right after the event.
  public var transaction: Transaction?
  /// The subscription's status and renewal info (`status`, `signedRenewalInfo`), as they were
  /// right after the event.
  public var status: SubscriptionStatus?
  /// `data.consumptionRequestReason` of a `CONSUMPTION_REQUEST`.
  public var consumptionRequestReason: RefundRequestReason?
  /// The `summary` of a `RENEWAL_EXTENSION` `SUMMARY` (which has no `data`).
  public var summary: RenewalExtensionSummary?
  /// What a notification with no purchase behind it carries instead of `data`: `appData` for
  /// `RESCIND_CONSENT`, `externalPurchaseToken` for `EXTERNAL_PURCHASE_TOKEN`.
  public var notice: StoreNotice?
  /// `notificationUUID`: an RFC 4122 name-based (version 5) UUID of the session, the event's
  /// place in its history and the notification's place among the event's, so that it is
  /// unique, and the same on every replay.
  public var uuid: String

  /// The transaction's id.
  public var transactionID: UInt64? { transaction?.id }
  /// Whose transaction or subscription it is about: a family member's, or the purchaser's
  /// (also for a notification about no purchase).
  public var owner: Account { transaction?.owner ?? status?.owner ?? .purchaser }

  /// Whether a view of one family member's device (`--member`, `?member=`) shows it: every
  /// notification without one, those about that member's transactions with one.
  public func isShown(toMemberNamed member: String?) -> Bool {
    member == nil || owner.member?.name == member
  }
  /// The subscription group's id.
  public var groupID: String? { status?.groupID ?? transaction?.subscriptionGroupID }

  /// A `TEST` notification ("Request a Test Notification"), which carries only app data.
  public static func test(at time: Instant, uuid: String) -> ServerNotification {
    ServerNotification(type: "TEST", subtype: nil, time: time, uuid: uuid)
  }

  /// `SUBSCRIBED-INITIAL_BUY`.
  public var name: String { subtype.map { "\(type)-\($0)" } ?? type }
}

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
    for account in [.purchaser] + session.everyFamilyMember.map(Account.member) {
      let view = session.view(of: account)
      for status in view.subscriptionStatuses() {
        let key = Self.key(status.groupID, account)
        statuses[key] = status
        currentTransactions[key] = view.transaction(status.transactionID)
        if account == .purchaser {
          queuedOffers[key] = session.queuedOffers(groupID: status.groupID)
        }
      }
      view.forEachTransaction { transaction in
        if transaction.state == .purchased { purchased.insert(transaction.id) }
        if transaction.revocationDate != nil { revoked.insert(transaction.id) }
      }
    }
  }

  /// The key of an account's group: the group's id for the purchaser, with the member's name
  /// for a member.
  static func key(_ groupID: String, _ account: Account) -> String {
    account == .purchaser ? groupID : "\(groupID)\u{0}\(account.name)"
  }

  /// The notifications that `events` cause. `events` are the latest the session emitted, all
  /// of them and in order; `session` is the state after them, which tells an offer redeemed
  /// for the renewals to come from a plain change of plan. Each notification carries the
  /// transaction and status as they were right after its event.
  public mutating func notifications(
    for events: [StoreEvent], in session: Session
  ) -> [ServerNotification] {
    var result: [ServerNotification] = []
    var redeemedIn = Set<String>()
    /// The latest snapshot of each transaction seen in this batch.
    var seen: [UInt64: Transaction] = [:]
    let first = session.emittedEventCount - UInt64(events.count)
    for (index, event) in events.enumerated() {
      var made = 0
      func add(
        _ type: String, _ subtype: String?, transaction: Transaction?,
        status: SubscriptionStatus?, reason: RefundRequestReason? = nil,
        summary: RenewalExtensionSummary? = nil, notice: StoreNotice? = nil
      ) {
        // The event's place in the session's history makes the name unique within a session;
        // what the notification is about keeps apart sessions that began alike.
        let name =
          "\(namespace)|\(first + UInt64(index))|\(made)|\(type)|\(subtype ?? "")|"
          + "\(event.time.milliseconds)|\(transaction.map { "\($0.id) \($0.productID)" } ?? "")|"
          + (status.map { "\($0.groupID) \($0.state.rawValue)" } ?? "")
        made += 1
        result.append(
          ServerNotification(
            type: type, subtype: subtype, time: event.time, transaction: transaction,
            status: status, consumptionRequestReason: reason, summary: summary, notice: notice,
            uuid: nameBasedUUID(name)))
      }
      /// The status right after event `index` for `group`: the next status event of the
      /// group at the same instant, unless another of its transactions comes first; else the
      /// latest seen.
      func statusAfter(group: String?, _ owner: Account = .purchaser) -> SubscriptionStatus? {
        guard let group else { return nil }
        for later in events[(index + 1)...] {
          guard later.time == event.time else { break }
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
      func transaction(_ id: UInt64) -> Transaction? { seen[id] ?? session.transaction(id) }

      switch event.kind {
      case .transaction(let t, _):
        seen[t.id] = t
        let key = t.subscriptionGroupID.map { Self.key($0, t.owner) }
        if let key,
          statuses[key]?.transactionID == t.id
            || currentTransactions[key]?.id == t.id
        {
          currentTransactions[key] = t
        }
        if t.revocationDate != nil && !revoked.contains(t.id) {
          revoked.insert(t.id)
          // A member who loses what the purchaser shared: REVOKE (Apple: "an in-app purchase
          // the customer was entitled to through Family Sharing is no longer available").
          add(
            t.revocationType == .familyRevoke ? "REVOKE" : "REFUND", nil, transaction: t,
            status: statusAfter(group: t.subscriptionGroupID, t.owner))
          continue
        }
        if t.revocationDate == nil && revoked.contains(t.id) {
          revoked.remove(t.id)
          add(
            "REFUND_REVERSED", nil, transaction: t,
            status: statusAfter(group: t.subscriptionGroupID))
          continue
        }
        guard t.state == .purchased, !purchased.contains(t.id) else { continue }
        purchased.insert(t.id)
        guard let group = t.subscriptionGroupID, let key else {
          add("ONE_TIME_CHARGE", nil, transaction: t, status: nil)
          continue
        }
        currentTransactions[key] = t
        let previous = statuses[key]
        let after = statusAfter(group: group, t.owner)
        // A member redeems nothing: the purchaser did.
        let isMember = t.owner != .purchaser
        if t.reason == .renewal {
          let recovering =
            previous.map { [.inGracePeriod, .inBillingRetryPeriod].contains($0.state) } ?? false
          add(
            "DID_RENEW", recovering ? "BILLING_RECOVERY" : nil, transaction: t, status: after)
        } else if let previous,
          [.subscribed, .inGracePeriod, .inBillingRetryPeriod].contains(previous.state)
        {
          let redeemed = !isMember && t.offer.map { $0.type != .introductory } ?? false
          add(
            redeemed ? "OFFER_REDEEMED" : "DID_CHANGE_RENEWAL_PREF", "UPGRADE", transaction: t,
            status: after)
        } else {
          // Apple's notificationType: OFFER_REDEEMED is for "a customer with an active
          // subscription"; a first purchase or a resubscription is SUBSCRIBED whatever offer it
          // redeemed (the transaction carries the offer).
          add(
            "SUBSCRIBED", previous == nil ? "INITIAL_BUY" : "RESUBSCRIBE", transaction: t,
            status: after)
        }
      case .status(let status):
        let key = Self.key(status.groupID, status.owner)
        let previous = statuses[key]
        statuses[key] = status
        let isMember = status.owner != .purchaser
        let queued = isMember ? [] : session.queuedOffers(groupID: status.groupID)
        defer { if !isMember { queuedOffers[key] = queued } }
        guard let previous else { continue }
        // A purchase that made no transaction but queued an offer redeemed it.
        let redeemed =
          !isMember && previous.transactionID == status.transactionID
          && !redeemedIn.contains(status.groupID)
          && !Self.consumed(queuedOffers[key] ?? [], into: queued)
        if redeemed { redeemedIn.insert(status.groupID) }
        let current =
          seen[status.transactionID] ?? currentTransactions[key]
          ?? session.transaction(status.transactionID)
        for (type, subtype) in Self.statusChange(from: previous, to: status, redeemed: redeemed) {
          add(type, subtype, transaction: current, status: status)
        }
      case .refundRequested(let id, let reason):
        let t = transaction(id)
        add(
          "CONSUMPTION_REQUEST", nil, transaction: t,
          status: statusAfter(group: t?.subscriptionGroupID), reason: reason)
      case .refundDeclined(let id):
        let t = transaction(id)
        add(
          "REFUND_DECLINED", nil, transaction: t,
          status: statusAfter(group: t?.subscriptionGroupID))
      case .renewalExtension(let extended):
        let t = transaction(extended.transactionID)
        let group = t?.subscriptionGroupID
        if extended.failure == nil {
          add("RENEWAL_EXTENDED", nil, transaction: t, status: group.flatMap { statuses[$0] })
        } else {
          add(
            "RENEWAL_EXTENSION", "FAILURE", transaction: t, status: group.flatMap { statuses[$0] })
        }
      case .renewalExtensionSummary(let summary):
        add("RENEWAL_EXTENSION", "SUMMARY", transaction: nil, status: nil, summary: summary)
      case .notice(let notice):
        switch notice {
        case .consentRescinded:
          add("RESCIND_CONSENT", nil, transaction: nil, status: nil, notice: notice)
        case .externalPurchaseToken(let token):
          add(
            "EXTERNAL_PURCHASE_TOKEN", token.reason.rawValue, transaction: nil, status: nil,
            notice: notice)
        }
      default:
        continue
      }
    }
    return result
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

/// An RFC 4122 name-based UUID (version 5: SHA-1 of a namespace UUID and the name), lowercase.
public func nameBasedUUID(_ name: String) -> String {
  // Storekeeper's namespace, a fixed random UUID: 5f1d8b0e-7c2a-4e59-9b6d-3a0c4e2f8d17.
  let namespace: [UInt8] = [
    0x5F, 0x1D, 0x8B, 0x0E, 0x7C, 0x2A, 0x4E, 0x59, 0x9B, 0x6D, 0x3A, 0x0C, 0x4E, 0x2F, 0x8D, 0x17,
  ]
  var bytes = Array(Insecure.SHA1.hash(data: Data(namespace + Array(name.utf8))).prefix(16))
  bytes[6] = (bytes[6] & 0x0F) | 0x50
  bytes[8] = (bytes[8] & 0x3F) | 0x80
  return uuidText(bytes)
}

/// Sixteen bytes in the 8-4-4-4-12 form.
func uuidText(_ bytes: [UInt8]) -> String {
  let hex = bytes.map { byte in
    let text = String(byte, radix: 16)
    return text.count == 1 ? "0" + text : text
  }.joined()
  let parts = [
    hex.prefix(8), hex.dropFirst(8).prefix(4), hex.dropFirst(12).prefix(4),
    hex.dropFirst(16).prefix(4), hex.dropFirst(20),
  ]
  return parts.joined(separator: "-")
}
