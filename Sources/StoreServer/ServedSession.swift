import NIOConcurrencyHelpers
import StoreCommands
import StoreConfiguration
import StoreDelivery
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
  private var encoder: EventEncoder
  private let wall: @Sendable () -> Instant
  /// Wall time minus simulated time while the clock runs; `nil` when it is paused.
  private let offset: Int64?
  /// The notifications sent while a control request's command runs.
  private var sentByCommand: [NotificationSender.Sent] = []
  /// The commands requests applied since ``takeApplied()``, when ``keepsApplied``.
  private var applied: [CommandOutcome] = []
  /// Whether the commands requests apply are kept for ``takeApplied()`` (a front end that
  /// shows them: the inspector).
  public var keepsApplied = false
  /// Set from any thread when the server is asked to stop: a control request stops between two
  /// commands.
  private let stopping = NIOLockedValueBox(false)
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
    sender?.listen { [weak self] sent in self?.sentByCommand.append(sent) }
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

  /// The commands requests applied since the last call, with their events.
  public func takeApplied() -> [CommandOutcome] {
    defer { applied = [] }
    return applied
  }

  /// Answers a request.
  public func handle(_ request: ServerRequest) -> ServerResponse {
    handle(request, RouteMatch(request.method, request.path, in: Self.routes))
  }

  /// Answers a request the router matched (or not), where the session lives: a read from the
  /// session as it is now.
  func handle(_ request: ServerRequest, _ match: RouteMatch) -> ServerResponse {
    tick()
    if let refusal = reads.gate.refusal(request, match) { return refusal }
    switch match {
    case .refused(let error): return error.response
    case .found(let route, let parameters):
      return Self.answering {
        switch route.handler {
        case .read(let read):
          var reader = self.reader
          return try read(&reader, request, parameters)
        case .write(let write):
          return try write(self, request, parameters)
        }
      }
    }
  }

  /// A handler's answer: its response, or its error's (Apple's shape; 500 for any other).
  static func answering(_ body: () throws -> ServerResponse) -> ServerResponse {
    do {
      return try body()
    } catch let error as AppStoreError {
      return error.response
    } catch {
      return AppStoreError(status: 500, code: 5_000_000, message: "\(error)").response
    }
  }

  /// Asks a control request under way to stop after its current command (the server is
  /// stopping); safe from any thread.
  public func requestStop() { stopping.withLockedValue { $0 = true } }

  /// `POST /storekeeper/v1/commands`: each line applied as `run` applies it; the events as JSON
  /// lines, committed to the journal before they are answered; 422 with the stream up to and
  /// including the `error` event when a line cannot be applied.
  ///
  /// `?member=<name>` answers with what that family member's device sees (their transactions
  /// and statuses, the family's changes, the notifications about them); by default the
  /// purchaser's device, and every notification.
  func commands(_ body: [UInt8], member: String? = nil) -> ServerResponse {
    var output: [UInt8] = []
    func line(_ text: String) { output += Array(text.utf8) + [0x0A] }
    var status = 200
    var spent = 0
    // The request's commands share the journal's commits (one at the end), but for those whose
    // notifications must go out first.
    let commitsEach = host.commitsEachCommand
    host.commitsEachCommand = false
    defer { host.commitsEachCommand = commitsEach }
    for (number, text) in Command.scriptLines(body).enumerated() {
      // Bounded work, and a stop between two commands when the server is asked to stop.
      let stop: (status: Int, why: String)? =
        stopping.withLockedValue { $0 }
        ? (503, "the server is stopping")
        : spent >= requestBudget
          ? (422, "this request reached its budget of \(requestBudget) commands and events")
          : nil
      if let stop {
        var located = CommandError(
          "\(stop.why): lines \(number + 1) and after were not applied; send them again")
        located.line = number + 1
        line(encoder.errorLine(located, time: now))
        status = stop.status
        break
      }
      sentByCommand = []
      let outcome = host.perform(line: text, number: number + 1)
      if let notice = outcome.notice { line(EventLines.noticeLine(notice, time: now)) }
      if outcome.isApplied {
        if keepsApplied { applied.append(outcome) }
        spent += 1 + outcome.eventCount
      }
      for event in outcome.events where event.isSeen(byMemberNamed: member) {
        encoder.append(event, to: &output)
      }
      for sent in sentByCommand {
        let notification = sent.notification
        guard notification.isShown(toMemberNamed: member) else { continue }
        line(
          encoder.notificationLine(
            time: notification.time, type: notification.type, subtype: notification.subtype,
            uuid: notification.uuid, file: sent.file))
      }
      if let error = outcome.journalError {
        return AppStoreError(status: 500, code: 5_000_000, message: "journal: \(error)").response
      }
      if let error = outcome.error {
        line(encoder.errorLine(error, time: now))
        status = 422
        break
      }
    }
    do throws(CommandError) {
      try host.flush()
    } catch {
      return AppStoreError(status: 500, code: 5_000_000, message: "journal: \(error)").response
    }
    return ServerResponse(status: status, contentType: "application/x-ndjson", body: output)
  }

  /// Applies the command an App Store Server API call comes down to, committed: the call's
  /// effect is journaled like any command. A refusal is `refused`'s error.
  func applyCall(
    _ command: Command, refused: (CommandError) -> AppStoreError
  ) throws(AppStoreError) -> [StoreEvent] {
    let outcome = host.perform(command)
    if let error = outcome.error { throw refused(error) }
    if keepsApplied { applied.append(outcome) }
    if let error = outcome.journalError {
      throw AppStoreError(status: 500, code: 5_000_000, message: "journal: \(error)")
    }
    return outcome.events
  }

  func json(_ value: JSONValue, status: Int = 200) -> ServerResponse {
    reader.json(value, status: status)
  }
}
