import StoreSigning
import StoreSimulation
import StoreUtilities

/// How a notification's payload is signed (the signer's, or a test's that fails).
typealias NotificationSigning = @Sendable (ServerNotification) throws -> String

/// Below this many notifications, signing stays on the caller's thread.
let parallelSigningThreshold = 64

/// Signs notifications on every core, each result in its notification's place (the order of
/// delivery is the order given), with why one could not be signed. A few are signed on the
/// caller's thread: a command's one or two notifications are not worth a hand-off.
func signedPayloads(
  _ notifications: [ServerNotification], with signing: NotificationSigning
) -> [Result<String, any Error>] {
  let count = notifications.count
  let chunk = parallelSigningThreshold
  guard count >= chunk else {
    return notifications.map { notification in Result { try signing(notification) } }
  }
  let pieces = [[Result<String, any Error>]](concurrentlyMaking: (count + chunk - 1) / chunk) {
    index in
    (index * chunk..<Swift.min(count, (index + 1) * chunk)).map { position in
      Result { try signing(notifications[position]) }
    }
  }
  return pieces.flatMap { $0 }
}

extension NotificationSender.Sent {
  /// A notification signed (or not) handed to the outbox: written, kept and POSTed; one that
  /// could not be signed reaches no outbox and says why (its listeners count it and tell).
  static func handOver(
    _ notification: ServerNotification, _ signed: Result<String, any Error>,
    to outbox: NotificationOutbox, now: Instant
  ) -> Self {
    switch signed {
    case .success(let payload):
      let added = outbox.add(notification, signedPayload: payload, now: now)
      return Self(
        notification: notification, file: added.file, error: added.error, entry: added.index)
    case .failure(let error):
      return Self(
        notification: notification, file: nil,
        error: DeliveryError("notification \(notification.name) could not be signed: \(error)"),
        entry: nil)
    }
  }
}
