import StoreSimulation

/// One call of ``NotificationMapper/notifications(for:in:)``: the events, which one is being
/// mapped, and the notifications made so far.
struct NotificationBatch {
  let events: [StoreEvent]
  /// The session after the events.
  let session: Session
  /// What makes this session's notification UUIDs its own.
  let namespace: String
  /// The place of the first event in the session's history.
  let first: UInt64
  /// The event being mapped.
  private(set) var index = 0
  /// How many notifications the event being mapped made.
  private var count = 0
  /// The notifications, in order.
  private(set) var made: [ServerNotification] = []
  /// The groups whose queued offer this batch already told as redeemed.
  var redeemedIn = Set<String>()
  /// The latest snapshot of each transaction the batch saw.
  var seen: [UInt64: Transaction] = [:]
  /// The session as each named customer the events are about sees it.
  private var customerViews: [Customer: SessionView] = [:]

  init(events: [StoreEvent], session: Session, namespace: String) {
    self.events = events
    self.session = session
    self.namespace = namespace
    first = session.emittedEventCount - UInt64(events.count)
  }

  /// Maps the event at `index` next.
  mutating func begin(_ index: Int) {
    self.index = index
    count = 0
  }

  /// The events after the current one at the same instant, looked at only as far as the
  /// reader goes (most stop at the next event).
  var simultaneousLater: LazyPrefixWhileSequence<ArraySlice<StoreEvent>> {
    let time = events[index].time
    return events[(index + 1)...].lazy.prefix { $0.time == time }
  }

  /// A transaction as last seen in the batch, else as the session holds it for the current
  /// event's customer.
  mutating func transaction(_ id: UInt64) -> Transaction? {
    seen[id] ?? customerView().transaction(id)
  }

  /// The session after the events, as the current event's customer sees it.
  mutating func customerView() -> SessionView {
    let customer = events[index].customer ?? .own
    if customer == session.customer { return SessionView(session) }
    if let view = customerViews[customer] { return view }
    let view = session.view(of: Account(customer: customer))
    customerViews[customer] = view
    return view
  }

  /// Adds a notification about the current event, its UUID named by the event's place in the
  /// session's history (unique within a session) and by what it is about (apart from sessions
  /// that began alike).
  mutating func add(
    _ type: String, _ subtype: String?, transaction: Transaction?, status: SubscriptionStatus?,
    reason: RefundRequestReason? = nil, summary: RenewalExtensionSummary? = nil,
    notice: StoreNotice? = nil
  ) {
    let event = events[index]
    // A named customer's are named by their own history, so that a shard makes them alike.
    let place =
      event.customer.map { "customer \($0.number) \(event.customerPlace)" }
      ?? "\(first + UInt64(index))"
    let name =
      "\(namespace)|\(place)|\(count)|\(type)|\(subtype ?? "")|"
      + "\(event.time.milliseconds)|\(transaction.map { "\($0.id) \($0.productID)" } ?? "")|"
      + (status.map { "\($0.groupID) \($0.state.rawValue)" } ?? "")
    count += 1
    made.append(
      ServerNotification(
        type: type, subtype: subtype, time: event.time, transaction: transaction,
        status: status, consumptionRequestReason: reason, summary: summary, notice: notice,
        uuid: nameBasedUUID(name), customer: event.customer ?? .own))
  }

  /// Adds the notification a notice causes: `RESCIND_CONSENT`, or `EXTERNAL_PURCHASE_TOKEN`
  /// with the token's reason as subtype.
  mutating func add(_ notice: StoreNotice) {
    switch notice {
    case .consentRescinded:
      add("RESCIND_CONSENT", nil, transaction: nil, status: nil, notice: notice)
    case .externalPurchaseToken(let token):
      add(
        "EXTERNAL_PURCHASE_TOKEN", token.reason.rawValue, transaction: nil, status: nil,
        notice: notice)
    }
  }
}
