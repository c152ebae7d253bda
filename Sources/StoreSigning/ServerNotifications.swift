import StoreConfiguration
import StoreSimulation

/// An App Store Server Notification V2, before signing.
public struct ServerNotification: Equatable, Sendable {
  /// `notificationType`: `SUBSCRIBED`, `DID_RENEW` …
  public var type: String
  /// `subtype`, when there is one: `INITIAL_BUY`, `GRACE_PERIOD` …
  public var subtype: String?
  /// When it happened (its `signedDate`).
  public var time: Instant
  /// The transaction it is about.
  public var transactionID: UInt64?
  /// The subscription group, for subscriptions.
  public var groupID: String?
  /// `notificationUUID`, derived from the event so the same session gives the same ids.
  public var uuid: String

  /// `SUBSCRIBED-INITIAL_BUY`.
  public var name: String { subtype.map { "\(type)-\($0)" } ?? type }
}

/// Turns the engine's events into the notifications the App Store would send, following the
/// spec's event table. Keeps what it needs to tell an initial buy from a resubscription, a
/// renewal from a billing recovery, an upgrade from a downgrade.
public struct NotificationMapper: Sendable {
  private var statuses: [String: SubscriptionStatus] = [:]
  private var purchased = Set<UInt64>()
  private var revoked = Set<UInt64>()
  /// Per group, the offers queued for the renewals to come.
  private var queuedOffers: [String: [QueuedOffer]] = [:]
  /// Where the session stood when the mapper began, and how many notifications it made since:
  /// with the event, the seed of each `notificationUUID`, unique and the same on every replay.
  private var origin = "0"
  private var sequence = 0

  /// A mapper that has seen nothing; `session` gives the state it starts from.
  public init(session: Session? = nil) {
    guard let session else { return }
    var transactions = 0
    session.forEachTransaction { _ in transactions += 1 }
    origin = "\(session.now.milliseconds)-\(transactions)"
    for status in session.subscriptionStatuses() {
      statuses[status.groupID] = status
      queuedOffers[status.groupID] = session.queuedOffers(groupID: status.groupID)
    }
    session.forEachTransaction { transaction in
      if transaction.state == .purchased { purchased.insert(transaction.id) }
      if transaction.revocationDate != nil { revoked.insert(transaction.id) }
    }
  }

