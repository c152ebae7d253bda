import DequeModule
import Foundation
import HeapModule
import StoreSigning
import StoreSimulation

/// Every notification a session sent, and what became of it: written to a folder at once, and
/// POSTed to one URL in order, one request at a time, each failure retried as the
/// ``RetryPolicy`` says in simulated time (Apple's schedule by default). "Get Notification
/// History" and "Get Test Notification Status" answer from it; `run`, the inspector and `serve`
/// all send through one.
///
/// A POST's answer arrives on the HTTP client's thread, which records it and sends the next
/// one due; everything is under `lock`, hence `@unchecked Sendable` (an `NSCondition` the
/// compiler does not track; a condition, not a `Locked`, because a full queue waits on it for
/// the backend's answer, ``WhenFull/waitWhileAnswered(_:)``). Adding, sending and
/// recording cost the same however many notifications wait (a heap of the attempts due, a
/// queue of the first attempts waiting).
public final class NotificationOutbox: @unchecked Sendable {
  /// The most notifications waiting for their first attempt, by default.
  public static let queueLimit = 10_000
  /// The most notifications waiting for their first attempt in this outbox.
  private let queueLimit: Int
  /// How long one attempt waits for the backend's answer, everywhere.
  public static let attemptTimeout = 30.0

  private let lock = NSCondition()
  var entries: Entries
  /// The signed payloads, on disk.
  private let log = HistoryLog()
  /// One copy of each notification type and subtype (`Summary`'s strings).
  private var names: [String: String] = [:]
  /// Attempts made, in all.
  var attemptCount = 0
  /// When the backend last answered (or the wait for it began), for ``WhenFull/waitWhileAnswered(_:)``.
  private var lastAnswer = Date()
  /// Told of each notification dropped from a full queue, on the thread that was adding one
  /// (the session's: only ``add(_:signedPayload:now:)`` drops). Set before the first.
  public var onDrop: ((Entry) -> Void)?
  private var fault = Fault.off
  private let webhook: Webhook?
  private let files: (any NotificationWriter)?
  /// When failures are sent again.
  public let policy: RetryPolicy
  private let whenFull: WhenFull
  /// An attempt due: when, and whose (an entry whose `nextAttempt` is no longer `date` left it).
  private struct Due: Comparable {
    var date: Int64
    var entry: Int
    static func < (lhs: Due, rhs: Due) -> Bool { (lhs.date, lhs.entry) < (rhs.date, rhs.entry) }
  }
  /// The attempts due, earliest (then oldest) first.
  private var due = Heap<Due>()
  /// Entries waiting for their first attempt, oldest first (some may have had it since).
  private var firstAttempts = Deque<Int>()
  /// How many entries wait for their first attempt.
  private var waitingFirst = 0
  /// The POST under way: its entry, its attempt's date, and how many copies are left to send
  /// (a duplicate fault sends two).
  var inFlight: (entry: Int, date: Instant, copies: Int)?
  /// The session's time at the last pump: attempts due by then go out.
  private var now = Instant(milliseconds: Int64.min)
  var lines: [Line] = []
  /// Told when lines arrive, from whichever thread made them (the HTTP client's, the
  /// session's): the reader takes them with ``takeLines()``. Set before the first notification.
  public var wake: (@Sendable () -> Void)?

  /// How notifications are written to a folder.
  public enum FileLayout: Sendable, Equatable {
    /// A numbered file each (`0001-SUBSCRIBED-INITIAL_BUY.json`).
    case numbered
    /// One JSON-lines file of this name, each line a body, named only when ``finishFiles()``
    /// is called (`NAME.partial` until then).
    case lines(String)
  }

