import NIOConcurrencyHelpers
import StoreCommands
import StoreDelivery
import StoreJSON
import StoreSigning
import StoreSimulation

/// A session served over HTTP: the App Store Server API answered from its state at its current
/// simulated time, and a control endpoint that applies command-language lines as `run` does.
/// Every change goes through the session's ``CommandHost`` (shared with the inspector under
/// `--serve`), so it is journaled before it is answered and its notifications go out through
/// the one sender.
///
/// Used only where the session lives (``SessionWork`` brings the requests there).
public final class ServedSession {
  /// The session's one way in.
  let host: CommandHost
  /// Where its notifications go, when they go anywhere.
  let sender: NotificationSender?
  /// The reads, answered on any thread from the session as last committed.
  public let reads: ReadAccess
  /// What reads keep between requests (shared by the live reader and the committed one).
  let shared = ReadCache()
  let signer: Signer
  let encoder: EventEncoder
  private let wall: @Sendable () -> Instant
  /// Wall time minus simulated time while the clock runs; `nil` when it is paused.
  private let offset: Int64?
  /// The lines of the control request under way, which hear the notifications it sends.
  var controlLines: EventLines?
  /// The control requests waiting for the developer's server, by number: what awaits the call
  /// carries only the number, and the run stays where the session lives.
  var waitingRuns: [Int: ControlRun] = [:]
  /// The number the next waiting control request gets.
  var nextWaitingRun = 0
  /// Set from any thread when the server is asked to stop: a control request stops between two
  /// commands.
  let stopping = NIOLockedValueBox(false)
  /// Apple's performance tests of the real-time URL, by request id.
  let performanceTests = NIOLockedValueBox<[String: PerformanceTest]>([:])
  /// The most work one control request may do: its commands, and the events they make (by
  /// default a million, the bound of one command's events).
  let requestBudget: Int

  /// A served session.
  ///
  /// - Parameters:
  ///   - host: the session's host (its own, or the inspector's).
  ///   - sender: the sender attached to the host, when notifications go anywhere.
  ///   - running: whether the clock runs on with the wall clock (else only `advance` moves it).
  ///   - wall: the wall clock (injected: the engine never reads it).
  ///   - key: the App Store Server API key tokens must be signed with; `nil` accepts any
  ///     well-formed token.
  ///   - controlToken: the bearer token the control endpoint (`POST /storekeeper/v1/commands`)
  ///     asks for; without one, it asks for a valid App Store Server API token when `key` is
  ///     given, and for nothing otherwise.
  ///   - requestBudget: the most commands and events one control request may make; the rest of
  ///     it is refused (422), to be sent again.
  public init(
    host: CommandHost, sender: NotificationSender?, signer: Signer, running: Bool,
    key: APIAuthentication.Key? = nil, controlToken: String? = nil,
    requestBudget: Int = 1_000_000, wall: @escaping @Sendable () -> Instant
  ) {
    self.host = host
    self.sender = sender
    self.requestBudget = requestBudget
    self.signer = signer
    // `call receipt` answers the receipt itself, signed as the session signs.
    self.encoder = EventEncoder(
      environment: signer.environment.rawValue, receipts: signer.receiptFields)
    self.wall = wall
    self.offset = running ? wall().milliseconds - host.session.now.milliseconds : nil
    let gate = AccessGate(
      authentication: APIAuthentication(key: key, bundleID: signer.bundleID),
      controlToken: controlToken, wall: wall)
    let reader = SessionReader(
      base: host.session, revision: host.revision, signer: signer, outbox: sender?.outbox,
      shared: shared)
    reads = ReadAccess(gate: gate, reader: reader)
    host.attach(CommittedReads(host: host, access: reads))
    // The outbox drops only while it adds, on this session's thread (a control request's
    // command publishing): its answer says so, having said the notification was sent.
    sender?.outbox.onDrop = { [weak self] entry in
      self?.tellControlRequest(
        entry.notification, droppedBecause: self?.sender?.outbox.dropReason ?? "")
    }
    sender?.listen { [weak self] sent in
      self?.tellControlRequest(.init(sent.notification), file: sent.file)
    }
  }

  /// Tells the control request under way of a notification sent, or dropped, when the device
  /// it answers for sees it.
  private func tellControlRequest(
    _ notification: NotificationOutbox.Summary, file: String? = nil,
    droppedBecause reason: String? = nil
  ) {
    guard let lines = controlLines, lines.device.shows(notificationAbout: notification.owner)
    else {
      return
    }
    lines.notification(
      time: notification.time, type: notification.type, subtype: notification.subtype,
      uuid: notification.uuid, file: file, customer: notification.owner.customer.name,
      droppedBecause: reason)
  }

  /// The simulated present.
  public var now: Instant { host.session.now }

  /// A reader of the session as it is now, for the writes' own reads (and requests answered
  /// where the session lives).
  var reader: SessionReader {
    SessionReader(
      base: host.session, revision: host.revision, signer: signer, outbox: sender?.outbox,
      shared: shared)
  }

  /// Moves a running clock to the wall clock's simulated time (journaled only when something
  /// happened, as the inspector's clock is), and makes the deliveries now due.
  public func tick() {
    guard let offset else {
      sender?.outbox.pump(now: now)
      return
    }
    let target = Instant(milliseconds: wall().milliseconds - offset)
    guard target > now else {
      sender?.outbox.pump(now: now)
      return
    }
    host.perform(.advance(.to(target)), from: .clock)
  }

  /// Asks a control request under way to stop after its current command (the server is
  /// stopping); safe from any thread.
  public func requestStop() { stopping.withLockedValue { $0 = true } }

  /// Applies an API call's command for `customer` (the owner of the transaction it names; by
  /// default whom the session acts as), journaled as one line that names them; `refused` is
  /// its answer to the engine's refusal (`nil`: the engine refused what is done already, and
  /// the call succeeds with no events).
  func applyCall(
    _ command: Command, for customer: Customer? = nil,
    refused: (CommandError) -> AppStoreError?
  ) throws(AppStoreError) -> [StoreEvent] {
    let events = EventCollector()
    host.attach(events)
    defer { host.detach(events) }
    let outcome = customer.map { host.perform(command, for: $0) } ?? host.perform(command)
    if let error = outcome.error {
      if let answer = refused(error) { throw answer }
      return []
    }
    if let error = outcome.publishError {
      throw AppStoreError(.generalInternal, message: "journal: \(error)")
    }
    return events.take()
  }

  func json(_ value: JSONValue, status: Int = 200) -> ServerResponse {
    reader.json(value, status: status)
  }
}
