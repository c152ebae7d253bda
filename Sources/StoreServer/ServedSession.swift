import NIOConcurrencyHelpers
import StoreCommands
import StoreConfiguration
import StoreSigning
import StoreSimulation

/// A session served over HTTP: the App Store Server API answered from its state at its current
/// simulated time, and a control endpoint that applies command-language lines as `run` does.
///
/// Used from the server's one event loop only (requests and clock ticks run there in turn),
/// which is why it may be `@unchecked Sendable`.
public final class ServedSession: @unchecked Sendable {
  private(set) var journaled: JournaledSession
  /// The ledger's rows in history order, until a command or an event changes the session (the
  /// clock alone changes neither their order nor what history reads of them).
  private var cachedHistoryOrder: [LedgerRow]?
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
  /// The notifications sent, when they go anywhere.
  let notifications: ServedNotifications?
  /// Hears what happened to each notification.
  let log: @Sendable (String) -> Void

  /// Set from any thread when the server is asked to stop: a control request stops between two
  /// commands.
  private let stopping = NIOLockedValueBox(false)
  /// The most work one control request may do: its commands, and the events they make (by
  /// default a million, the bound of one command's events).
  let requestBudget: Int

  /// Whether the session is lent for each call (the inspector's own, with `--serve`).
  private var isLent = false
  /// In a lent session, the commands applied during the call, with their events.
  private var appliedWhileLent: [(command: Command, events: [StoreEvent])] = []

  /// A served session.
  ///
  /// - Parameters:
  ///   - running: whether the clock runs on with the wall clock (else only `advance` moves it).
  ///   - wall: the wall clock (injected: the engine never reads it).
  ///   - key: the App Store Server API key tokens must be signed with; `nil` accepts any
  ///     well-formed token.
  ///   - controlToken: the bearer token the control endpoint (`POST /storekeeper/v1/commands`)
  ///     asks for; without one, it asks for a valid App Store Server API token when `key` is
  ///     given, and for nothing otherwise.
  ///   - outbox: where notifications go; `nil` sends none.
  ///   - log: hears what became of each notification.
  ///   - lent: the session is the inspector's: it is lent for each call (``answer(_:lending:)``,
  ///     ``notify(_:lending:)``) and `journaled` only sets up the notifications.
  ///   - requestBudget: the most commands and events one control request may make; the rest of
  ///     it is refused (422), to be sent again.
  public init(
    journaled: JournaledSession, signer: Signer, environment: String, running: Bool,
    key: APIAuthentication.Key? = nil, controlToken: String? = nil,
    outbox: NotificationOutbox? = nil,
    log: @escaping @Sendable (String) -> Void = { _ in }, lent: Bool = false,
    requestBudget: Int = 1_000_000, wall: @escaping @Sendable () -> Instant
  ) {
    self.requestBudget = requestBudget
    self.journaled = journaled
    self.signer = signer
    self.log = log
    self.notifications = outbox.map {
      ServedNotifications(
        mapper: NotificationMapper(
          session: journaled.session,
          namespace: signer.notificationNamespace(session: journaled.identity)),
        outbox: $0)
    }
    self.authentication = APIAuthentication(key: key, bundleID: signer.bundleID)
    self.controlToken = controlToken
    // `call receipt` answers the receipt itself, signed as the session signs.
    self.encoder = EventEncoder(environment: environment, receipts: signer.receiptFields)
    self.wall = wall
    self.offset = running ? wall().milliseconds - journaled.session.now.milliseconds : nil
    if lent {
      // Hold nothing of the inspector's session between calls: a shared copy would make its
      // next change copy the whole ledger.
      isLent = true
      self.journaled = JournaledSession(
        session: Session(configuration: StoreKitConfiguration(), start: Instant(milliseconds: 0)),
        journal: nil)
    }
  }

  /// Answers a request against a lent session (the inspector's): the session comes back with
  /// what the request changed (journaled and committed), with the commands it applied and
  /// their events, whose notifications were already sent.
  public func answer(
    _ request: ServerRequest, lending journaled: inout JournaledSession
  ) -> (response: ServerResponse, applied: [(command: Command, events: [StoreEvent])]) {
    lend(&journaled) {
      appliedWhileLent = []
      let response = handle(request)
      return (response, appliedWhileLent)
    }
  }

  /// Sends the notifications of events a lent session (the inspector's) emitted by itself, and
  /// makes the deliveries now due.
  public func notify(_ events: [StoreEvent], lending journaled: inout JournaledSession) {
    lend(&journaled) {
      notify(events)
      pumpNotifications()
    }
  }

  func lend<T>(_ lent: inout JournaledSession, _ body: () -> T) -> T {
    precondition(isLent, "this served session owns its session")
    cachedHistoryOrder = nil
    swap(&journaled, &lent)
    defer { swap(&journaled, &lent) }
    return body()
  }

  /// The simulated present.
  public var now: Instant { journaled.session.now }
  /// The session now.
  var session: Session { journaled.session }
  /// The bundle id payloads carry.
  var bundleID: String { signer.bundleID }
  /// The environment payloads carry.
  var environment: String { signer.environment.rawValue }