  /// An outbox POSTing to `url` (if given) and writing files to `directory` (if given).
  ///
  /// - Parameters:
  ///   - layout: a file per notification, or one JSON-lines file.
  ///   - keepsHistory: whether every notification is kept for ``history`` (a session's
  ///     history, served); without, settled ones are forgotten and only ``undelivered`` says
  ///     what never arrived.
  ///   - policy: when failures are sent again (Apple's schedule by default).
  ///   - whenFull: what a full queue does.
  ///   - queueLimit: how many may wait for their first attempt.
  ///   - timeout: how long one attempt waits for an answer.
  ///   - caFile: a PEM file of CA certificates trusted besides the system's.
  /// - Throws: ``DeliveryError`` for a URL that is not a complete `http(s)` URL, a CA file
  ///   without certificates, or a folder that cannot be made or is not a folder.
  public init(
    url: String?, directory: String?, policy: RetryPolicy = .apple,
    whenFull: WhenFull = .dropOldest, queueLimit: Int = NotificationOutbox.queueLimit,
    timeout: Double = attemptTimeout, trusting caFile: String? = nil,
    layout: FileLayout = .numbered, keepsHistory: Bool = true
  ) throws(DeliveryError) {
    webhook = try url.map { (url) throws(DeliveryError) in
      try Webhook(url: try WebhookURL(url).text, timeout: timeout, trusting: caFile)
    }
    files = try directory.map { (directory) throws(DeliveryError) -> any NotificationWriter in
      switch layout {
      case .numbered: try NotificationFiles(directory: directory)
      case .lines(let name): try NotificationLines(directory: directory, name: name)
      }
    }
    entries = Entries(forgets: !keepsHistory)
    self.policy = policy
    self.whenFull = whenFull
    self.queueLimit = max(1, queueLimit)
  }

  deinit { webhook?.shutdown() }

  /// Whether notifications go anywhere (a URL or a folder): "Request a Test Notification"
  /// needs one, as Apple's needs a server URL.
  public var hasDestination: Bool { webhook != nil || files != nil }

  /// The numbers of the notification files already in `directory` (none when it is not
  /// there): a new outbox writing there numbers on from the highest.
  public static func numberedFiles(in directory: String) -> [Int] {
    NotificationFiles.numbers(in: directory)
  }

  /// Whether notifications are POSTed.
  public var posts: Bool { webhook != nil }

  /// Every notification so far, oldest first (those still held, when the outbox keeps no
  /// history).
  public var history: [Entry] { locked { entries.held } }

  /// The notifications POSTed that no attempt delivered (yet), oldest first; none when
  /// nothing is POSTed.
  public var undelivered: [Entry] {
    locked {
      guard webhook != nil else { return [] }
      return entries.forgottenUndelivered + entries.held.filter { !$0.isDelivered }
    }
  }

  /// Gives the notifications' file its name (a JSON-lines file is `NAME.partial` until then).
  ///
  /// - Throws: ``DeliveryError`` naming the file and the system's reason.
  public func finishFiles() throws(DeliveryError) { try files?.finish() }

  /// Writes no more files once it returns (a write under way ends first): a run stopped
  /// before its end, about to remove what it wrote.
  public func closeFiles() { files?.stopWriting() }

  /// One notification and what became of it.
  public func entry(_ index: Int) -> Entry { locked { entries[index] } }

  /// The fault in force.
  public func setFault(_ fault: Fault) { locked { self.fault = fault } }

