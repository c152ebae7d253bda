import StoreSimulation

extension NotificationOutbox {
  /// Adds an attempt to an entry, and schedules its retry when it failed and the policy has one
  /// left. Called under `lock`.
  func record(_ index: Int, _ attempt: Attempt) {
    defer { forgetSettled() }
    entries[index].attempts.append(attempt)
    attemptCount += 1
    let entry = entries[index]
    let name = entry.notification.name
    let count = entry.attempts.count
    func say(_ text: String, failure: Bool) {
      lines.append(Line(time: attempt.date, text: text, isFailure: failure))
    }
    guard attempt.result != .success else {
      entries[index].nextAttempt = nil
      say(
        "notification \(name) → \(attempt.detail)" + (count > 1 ? " (attempt \(count))" : ""),
        failure: false)
      return
    }
    // A duplicate's twin, or an attempt after delivery, changes nothing.
    if entry.isDelivered || entry.nextAttempt != nil || inFlight.map({ $0.copies > 1 }) == true {
      say("notification \(name) → \(attempt.detail)", failure: false)
      return
    }
    if attempt.result == .tlsIssue {
      say(
        "notification \(name) failed: \(attempt.detail); not retried: a certificate does not "
          + "get better by asking again", failure: true)
      return
    }
    // Twins made at one moment are one attempt.
    let failures = Set(entry.attempts.map(\.date)).count
    guard let wait = policy.wait(afterFailure: failures) else {
      let retries = policy.waits.count
      say(
        "notification \(name) failed: \(attempt.detail); "
          + (retries == 0
            ? "no retry (the retry policy is none)"
            : "Apple gives up after \(retries) retr\(retries == 1 ? "y" : "ies")"),
        failure: true)
      return
    }
    let next = attempt.date.adding(milliseconds: wait)
    entries[index].nextAttempt = next
    schedule(index, at: next)
    say(
      "notification \(name) failed: \(attempt.detail); retry at \(next.iso8601) "
        + "(+\(Self.hours(wait)))", failure: true)
  }
}