  /// Moves a running clock to the wall clock's simulated time (journaled only when something
  /// happened, as the inspector's clock is).
  public func tick() {
    defer { pumpNotifications() }
    guard let offset else { return }
    let target = Instant(milliseconds: wall().milliseconds - offset)
    guard target > journaled.session.now else { return }
    var events: [StoreEvent] = []
    try? journaled.apply(.advance(.to(target)), from: .clock) { events.append($0) }
    try? journaled.commit()
    if !events.isEmpty { cachedHistoryOrder = nil }
    notify(events)
  }

  /// Answers a request.
  public func handle(_ request: ServerRequest) -> ServerResponse {
    tick()
    let segments = request.path.split(separator: "/", omittingEmptySubsequences: true).map(
      String.init)
    do throws(AppStoreError) {
      // The methods of the paths that match but for the method: a 405's `Allow`.
      var allowed: [String] = []
      func route(
        _ method: String, _ prefix: [String], arguments: Int = 0, then suffix: String? = nil
      ) -> [String]? {
        let length = prefix.count + arguments + (suffix == nil ? 0 : 1)
        guard segments.count == length, segments.starts(with: prefix),
          suffix == nil || segments.last == suffix
        else { return nil }
        guard request.method == method else {
          allowed.append(method)
          return nil
        }
        return Array(segments.dropFirst(prefix.count).prefix(arguments))
      }
      if route("GET", ["storekeeper", "v1", "health"]) != nil {
        return json(
          .object(
            JSONObject([
              JSONMember("status", .string("ok")), JSONMember("now", .string(now.iso8601)),
            ])))
      }
      if route("POST", ["storekeeper", "v1", "commands"]) != nil {
        if let refusal = controlRefusal(request.headers["authorization"]) {
          return ServerResponse(
            status: 401,
            body: Array(
              JSONWriter.compact(
                .object(JSONObject([JSONMember("error", .string(refusal))]))
              ).utf8), note: refusal)
        }
        return commands(request.body)
      }
      if segments.first == "inApps",
        let refusal = authentication.refusal(of: request.headers["authorization"], now: wall())
      {
        // Apple answers 401 with no body.
        return ServerResponse(status: 401, body: [], note: refusal)
      }
      if let id = route("GET", ["inApps", "v1", "transactions"], arguments: 1)?.first {
        let transaction = try self.transaction(id)
        return json(
          .object(
            JSONObject([
              JSONMember("signedTransactionInfo", .string(try sign(transaction)))
            ])))
      }
      if let id = route("GET", ["inApps", "v1", "transactions", "appTransactions"], arguments: 1)?
        .first
      {
        _ = try transaction(id)
        return json(try appTransactionInfo())
      }
      if let id = route("PUT", ["inApps", "v1", "subscriptions", "extend"], arguments: 1)?.first {
        return json(try extend(id, body: request.body))
      }
      if route("POST", ["inApps", "v1", "subscriptions", "extend", "mass"]) != nil {
        return json(try extendAll(body: request.body))
      }
      if let names = route(
        "GET", ["inApps", "v1", "subscriptions", "extend", "mass"], arguments: 2)
      {
        return json(try extensionStatus(product: names[0], request: names[1]))
      }
      for version in ["v1", "v2"] {
        if let id = route("PUT", ["inApps", version, "transactions", "consumption"], arguments: 1)?
          .first
        {
          try consumption(id, version: version, body: request.body)
          return ServerResponse(status: 202, body: [])
        }
      }
      if let id = route(
        "PUT", ["inApps", "v1", "transactions"], arguments: 1, then: "appAccountToken")?.first
      {
        try setAppAccountToken(id, body: request.body)
        return ServerResponse(status: 200, body: [])
      }
      if let id = route("POST", ["inApps", "v1", "transactions"], arguments: 1, then: "finish")?
        .first
      {
        try finish(id)
        return ServerResponse(status: 200, body: [])
      }
      if route("POST", ["inApps", "v1", "notifications", "test"]) != nil {
        return json(try requestTestNotification())
      }
      if let token = route("GET", ["inApps", "v1", "notifications", "test"], arguments: 1)?.first {
        return json(try testNotificationStatus(token))
      }
      if route("POST", ["inApps", "v1", "notifications", "history"]) != nil {
        return json(try notificationHistory(request.query, body: request.body))
      }
      if let order = route("GET", ["inApps", "v1", "lookup"], arguments: 1)?.first {
        return json(try lookUp(order: order))
      }
      if let id = route("GET", ["inApps", "v2", "refund", "lookup"], arguments: 1)?.first {
        _ = try transaction(id)
        return json(try refundHistory(request.query))
      }
      if let id = route("GET", ["inApps", "v1", "subscriptions"], arguments: 1)?.first {
        _ = try transaction(id)
        return json(try statuses(request.query))
      }
      for version in ["v1", "v2"] {
        if let id = route("GET", ["inApps", version, "history"], arguments: 1)?.first {
          _ = try transaction(id)
          return json(try history(HistoryQuery(request.query, version: version)))
        }
      }
      if segments.starts(with: ["inApps", "v1", "messaging"]) {
        throw AppStoreError.notSimulated("retention messaging")
      }
      if !allowed.isEmpty {
        throw AppStoreError.methodNotAllowed(request.method, request.path, allowed: allowed)
      }
      throw AppStoreError.notFound(request.method, request.path)
    } catch {
      return error.response
    }
  }

