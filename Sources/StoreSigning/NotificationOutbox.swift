import Foundation
import StoreSimulation

/// What a served session sent its backend: every notification, signed, with each attempt to
/// POST it, retried on Apple's schedule for V2 notifications in simulated time, and the faults a
/// test injects (`set notify-fault`). "Get Notification History" and "Get Test Notification
/// Status" answer from it.
///
/// Used from one thread (the server's loop) except for the answers of POSTs, which arrive on the
/// HTTP client's threads and are handed over under `lock`; hence `@unchecked Sendable`.
public final class NotificationOutbox: @unchecked Sendable {
  /// A fault real delivery does to a backend, injected into every attempt while it is set.
  public enum Fault: Equatable, Sendable, CustomStringConvertible {
    /// Attempts go out as they are.
    case off
    /// Each attempt is lost on the way: it times out without reaching the backend.
    case drop
    /// Each attempt reaches the backend twice (the same `notificationUUID`).
    case duplicate
    /// Each notification's first attempt waits this long (simulated milliseconds).
    case delay(Int64)

    /// How the log says it: `off`, `drop`, `duplicate`, `delay 30000 ms`.
    public var description: String {
      switch self {
      case .off: "off"
      case .drop: "drop"
      case .duplicate: "duplicate"
      case .delay(let milliseconds): "delay \(milliseconds) ms"
      }
    }
  }

  /// One attempt to POST a notification.
  public struct Attempt: Equatable, Sendable {
    /// When it was made (simulated time).
    public var date: Instant
    /// How it ended, in Apple's words.
    public var result: SendAttemptResult
    /// How it ended, for a person: `HTTP 200`, `no connection (connection refused)` …
    public var detail: String
  }

  /// A notification and what became of it.
  public struct Entry: Sendable {
    /// The notification.
    public let notification: ServerNotification
    /// Its signed payload (the JWS the body carries).
    public let signedPayload: String
    /// The body POSTed.
    let body: String
    /// The attempts so far, oldest first.
    public internal(set) var attempts: [Attempt] = []
    /// When the next attempt is due; `nil` when none is (delivered, given up, or in flight).
    public internal(set) var nextAttempt: Instant?
    /// The file it was written to, if a folder was given.
    public let file: String?

    /// Whether an attempt reached the backend.
    public var isDelivered: Bool { attempts.contains { $0.result == .success } }
  }

  /// Apple's retry schedule for V2 notifications: after a failed attempt, the next comes these
  /// many hours after it; after the fifth retry the App Store gives up ("Responding to App
  /// Store Server Notifications").
  public static let retryHours: [Int64] = [1, 12, 24, 48, 72]

  /// Every notification made, oldest first.
  public private(set) var entries: [Entry] = []
  /// The fault in force.
  public var fault: Fault = .off
  private let webhook: Webhook?
  private let files: NotificationDelivery?
  private let lock = NSLock()
  /// Answers that came back: the entry, when the attempt was made, and the answer.
  private var answered: [(entry: Int, date: Instant, answer: Webhook.Answer)] = []
  /// POSTs sent and not yet answered.
  private var inFlight = 0
  /// Entries with an attempt due (not in flight), oldest first.
  private var due: [Int] = []

  /// An outbox POSTing to `url` (if given) and writing files to `directory` (if given).
  ///
  /// - Parameters:
  ///   - timeout: how long one attempt may wait for the backend's answer.
  ///   - caFile: a PEM file of CA certificates trusted besides the system's.
  /// - Throws: ``SigningError`` as ``NotificationDelivery`` does.
  public init(
    url: String?, directory: String?, timeout: Double = 10, trusting caFile: String? = nil
  ) throws(SigningError) {
    webhook = try url.map { (url) throws(SigningError) in
      try Webhook(url: try WebhookURL(url).text, timeout: timeout, trusting: caFile)
    }
    files = try directory.map { (directory) throws(SigningError) in
      try NotificationDelivery(directory: directory, url: nil)
    }
  }

  deinit { webhook?.shutdown() }

  /// Whether notifications go anywhere (a URL or a folder): "Request a Test Notification"
  /// needs one, as Apple's needs a server URL.
  public var hasDestination: Bool { webhook != nil || files != nil }

  /// Whether notifications are POSTed.
  public var posts: Bool { webhook != nil }

