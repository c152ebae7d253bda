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
  /// `unclaimInfo.unclaimSeatIds` of an `UNCLAIM_SEATS`.
  public var unclaimedSeatIDs: [String]?
  /// `notificationUUID`: an RFC 4122 name-based (version 5) UUID of the session, the event's
  /// place in its history and the notification's place among the event's, so that it is
  /// unique, and the same on every replay.
  public var uuid: String
  /// The customer it is about.
  public var customer: Customer

  /// A notification of `type` (and `subtype`) at `time`, with what it carries.
  public init(
    type: String, subtype: String?, time: Instant, transaction: Transaction? = nil,
    status: SubscriptionStatus? = nil, consumptionRequestReason: RefundRequestReason? = nil,
    summary: RenewalExtensionSummary? = nil, notice: StoreNotice? = nil, uuid: String,
    customer: Customer = .own
  ) {
    self.type = type
    self.subtype = subtype
    self.time = time
    self.transaction = transaction
    self.status = status
    self.consumptionRequestReason = consumptionRequestReason
    self.summary = summary
    self.notice = notice
    self.uuid = uuid
    self.customer = customer
  }

  /// The transaction's id.
  public var transactionID: UInt64? { transaction?.id }
  /// Whose transaction or subscription it is about: a family member's, or the customer's
  /// (also for a notification about no purchase).
  public var owner: Account { transaction?.owner ?? status?.owner ?? Account(customer: customer) }

  /// The subscription group's id.
  public var groupID: String? { status?.groupID ?? transaction?.subscriptionGroupID }

  /// A `TEST` notification ("Request a Test Notification"), which carries only app data.
  public static func test(at time: Instant, uuid: String) -> ServerNotification {
    ServerNotification(type: "TEST", subtype: nil, time: time, uuid: uuid)
  }

  /// `SUBSCRIBED-INITIAL_BUY`.
  public var name: String { subtype.map { "\(type)-\($0)" } ?? type }
}
