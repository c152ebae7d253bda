import StoreSimulation

/// One call of ``NotificationMapper/notifications(for:in:)``: the events, which one is being
/// formatted, what the batch saw so far, and the notifications made.
struct NotificationBatch {
  let events: [StoreEvent]
  /// The session after the events.
  let session: Session
  /// What makes this session's notification UUIDs its own.
  let namespace: String
  /// The place of the first event in the session's history.
  let first: UInt64
  /// The event being formatted.
  private(set) var index = 0
  /// How many notifications the event being formatted made.
  private var count = 0
  /// The notifications, in order.
  private(set) var made: [ServerNotification] = []
  /// The latest snapshot of each transaction the batch saw.
  var seen: [UInt64: Transaction] = [:]
  /// The latest status of each account's group the batch saw.
  private var statuses: [Key: SubscriptionStatus] = [:]
  /// The session after the events as each account the events are about sees it.
  private var views: [Account: SessionView] = [:]

  private struct Key: Hashable {
    var group: String
    var owner: Account
  }

  init(events: [StoreEvent], session: Session, namespace: String) {
    self.events = events
    self.session = session
    self.namespace = namespace
    first = session.emittedEventCount - UInt64(events.count)
  }

  /// Formats the event at `index` next.
  mutating func begin(_ index: Int) {
    self.index = index
    count = 0
  }

  /// Keeps a status the batch went past.
  mutating func saw(_ status: SubscriptionStatus) {
    statuses[Key(group: status.groupID, owner: status.owner)] = status
  }

  /// The latest status of `owner`'s `group` at the current event: the last the batch saw,
  /// else the session's after the batch (no status event of the group went past, so it did
  /// not change before this event).
  mutating func status(_ group: String, _ owner: Account) -> SubscriptionStatus? {
    statuses[Key(group: group, owner: owner)] ?? view(of: owner).status(forGroup: group)
  }

  /// The status right after the current event for `group`: the next status event of the group
  /// at the same instant, unless another of its transactions comes first; else the latest.
  mutating func statusAfter(group: String?, _ owner: Account) -> SubscriptionStatus? {
    guard let group else { return nil }
    let time = events[index].time
    for later in events[(index + 1)...] {
      guard later.time == time else { break }
      switch later.kind {
      case .status(let status) where status.groupID == group && status.owner == owner:
        return status
      case .transaction(let t, _) where t.subscriptionGroupID == group && t.owner == owner:
        return self.status(group, owner)
      default: continue
      }
    }
    return status(group, owner)
  }

  /// A transaction as last seen in the batch, else as the session holds it for `owner` (the
  /// current event's customer when `nil`).
  mutating func transaction(_ id: UInt64, of owner: Account?) -> Transaction? {
    if let seen = seen[id] { return seen }
    return view(of: owner ?? Account(customer: events[index].customer ?? .own)).transaction(id)
  }

  /// The session after the events, as `account`'s device sees it.
  private mutating func view(of account: Account) -> SessionView {
    if account == Account(customer: session.customer) { return SessionView(session) }
    if let view = views[account] { return view }
    let view = session.view(of: account)
    views[account] = view
    return view
  }

  /// Adds the notifications `causes` about transaction `id` (a refund request or its decline),
  /// with its status right after.
  mutating func add(
    about id: UInt64, _ causes: NotificationCauses, reason: RefundRequestReason? = nil
  ) {
    guard !causes.isEmpty else { return }
    let t = transaction(id, of: nil)
    let owner = t?.owner ?? Account(customer: events[index].customer ?? .own)
    let status = statusAfter(group: t?.subscriptionGroupID, owner)
    for cause in causes { add(cause, transaction: t, status: status, reason: reason) }
  }

  /// Adds a notification about the current event, its UUID named by the event's place in the
  /// session's history (unique within a session, and after each step back) and by what it is
  /// about (apart from sessions that began alike).
  mutating func add(
    _ cause: NotificationCause, transaction: Transaction?, status: SubscriptionStatus?,
    reason: RefundRequestReason? = nil, summary: RenewalExtensionSummary? = nil,
    notice: StoreNotice? = nil, unclaimed: [String]? = nil
  ) {
    let event = events[index]
    let type = cause.type.rawValue
    let subtype = cause.subtype?.rawValue
    // A named customer's are named by their own history, so that a shard makes them alike.
    var place =
      event.customer.map { "customer \($0.number) \(event.customerPlace)" }
      ?? "\(first + UInt64(index))"
    // A step back rewinds the places: what the session causes again is notified anew.
    if session.stepBacks > 0 { place = "after \(session.stepBacks) step backs \(place)" }
    let name =
      "\(namespace)|\(place)|\(count)|\(type)|\(subtype ?? "")|"
      + "\(event.time.milliseconds)|\(transaction.map { "\($0.id) \($0.productID)" } ?? "")|"
      + (status.map { "\($0.groupID) \($0.state.rawValue)" } ?? "")
    count += 1
    var notification = ServerNotification(
      type: type, subtype: subtype, time: event.time, transaction: transaction,
      status: status, consumptionRequestReason: reason, summary: summary, notice: notice,
      uuid: nameBasedUUID(name), customer: event.customer ?? .own)
    notification.unclaimedSeatIDs = unclaimed
    made.append(notification)
  }
}