  /// Adds a signed notification: written at once, its first POST due now (or after a delay
  /// fault).
  ///
  /// - Returns: the entry's index.
  /// - Throws: ``SigningError`` when the file cannot be written (the POST is still made).
  @discardableResult
  public func add(
    _ notification: ServerNotification, body: String, signedPayload: String, now: Instant
  ) throws(SigningError) -> Int {
    var fileError: SigningError?
    var file: String?
    do throws(SigningError) {
      file = try files?.deliver(name: notification.name, body: body)
    } catch {
      fileError = error
    }
    var entry = Entry(
      notification: notification, signedPayload: signedPayload, body: body, file: file)
    if webhook != nil {
      if case .delay(let milliseconds) = fault {
        entry.nextAttempt = Instant(milliseconds: now.milliseconds + milliseconds)
      } else {
        entry.nextAttempt = now
      }
      due.append(entries.count)
    }
    entries.append(entry)
    if let fileError { throw fileError }
    return entries.count - 1
  }

  /// Records the answers that came back, schedules retries for the failures, and makes the
  /// attempts due at `now`.
  ///
  /// - Returns: a line for a person about each attempt that ended.
  @discardableResult
  public func pump(now: Instant) -> [String] {
    var lines: [String] = []
    lock.lock()
    let answers = answered
    answered = []
    lock.unlock()
    for (index, date, answer) in answers {
      lines.append(record(index, Attempt(date: date, result: answer.result, detail: "\(answer)")))
    }
    guard let webhook else { return lines }
    var waiting: [Int] = []
    for index in due {
      guard let next = entries[index].nextAttempt else { continue }
      guard next <= now else {
        waiting.append(index)
        continue
      }
      entries[index].nextAttempt = nil
      let date = max(next, entries[index].attempts.last?.date ?? next)
      switch fault {
      case .drop:
        lines.append(
          record(index, Attempt(date: date, result: .timedOut, detail: "dropped (notify-fault)")))
        if entries[index].nextAttempt != nil { waiting.append(index) }
      case .duplicate:
        post(index, date: date, webhook)
        post(index, date: date, webhook)
      case .off, .delay:
        post(index, date: date, webhook)
      }
    }
    due = waiting
    return lines
  }

  /// Makes every notification that never reached the backend due again now (`notify retry`),
  /// whether it waits for its next retry or was given up on; returns how many.
  @discardableResult
  public func retryFailed(now: Instant) -> Int {
    guard webhook != nil else { return 0 }
    var count = 0
    for index in entries.indices
    where !entries[index].isDelivered && !entries[index].attempts.isEmpty && !isInFlight(index) {
      if entries[index].nextAttempt == nil { due.append(index) }
      entries[index].nextAttempt = now
      count += 1
    }
    return count
  }

  /// Waits until no POST is in flight (or `timeout` seconds pass), then records the answers.
  public func waitForAnswers(timeout: Double, now: Instant) -> [String] {
    let deadline = Date().addingTimeInterval(timeout)
    while Date() < deadline {
      lock.lock()
      let busy = inFlight > 0
      lock.unlock()
      if !busy { break }
      usleep(10_000)
    }
    return pump(now: now)
  }

  private var flying: Set<Int> = []

  private func isInFlight(_ index: Int) -> Bool {
    lock.lock()
    defer { lock.unlock() }
    return flying.contains(index)
  }

  private func post(_ index: Int, date: Instant, _ webhook: Webhook) {
    lock.lock()
    inFlight += 1
    flying.insert(index)
    lock.unlock()
    webhook.post(entries[index].body) { [weak self] answer in
      guard let self else { return }
      self.lock.lock()
      self.answered.append((index, date, answer))
      self.inFlight -= 1
      self.flying.remove(index)
      self.lock.unlock()
    }
  }

  /// Adds an attempt to an entry and schedules its retry when it failed and retries are left.
  private func record(_ index: Int, _ attempt: Attempt) -> String {
    entries[index].attempts.append(attempt)
    let name = entries[index].notification.name
    guard attempt.result != .success else {
      entries[index].nextAttempt = nil
      return "notification \(name) → \(attempt.detail)"
    }
    // A duplicate's twin, or an attempt after delivery, changes nothing.
    if entries[index].isDelivered || entries[index].nextAttempt != nil || isInFlight(index) {
      return "notification \(name) → \(attempt.detail)"
    }
    // Twins made at one moment are one attempt.
    let failures = Set(entries[index].attempts.map(\.date)).count
    guard failures <= Self.retryHours.count else {
      return "notification \(name) failed: \(attempt.detail); Apple gives up after 5 retries"
    }
    let hours = Self.retryHours[failures - 1]
    let next = Instant(milliseconds: attempt.date.milliseconds + hours * 3_600_000)
    entries[index].nextAttempt = next
    if !due.contains(index) { due.append(index) }
    return "notification \(name) failed: \(attempt.detail); retry at \(next.iso8601) (+\(hours) h)"
  }
}