  /// Adds a signed notification at `now`: its file written at once, its first POST due now (or
  /// after a delay fault), after those before it.
  ///
  /// - Returns: the entry's index, its file, and why the file could not be written (the POST
  ///   is still made).
  @discardableResult
  public func add(
    _ notification: ServerNotification, signedPayload: String, now: Instant
  ) -> (index: Int, file: String?, error: DeliveryError?) {
    var fileError: DeliveryError?
    var file: String?
    do throws(DeliveryError) {
      file = try files?.write(
        name: notification.name, line: Self.body(signedPayload: signedPayload, ending: "\n"))
    } catch {
      fileError = error
    }
    var dropped: [Entry] = []
    let index = locked { () -> Int in
      self.now = max(self.now, now)
      let summary = Summary(notification) { name in
        if let kept = names[name] { return kept }
        names[name] = name
        return name
      }
      var entry = Entry(
        notification: summary, log: log, span: log.append(signedPayload), file: file)
      if webhook != nil {
        dropped = makeRoom()
        if case .delay(let milliseconds) = fault {
          entry.nextAttempt = now.adding(milliseconds: milliseconds)
        } else {
          entry.nextAttempt = now
        }
        schedule(entries.count, at: entry.nextAttempt!)
        firstAttempts.append(entries.count)
        waitingFirst += 1
      }
      entries.append(entry)
      forgetSettled()
      return entries.count - 1
    }
    for entry in dropped { onDrop?(entry) }
    send(next())
    return (index, file, fileError)
  }

  /// The session's time moved to `now`: the attempts due by then go out, in order, one at a
  /// time.
  public func pump(now: Instant) {
    send(
      locked { () -> Outgoing? in
        self.now = max(self.now, now)
        return next()
      })
  }

  /// Makes every notification that never reached the backend due again now (`notify retry`),
  /// whether it waits for its next retry or was given up on; returns how many.
  @discardableResult
  public func retryFailed(now: Instant) -> Int {
    let (count, outgoing) = locked { () -> (Int, Outgoing?) in
      self.now = max(self.now, now)
      guard webhook != nil else { return (0, nil) }
      var count = 0
      for index in entries.indices
      where !entries[index].isDelivered && !entries[index].attempts.isEmpty
        && inFlight?.entry != index
      {
        entries[index].nextAttempt = now
        schedule(index, at: now)
        count += 1
      }
      return (count, next())
    }
    send(outgoing)
    return count
  }

  /// The lines that arrived since the last call, in order.
  public func takeLines() -> [Line] {
    locked {
      defer { lines = [] }
      return lines
    }
  }

  /// Waits while an attempt is due by now or under way, as long as answers keep coming (each
  /// within `patience` seconds); returns how many were still due.
  @discardableResult
  public func drain(patience: Double = attemptTimeout + 5) -> Int {
    lock.lock()
    defer { lock.unlock() }
    var deadline = Date().addingTimeInterval(patience)
    var attempts = attemptCount
    while (inFlight != nil || dueNow() != nil) && Date() < deadline {
      _ = lock.wait(until: min(deadline, Date().addingTimeInterval(0.05)))
      if attemptCount != attempts {
        attempts = attemptCount
        deadline = Date().addingTimeInterval(patience)
      }
    }
    let stillDue = due.unordered.filter { item in
      !entries.isForgotten(item.entry)
        && entries[item.entry].nextAttempt.map { $0.milliseconds == item.date && $0 <= now }
          ?? false
    }
    return stillDue.count + (inFlight == nil ? 0 : 1)
  }

  // MARK: - Sending, one at a time

  /// A POST to make.
  private struct Outgoing {
    var entry: Int
    var body: String
  }

  /// The next POST to make, if none is under way and one is due (faults that make no POST are
  /// recorded on the way). Called under `lock`.
  private func next() -> Outgoing? {
    guard webhook != nil, inFlight == nil else { return nil }
    while let index = dueNow() {
      due.removeMin()
      if entries[index].attempts.isEmpty { waitingFirst -= 1 }
      let scheduled = entries[index].nextAttempt ?? now
      entries[index].nextAttempt = nil
      let date = max(scheduled, entries[index].attempts.last?.date ?? scheduled)
      switch fault {
      case .drop:
        record(index, Attempt(date: date, result: .timedOut, detail: "dropped (notify-fault)"))
        continue
      case .duplicate: inFlight = (index, date, 2)
      case .off, .delay: inFlight = (index, date, 1)
      }
      return Outgoing(entry: index, body: entries[index].body)
    }
    return nil
  }