  /// Asks a control request under way to stop after its current command (the server is
  /// stopping); safe from any thread.
  public func requestStop() { stopping.withLockedValue { $0 = true } }

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
  private func commands(_ body: [UInt8]) -> ServerResponse {
    var output: [UInt8] = []
    var status = 200
    var spent = 0
    for (number, line) in Command.scriptLines(body).enumerated() {
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
        output += Array(encoder.errorLine(located, time: now).utf8) + [0x0A]
        status = stop.status
        break
      }
      do throws(CommandError) {
        guard let command = try Command.parse(line) else { continue }
        if case .notify(let action) = command {
          output += notifyAction(action)
          continue
        }
        let applied = try apply(command)
        spent += 1 + applied.events.count
        for event in applied.events { encoder.append(event, to: &output) }
        for (notification, file) in applied.notifications {
          output +=
            Array(
              encoder.notificationLine(
                time: notification.time, type: notification.type, subtype: notification.subtype,
                uuid: notification.uuid, file: file
              ).utf8) + [0x0A]
        }
      } catch {
        var located = error
        located.line = number + 1
        if located.command == nil { located.command = line }
        output += Array(encoder.errorLine(located, time: now).utf8) + [0x0A]
        status = 422
        break
      }
    }
    do throws(CommandError) {
      try journaled.commit()
    } catch {
      return AppStoreError(status: 500, code: 5_000_000, message: "journal: \(error)").response
    }
    return ServerResponse(status: status, contentType: "application/x-ndjson", body: output)
  }

  /// Look Up Order ID: the order's signed transactions and status 0, or status 1 when there is
  /// no such order (Apple answers 200 either way).
  private func lookUp(order: String) throws(AppStoreError) -> JSONValue {
    guard let id = OrderID.transactionID(order),
      let transaction = journaled.session.transaction(id), transaction.orderID == order
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

  /// Applies a command to the session as `run` does (journaled; committed by the caller) and
  /// sends the notifications its events cause.
  func apply(
    _ command: Command
  ) throws(CommandError) -> (events: [StoreEvent], notifications: [(ServerNotification, String?)]) {
    var events: [StoreEvent] = []
    cachedHistoryOrder = nil
    try journaled.apply(command) { events.append($0) }
    if isLent { appliedWhileLent.append((command, events)) }
    return (events, notify(events))
  }

  /// Applies a command an App Store Server API call comes down to, and commits it: the call's
  /// effect is journaled like any command. A refusal is `refused`'s error.
  func applyCall(
    _ command: Command, refused: (CommandError) -> AppStoreError
  ) throws(AppStoreError) -> [StoreEvent] {
    let events: [StoreEvent]
    do throws(CommandError) {
      events = try apply(command).events
    } catch {
      throw refused(error)
    }
    do throws(CommandError) {
      try journaled.commit()
    } catch {
      throw AppStoreError(status: 500, code: 5_000_000, message: "journal: \(error)")
    }
    return events
  }

  /// The ledger's rows ordered as Transaction History orders them (purchase date, then id),
  /// sorted once after each change of the session.
  func historyOrder() -> [LedgerRow] {
    if let cachedHistoryOrder { return cachedHistoryOrder }
    var rows = session.ledgerRows()
    if !zip(rows, rows.dropFirst()).allSatisfy({
      ($0.purchaseDate, $0.id) <= ($1.purchaseDate, $1.id)
    }) {
      rows.sort { ($0.purchaseDate, $0.id) < ($1.purchaseDate, $1.id) }
    }
    cachedHistoryOrder = rows
    return rows
  }

  /// The transaction an id names: 4000006 when it is not an id, 4040010 when there is none.
  func transaction(_ text: String) throws(AppStoreError) -> Transaction {
    guard !text.isEmpty, text.utf8.allSatisfy({ $0 >= 0x30 && $0 <= 0x39 }),
      let id = UInt64(text)
    else { throw .invalidTransactionID }
    guard let transaction = journaled.session.transaction(id) else {
      throw .transactionIDNotFound
    }
    return transaction
  }

  func sign(_ transaction: Transaction) throws(AppStoreError) -> String {
    do {
      return try signer.sign(transaction, signedDate: now, for: .server)
    } catch {
      throw AppStoreError(status: 500, code: 5_000_000, message: "An unknown error occurred.")
    }
  }

  private func json(_ value: JSONValue, status: Int = 200) -> ServerResponse {
    ServerResponse(status: status, body: Array(JSONWriter.compact(value).utf8))
  }
}
