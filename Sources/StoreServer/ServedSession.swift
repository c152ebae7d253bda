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
  /// The ledger's rows in history order, with the host's revision they were read at (the
  /// clock alone changes neither their order nor what history reads of them).
  private var cachedHistoryOrder: (revision: Int, account: Account, rows: [LedgerRow])?
  /// Whose transactions the request under way reads (``customer(_:)`` says): the purchaser's,
  /// or a family member's.
  private(set) var account = Account.purchaser
  /// A member's view of the session, with the host's revision it was made at.
  private var cachedView: (revision: Int, account: Account, session: Session)?
  let signer: Signer
  private var encoder: EventEncoder
  private let wall: @Sendable () -> Instant
  /// Wall time minus simulated time while the clock runs; `nil` when it is paused.
  private let offset: Int64?
  /// Who may call the App Store Server API.
  private let authentication: APIAuthentication
  /// The bearer token the control endpoint asks for; `nil`: the App Store Server API's token
  /// when a key is registered, else none.
  private let controlToken: String?
  /// Test notifications by token: their entries in the outbox.
  var tests: [String: Int] = [:]
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
    self.authentication = APIAuthentication(key: key, bundleID: signer.bundleID)
    self.controlToken = controlToken
    // `call receipt` answers the receipt itself, signed as the session signs.
    self.encoder = EventEncoder(
      environment: signer.environment.rawValue, receipts: signer.receiptFields)
    self.wall = wall
    self.offset = running ? wall().milliseconds - host.session.now.milliseconds : nil
    sender?.listen { [weak self] sent in self?.sentByCommand.append(sent) }
  }

  /// The simulated present.
  public var now: Instant { host.session.now }
  /// The session now.
  /// The session as the request's account sees it (``customer(_:)``).
  var session: Session {
    guard account != .purchaser else { return host.session }
    if let cachedView, cachedView.revision == host.revision, cachedView.account == account {
      return cachedView.session
    }
    let view = host.session.view(of: account)
    cachedView = (host.revision, account, view)
    return view
  }
  /// The bundle id payloads carry.
  var bundleID: String { signer.bundleID }
  /// The environment payloads carry.
  var environment: String { signer.environment.rawValue }

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

  /// Answers a request the router matched (or not).
  func handle(_ request: ServerRequest, _ match: RouteMatch) -> ServerResponse {
    tick()
    if request.path.split(separator: "/").first == "inApps",
      let refusal = authentication.refusal(of: request.headers["authorization"], now: wall())
    {
      // Apple answers 401 with no body.
      return ServerResponse(status: 401, body: [], note: refusal)
    }
    switch match {
    case .refused(let error): return error.response
    case .found(let route, let parameters):
      if route.access == .control, let refusal = controlRefusal(request.headers["authorization"]) {
        return ServerResponse(
          status: 401,
          body: Array(
            JSONWriter.compact(.object(JSONObject([JSONMember("error", .string(refusal))]))).utf8),
          note: refusal)
      }
      account = .purchaser
      defer { account = .purchaser }
      do {
        return try route.answer(self, request, parameters)
      } catch let error as AppStoreError {
        return error.response
      } catch {
        return AppStoreError(status: 500, code: 5_000_000, message: "\(error)").response
      }
    }
  }

  /// Asks a control request under way to stop after its current command (the server is
  /// stopping); safe from any thread.
  public func requestStop() { stopping.withLockedValue { $0 = true } }

  /// `GET /storekeeper/v1/health`.
  func health() -> ServerResponse {
    json(
      .object(
        JSONObject([
          JSONMember("status", .string("ok")), JSONMember("now", .string(now.iso8601)),
        ])))
  }

  /// Why the control endpoint refuses a request's `Authorization`, or `nil`: the control token
  /// when there is one, else the App Store Server API's token when a key is registered.
  private func controlRefusal(_ authorization: String?) -> String? {
    if let controlToken {
      let given = Array((authorization ?? "").utf8)
      let expected = Array("Bearer \(controlToken)".utf8)
      // The same time whatever the first difference.
      var difference = given.count ^ expected.count
      for index in expected.indices {
        difference |= Int(expected[index] ^ (index < given.count ? given[index] : 0))
      }
      return difference == 0 ? nil : "the control endpoint needs \"Bearer <--control-token>\""
    }
    guard authentication.key != nil else { return nil }
    return authentication.refusal(of: authorization, now: wall()).map {
      "the control endpoint needs an App Store Server API token (--api-key): \($0)"
    }
  }

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

  /// Look Up Order ID: the order's signed transactions and status 0, or status 1 when there is
  /// no such order (Apple answers 200 either way).
  func lookUp(order: String) throws(AppStoreError) -> JSONValue {
    guard let id = OrderID.transactionID(order),
      let transaction = session.transaction(id), transaction.orderID == order
    else {
      return .object(
        JSONObject([
          JSONMember("status", .number(JSONNumber(1))),
          JSONMember("signedTransactions", .array([])),
        ]))
    }
    return .object(
      JSONObject([
        JSONMember("status", .number(JSONNumber(0))),
        JSONMember("signedTransactions", .array([.string(try sign(transaction))])),
      ]))
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

  /// The ledger's rows ordered as Transaction History orders them (purchase date, then id),
  /// sorted once after each change of the session.
  func historyOrder() -> [LedgerRow] {
    if let cachedHistoryOrder, cachedHistoryOrder.revision == host.revision,
      cachedHistoryOrder.account == account
    {
      return cachedHistoryOrder.rows
    }
    var rows = session.ledgerRows()
    if !zip(rows, rows.dropFirst()).allSatisfy({
      ($0.purchaseDate, $0.id) <= ($1.purchaseDate, $1.id)
    }) {
      rows.sort { ($0.purchaseDate, $0.id) < ($1.purchaseDate, $1.id) }
    }
    cachedHistoryOrder = (host.revision, account, rows)
    return rows
  }

  /// The transaction an id names: 4000006 when it is not an id, 4040010 when there is none.
  func transaction(_ text: String) throws(AppStoreError) -> Transaction {
    guard !text.isEmpty, text.utf8.allSatisfy({ $0 >= 0x30 && $0 <= 0x39 }),
      let id = UInt64(text)
    else { throw .invalidTransactionID }
    guard let transaction = session.transaction(id) else {
      throw .transactionIDNotFound
    }
    return transaction
  }

  /// The account a customer id names, for the endpoints that take any of the customer's ids
  /// (Apple's `transactionId` "or appTransactionId"): a transaction id, an original one, or the
  /// account's `appTransactionId`. 4000006 when it is not an id, 4040010 when there is none.
  /// The account answers from then on (a member's transaction id or `appTransactionId` names
  /// the member: their history, statuses and app transaction).
  @discardableResult
  func customer(_ text: String) throws(AppStoreError) -> Account {
    let accounts = [.purchaser] + host.session.everyFamilyMember.map(Account.member)
    if let named = accounts.first(where: { $0.appTransactionID == text }) {
      account = named
      return named
    }
    let id = try transaction(text).id
    account = host.session.account(ofTransaction: id) ?? .purchaser
    return account
  }

  func sign(_ transaction: Transaction) throws(AppStoreError) -> String {
    do {
      return try signer.sign(transaction, signedDate: now, for: .server)
    } catch {
      throw AppStoreError(status: 500, code: 5_000_000, message: "An unknown error occurred.")
    }
  }

  /// `GET /inApps/v1/transactions/{transactionId}` (Get Transaction Info).
  func transactionInfo(_ id: String) throws(AppStoreError) -> JSONValue {
    .object(
      JSONObject([JSONMember("signedTransactionInfo", .string(try sign(try transaction(id))))]))
  }

  func json(_ value: JSONValue, status: Int = 200) -> ServerResponse {
    ServerResponse(status: status, body: Array(JSONWriter.compact(value).utf8))
  }
}
