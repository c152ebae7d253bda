import StoreDelivery
import StoreUtilities

/// Waits for the POSTs due by the session's end, says what became of each notification, and
/// counts those never delivered (a retry due after the run's end does not happen).
func reportDeliveries(_ outbox: NotificationOutbox) -> Int {
  outbox.drain()
  for line in outbox.takeLines() { printError("storekeeper: \(line.text)".sanitizedForTerminal) }
  var undelivered = 0
  for entry in outbox.undelivered {
    undelivered += 1
    let why =
      entry.nextAttempt.map {
        "its next retry is due at \($0.iso8601), after the script's end (advance to it, or "
          + "choose --notify-retries)"
      } ?? (entry.isDropped ? "it was dropped" : "no attempt reached the backend")
    printError(
      "storekeeper: notification \(entry.notification.name) not delivered: \(why)"
        .sanitizedForTerminal)
  }
  return undelivered
}
