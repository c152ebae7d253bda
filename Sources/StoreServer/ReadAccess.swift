import NIOConcurrencyHelpers
import StoreCommands
import StoreConfiguration
import StoreSimulation

/// Who may call an endpoint: the App Store Server API's token on every `/inApps` path, the
/// control token (or else the API's) on the control endpoint. A value, checked on any thread.
struct AccessGate: Sendable {
  /// Who may call the App Store Server API.
  let authentication: APIAuthentication
  /// The bearer token the control endpoint asks for; `nil`: the App Store Server API's token
  /// when a key is registered, else none.
  let controlToken: String?
  let wall: @Sendable () -> Instant

  /// The answer refusing `request` (401), or `nil` when it may go on.
  func refusal(_ request: ServerRequest, _ match: RouteMatch) -> ServerResponse? {
    if request.path.split(separator: "/").first == "inApps",
      let refusal = authentication.refusal(of: request.headers["authorization"], now: wall())
    {
      // Apple answers 401 with no body.
      return ServerResponse(status: 401, body: [], note: refusal)
    }
    guard case .found(let route, _) = match, route.access == .control,
      let refusal = controlRefusal(request.headers["authorization"])
    else { return nil }
    return ServerResponse(
      status: 401,
      body: Array(
        JSONWriter.compact(.object(JSONObject([JSONMember("error", .string(refusal))]))).utf8),
      note: refusal)
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
}

/// The reads of a served session, answered on any thread from the session as last committed,
/// so that no read waits for a command under way (a control request of a million events, a
/// long `advance`): a read sees what every answered write did, and nothing that is not yet in
/// the journal.
public final class ReadAccess: Sendable {
  let gate: AccessGate
  private let committed: NIOLockedValueBox<SessionReader>

  init(gate: AccessGate, reader: SessionReader) {
    self.gate = gate
    committed = NIOLockedValueBox(reader)
  }

  /// The reader of the session as last committed.
  var reader: SessionReader { committed.withLockedValue { $0 } }

  /// Makes `reader` the one reads answer from (the journal holds what it shows).
  func publish(_ reader: SessionReader) { committed.withLockedValue { $0 = reader } }

  /// Answers a read route: refused, or read from the last committed session.
  func answer(
    _ request: ServerRequest, _ match: RouteMatch,
    read: (inout SessionReader, ServerRequest, [String]) throws -> ServerResponse
  ) -> ServerResponse {
    if let refusal = gate.refusal(request, match) { return refusal }
    guard case .found(_, let parameters) = match else {
      if case .refused(let error) = match { return error.response }
      return AppStoreError(status: 500, code: 5_000_000, message: "no route").response
    }
    var reader = self.reader
    return ServedSession.answering {
      try read(&reader, request, parameters)
    }
  }
}

/// Hands ``ReadAccess`` each committed state of the host's session: the session a command left
/// is kept when it finishes, and published once the journal holds it.
final class CommittedReads: CommandObserver {
  private unowned let host: CommandHost
  private let access: ReadAccess
  private var pending: SessionReader

  init(host: CommandHost, access: ReadAccess) {
    self.host = host
    self.access = access
    pending = access.reader
  }

  func finished(_ outcome: CommandOutcome, session: Session) {
    pending = SessionReader(
      base: session, revision: host.revision, signer: pending.signer, outbox: pending.outbox,
      shared: pending.shared)
  }

  func publish() throws { access.publish(pending) }
}
