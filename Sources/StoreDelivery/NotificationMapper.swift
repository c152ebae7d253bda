import StoreSimulation

/// Formats the notifications the engine decided: each event says which ones it causes
/// (``StoreEvent/notifications``), and this gives each the transaction and status it carries
/// and its UUID. It keeps nothing between calls: what came before is the engine's to know, so
/// a step back (`back`, `undo`) cannot leave a record of its own behind.
public struct NotificationMapper: Sendable {
  /// What makes this session's notification UUIDs its own: the signer's bundle id and
  /// environment and the session's identity.
  private let namespace: String

  /// A mapper whose UUIDs `namespace` keeps apart from other sessions', apps' and
  /// environments' (see ``Signer/notificationNamespace(session:)``).
  public init(namespace: String = "") {
    self.namespace = namespace
  }

  /// The notifications that `events` cause. `events` are the latest the session emitted, all
  /// of them and in order; `session` is the state after them. Each notification carries the
  /// transaction and status as they were right after its event.
  public func notifications(
    for events: [StoreEvent], in session: Session
  ) -> [ServerNotification] {
    var batch = NotificationBatch(events: events, session: session, namespace: namespace)
    for index in events.indices {
      batch.begin(index)
      let event = events[index]
      switch event.kind {
      case .transaction(let t, _):
        batch.seen[t.id] = t
        guard !event.notifications.isEmpty else { continue }
        let status = batch.statusAfter(group: t.subscriptionGroupID, t.owner)
        for cause in event.notifications { batch.add(cause, transaction: t, status: status) }
      case .status(let status):
        batch.saw(status)
        guard !event.notifications.isEmpty else { continue }
        let current = batch.transaction(status.transactionID, of: status.owner)
        for cause in event.notifications {
          batch.add(cause, transaction: current, status: status)
        }
      case .refundRequested(let id, let reason):
        batch.add(about: id, event.notifications, reason: reason)
      case .refundDeclined(let id):
        batch.add(about: id, event.notifications)
      case .renewalExtension(let extended):
        let t = batch.transaction(extended.transactionID, of: nil)
        let status = t.flatMap { t in t.subscriptionGroupID.flatMap { batch.status($0, t.owner) } }
        for cause in event.notifications { batch.add(cause, transaction: t, status: status) }
      case .renewalExtensionSummary(let summary):
        for cause in event.notifications {
          batch.add(cause, transaction: nil, status: nil, summary: summary)
        }
      case .notice(let notice):
        for cause in event.notifications {
          batch.add(cause, transaction: nil, status: nil, notice: notice)
        }
      case .seatsUnclaimed(let unclaimed):
        let t = batch.transaction(unclaimed.transactionID, of: nil)
        let status = batch.statusAfter(group: t?.subscriptionGroupID, t?.owner ?? .purchaser)
        for cause in event.notifications {
          batch.add(cause, transaction: t, status: status, unclaimed: unclaimed.claimIDs)
        }
      // Events that cause no notification.
      case .message, .paymentQueue, .purchaseResult, .transactionRemoved, .revokedEntitlements,
        .restoreCompleted, .apiCall, .consumptionReported, .receipt, .family, .retention:
        continue
      }
    }
    return batch.made
  }
}