  /// The notifications that `events`, in order, cause; `session` is the state after them, which
  /// tells an offer redeemed for the renewals to come (an offer code, a promotional offer on a
  /// downgrade) from a plain change of plan.
  public mutating func notifications(
    for events: [StoreEvent], in session: Session
  )
    -> [ServerNotification]
  {
    var result: [ServerNotification] = []
    var redeemedIn = Set<String>()
    func add(
      _ type: String, _ subtype: String?, _ event: StoreEvent, transaction: UInt64?, group: String?
    ) {
      let seed =
        "\(type)|\(subtype ?? "")|\(event.time.milliseconds)|\(transaction ?? 0)|\(group ?? "")|\(result.count)"
      result.append(
        ServerNotification(
          type: type, subtype: subtype, time: event.time, transactionID: transaction,
          groupID: group,
          uuid: stableUUID(seed)))
    }
    for event in events {
      switch event.kind {
      case .transaction(let t, _):
        if t.revocationDate != nil && !revoked.contains(t.id) {
          revoked.insert(t.id)
          add("REFUND", nil, event, transaction: t.id, group: t.subscriptionGroupID)
          continue
        }
        guard t.state == .purchased, !purchased.contains(t.id) else { continue }
        purchased.insert(t.id)
        guard let group = t.subscriptionGroupID else {
          add("ONE_TIME_CHARGE", nil, event, transaction: t.id, group: nil)
          continue
        }
        let previous = statuses[group]
        if t.reason == .renewal {
          let recovering =
            previous.map { [.inGracePeriod, .inBillingRetryPeriod].contains($0.state) } ?? false
          add(
            "DID_RENEW", recovering ? "BILLING_RECOVERY" : nil, event, transaction: t.id,
            group: group)
        } else if let previous,
          [.subscribed, .inGracePeriod, .inBillingRetryPeriod].contains(previous.state)
        {
          let redeemed = t.offer.map { $0.type != .introductory } ?? false
          add(
            redeemed ? "OFFER_REDEEMED" : "DID_CHANGE_RENEWAL_PREF", "UPGRADE", event,
            transaction: t.id, group: group)
        } else {
          add(
            "SUBSCRIBED", previous == nil ? "INITIAL_BUY" : "RESUBSCRIBE", event, transaction: t.id,
            group: group)
        }
      case .status(let status):
        let previous = statuses[status.groupID]
        statuses[status.groupID] = status
        let queued = session.queuedOffers(groupID: status.groupID)
        defer { queuedOffers[status.groupID] = queued }
        guard let previous else { continue }
        // A purchase that made no transaction but queued an offer redeemed it.
        let redeemed =
          previous.transactionID == status.transactionID && !redeemedIn.contains(status.groupID)
          && !Self.consumed(queuedOffers[status.groupID] ?? [], into: queued)
        if redeemed { redeemedIn.insert(status.groupID) }
        statusChange(from: previous, to: status, redeemed: redeemed, event, add)
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

  private func statusChange(
    from previous: SubscriptionStatus, to status: SubscriptionStatus, redeemed: Bool,
    _ event: StoreEvent,
    _ add: (String, String?, StoreEvent, UInt64?, String?) -> Void
  ) {
    let id = status.transactionID
    let group = status.groupID
    let old = previous.renewalInfo
    let new = status.renewalInfo
    if previous.state != status.state {
      switch (previous.state, status.state) {
      case (.subscribed, .inGracePeriod): add("DID_FAIL_TO_RENEW", "GRACE_PERIOD", event, id, group)
      case (.subscribed, .inBillingRetryPeriod): add("DID_FAIL_TO_RENEW", nil, event, id, group)
      case (.inGracePeriod, .inBillingRetryPeriod):
        add("GRACE_PERIOD_EXPIRED", nil, event, id, group)
      case (_, .expired):
        let subtype: String? =
          switch new.expirationReason {
          case .autoRenewDisabled?: "VOLUNTARY"
          case .billingError?: "BILLING_RETRY"
          case .didNotConsentToPriceIncrease?: "PRICE_INCREASE"
          case .productUnavailable?: "PRODUCT_NOT_FOR_SALE"
          default: nil
          }
        add("EXPIRED", subtype, event, id, group)
      default: break
      }
      return
    }
    if old.willAutoRenew != new.willAutoRenew && status.state != .expired {
      add(
        "DID_CHANGE_RENEWAL_STATUS",
        new.willAutoRenew ? "AUTO_RENEW_ENABLED" : "AUTO_RENEW_DISABLED", event, id, group)
    }
    let preferenceChanged =
      old.autoRenewPreference != new.autoRenewPreference && previous.transactionID == id
    if preferenceChanged || redeemed {
      let reverted = new.autoRenewPreference == new.currentProductID
      add(
        redeemed ? "OFFER_REDEEMED" : "DID_CHANGE_RENEWAL_PREF", reverted ? nil : "DOWNGRADE",
        event, id, group)
    }
    if old.priceIncreaseStatus != new.priceIncreaseStatus {
      switch new.priceIncreaseStatus {
      case .pending: add("PRICE_INCREASE", "PENDING", event, id, group)
      case .agreed: add("PRICE_INCREASE", "ACCEPTED", event, id, group)
      case .noIncreasePending: break
      }
    }
  }
}

extension Signer {
  /// The notification as the App Store POSTs it: `{"signedPayload": "<JWS>"}`, the JWS holding a
  /// `ResponseBodyV2DecodedPayload` with the signed transaction and renewal info.
  public func signedBody(_ notification: ServerNotification, session: Session) throws -> String {
    var data = JSONObject()
    data["environment"] = .string(environment.rawValue)
    data["bundleId"] = .string(bundleID)
    data["bundleVersion"] = .string("1")
    if let id = notification.transactionID, let transaction = session.transaction(id) {
      data["signedTransactionInfo"] = .string(try sign(transaction, signedDate: notification.time))
    }
    if let group = notification.groupID, let status = session.status(forGroup: group) {
      data["signedRenewalInfo"] = .string(try sign(status, signedDate: notification.time))
      let code: Int =
        switch status.state {
        case .subscribed: 1
        case .expired: 2
        case .inBillingRetryPeriod: 3
        case .inGracePeriod: 4
        case .revoked: 5
        }
      data["status"] = .number(JSONNumber(code))
    }
    var payload = JSONObject()
    payload["notificationType"] = .string(notification.type)
    if let subtype = notification.subtype { payload["subtype"] = .string(subtype) }
    payload["notificationUUID"] = .string(notification.uuid)
    payload["data"] = .object(data)
    payload["version"] = .string("2.0")
    payload["signedDate"] = .number(JSONNumber(text: String(notification.time.milliseconds)))
    let jws = try sign(payload: .object(payload))
    return JSONWriter.compact(.object(JSONObject([JSONMember("signedPayload", .string(jws))])))
  }

  /// A `TEST` notification.
  public func testBody(at time: Instant) throws -> String {
    let notification = ServerNotification(
      type: "TEST", subtype: nil, time: time, transactionID: nil, groupID: nil,
      uuid: stableUUID("TEST|\(time.milliseconds)"))
    var payload = JSONObject()
    payload["notificationType"] = .string(notification.type)
    payload["notificationUUID"] = .string(notification.uuid)
    payload["data"] = .object(
      JSONObject([
        JSONMember("environment", .string(environment.rawValue)),
        JSONMember("bundleId", .string(bundleID)),
      ]))
    payload["version"] = .string("2.0")
    payload["signedDate"] = .number(JSONNumber(text: String(time.milliseconds)))
    let jws = try sign(payload: .object(payload))
    return JSONWriter.compact(.object(JSONObject([JSONMember("signedPayload", .string(jws))])))
  }
}