  /// The entry whose attempt is due first, when it is due by now (attempts no longer wanted
  /// are cleared from the heap on the way). Called under `lock`.
  private func dueNow() -> Int? {
    while let first = due.min {
      guard !entries.isForgotten(first.entry), let date = entries[first.entry].nextAttempt,
        date.milliseconds == first.date,
        inFlight?.entry != first.entry
      else {
        due.removeMin()
        continue
      }
      return date <= now ? first.entry : nil
    }
    return nil
  }

  /// Puts an entry's attempt at `date` in the heap. Called under `lock`.
  func schedule(_ entry: Int, at date: Instant) {
    due.insert(Due(date: date.milliseconds, entry: entry))
  }

  private func send(_ outgoing: Outgoing?) {
    guard let outgoing, let webhook else { return }
    webhook.post(outgoing.body) { [weak self] answer in
      guard let self else { return }
      let next = self.locked { () -> Outgoing? in
        self.lastAnswer = Date()
        guard let flight = self.inFlight else { return nil }
        self.record(
          flight.entry,
          Attempt(date: flight.date, result: answer.result, detail: "\(answer)"))
        if flight.copies > 1 {
          self.inFlight = (flight.entry, flight.date, flight.copies - 1)
          return outgoing
        }
        self.inFlight = nil
        return self.next()
      }
      self.send(next)
    }
  }

  /// Makes room for one more notification waiting for its first attempt: waits while the
  /// policy says so, else drops the oldest waiting; what it dropped. Called under `lock`.
  private func makeRoom() -> [Entry] {
    var dropped: [Entry] = []
    let waitingSince = Date()
    while waitingFirst >= queueLimit {
      switch whenFull {
      case .wait where inFlight != nil:
        lock.wait()
        continue
      case .waitWhileAnswered(let patience) where inFlight != nil:
        let deadline = max(lastAnswer, waitingSince).addingTimeInterval(patience)
        if Date() < deadline {
          _ = lock.wait(until: deadline)
          continue
        }
      default: break
      }
      guard let oldest = oldestWaiting() else { break }
      entries[oldest].nextAttempt = nil
      entries[oldest].isDropped = true
      waitingFirst -= 1
      dropped.append(entries[oldest])
      lines.append(
        Line(
          time: now,
          text: "notification \(entries[oldest].notification.name) dropped: \(dropReason)",
          isFailure: true))
    }
    return dropped
  }

  /// Why a notification is dropped from a full queue.
  public var dropReason: String {
    if case .waitWhileAnswered(let patience) = whenFull {
      return "the delivery queue is full (\(queueLimit) waiting) and the backend did not answer "
        + "within \(Int(patience)) s"
    }
    return "the delivery queue is full (\(queueLimit) waiting)"
  }

  /// The oldest entry still waiting for its first attempt (those that had it since are
  /// forgotten on the way). Called under `lock`.
  private func oldestWaiting() -> Int? {
    while let first = firstAttempts.first {
      if !entries.isForgotten(first) && entries[first].attempts.isEmpty && !entries[first].isDropped
        && inFlight?.entry != first
      {
        return first
      }
      firstAttempts.removeFirst()
    }
    return nil
  }

  /// Forgets the settled entries at the front, when the outbox keeps no history: written
  /// and (when POSTed) delivered, dropped or given up on. Called under `lock`.
  func forgetSettled() {
    let posts = webhook != nil
    entries.forgetSettled { index, entry in
      !posts || entry.isDropped
        || (entry.nextAttempt == nil && !entry.attempts.isEmpty && inFlight?.entry != index)
    }
  }

  /// Runs `body` under the lock; wakes the reader when it added lines.
  private func locked<T>(_ body: () throws -> T) rethrows -> T {
    lock.lock()
    let said = lines.count
    defer {
      let wakes = lines.count > said
      lock.broadcast()
      lock.unlock()
      if wakes { wake?() }
    }
    return try body()
  }
}
