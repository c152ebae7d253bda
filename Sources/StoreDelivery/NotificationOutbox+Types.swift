import StoreSimulation

/// What an outbox holds and tells: its faults, entries and attempts, what a full queue does,
/// and the lines it writes for a person.
extension NotificationOutbox {
  /// A fault real delivery does to a backend, injected into every attempt while it is set.
  public enum Fault: Equatable, Sendable {
    /// Attempts go out as they are.
    case off
    /// Each attempt is lost on the way: it times out without reaching the backend.
    case drop
    /// Each attempt reaches the backend twice (the same `notificationUUID`).
    case duplicate
    /// Each notification's first attempt waits this long (simulated milliseconds).
    case delay(Int64)
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

  /// What the history keeps of a notification in memory: what reports name and "Get
  /// Notification History" filters by (the payload itself waits on disk).
  public struct Summary: Equatable, Sendable {
    /// `notificationType`.
    public let type: String
    /// `subtype`, if any.
    public let subtype: String?
    /// `notificationUUID`.
    public let uuid: String
    /// When it was sent (simulated).
    public let time: Instant
    /// The transaction it carries, if any.
    public let transactionID: UInt64?
    /// Whose device it concerns.
    public let owner: Account

    /// `TYPE` or `TYPE-SUBTYPE`, as files and log lines name it.
    public var name: String { subtype.map { "\(type)-\($0)" } ?? type }

    /// What to keep of `notification`, its type and subtype the strings `intern` gives (one
    /// copy of each, however many notifications carry it).
    public init(_ notification: ServerNotification, intern: (String) -> String = { $0 }) {
      type = intern(notification.type)
      subtype = notification.subtype.map(intern)
      uuid = notification.uuid
      time = notification.time
      transactionID = notification.transactionID
      owner = notification.owner
    }
  }

  /// A notification and what became of it.
  public struct Entry: Sendable {
    /// What the history keeps of the notification.
    public let notification: Summary
    /// Where its signed payload is.
    let log: HistoryLog
    let span: HistoryLog.Span
    /// Its signed payload (the JWS the body carries), read back from the history's file.
    public var signedPayload: String { log.read(span) }
    /// The body POSTed: `{"signedPayload":"<JWS>"}`, as the App Store POSTs it (made when it
    /// is sent).
    var body: String { NotificationOutbox.body(signedPayload: signedPayload) }
    /// The attempts so far, oldest first.
    public internal(set) var attempts: [Attempt] = []
    /// When the next attempt is due; `nil` when none is (delivered, given up, in flight).
    public internal(set) var nextAttempt: Instant?
    /// The file it was written to, if a folder was given.
    public let file: String?
    /// Whether it was dropped from a full queue before any attempt.
    public internal(set) var isDropped = false

    /// Whether an attempt reached the backend.
    public var isDelivered: Bool { attempts.contains { $0.result == .success } }
  }

  /// What happens when ``queueLimit`` notifications wait for their first attempt.
  public enum WhenFull: Sendable {
    /// The one adding waits for room (a script, where nothing may be lost).
    case wait
    /// The one adding waits for room while the backend answers, each answer within this many
    /// seconds; past that the oldest waiting is dropped, and said so (a server, whose commands
    /// never outrun a backend that keeps up, and never hang on one that does not).
    case waitWhileAnswered(Double)
    /// The oldest waiting is dropped, and said so (a front end that must not block).
    case dropOldest
  }

  /// A line for a person (the event log, standard error).
  public struct Line: Equatable, Sendable {
    /// When it happened (simulated), for lines about an attempt.
    public var time: Instant?
    /// What happened.
    public var text: String
    /// Whether something failed.
    public var isFailure: Bool
  }

  /// A notification's body as the App Store POSTs it.
  public static func body(signedPayload: String) -> String {
    body(signedPayload: signedPayload, ending: "")
  }

  /// The body followed by `ending`, made in one go.
  static func body(signedPayload: String, ending: String) -> String {
    var body = "{\"signedPayload\":\""
    body.reserveCapacity(signedPayload.utf8.count + 20 + ending.utf8.count)
    body += signedPayload
    body += "\"}"
    body += ending
    return body
  }

  /// A retry's delay for a person: whole hours as `6 h`, else seconds.
  static func hours(_ milliseconds: Int64) -> String {
    milliseconds % 3_600_000 == 0
      ? "\(milliseconds / 3_600_000) h" : "\(Double(milliseconds) / 1000) s"
  }
}
