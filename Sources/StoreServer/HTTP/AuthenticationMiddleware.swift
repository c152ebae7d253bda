import Hummingbird
import StoreJSON
import StoreSimulation

/// Who may call a served session: the App Store Server API's authentication, and the control
/// endpoint's token. Set by the session (the inspector's is known once its session opens).
struct AccessGate: Sendable {
  /// Who may call the App Store Server API.
  let authentication: APIAuthentication
  /// The bearer token the control endpoint asks for; `nil`: the App Store Server API's token
  /// when a key is registered, else none.
  let controlToken: String?
  /// The wall clock tokens are judged by.
  let wall: @Sendable () -> Instant
}

/// The App Store Server API's authentication, on every `/inApps` route: a bearer JWT as Apple
/// asks for it (``APIAuthentication``), put in the context; else 401 with no body, as Apple
/// answers, the reason in the request log.
struct AppStoreAuthentication: RouterMiddleware {
  let access: SessionAccess

  func handle(
    _ request: Request, context: ServerContext,
    next: (Request, ServerContext) async throws -> Response
  ) async throws -> Response {
    let gate = try access.gate()
    switch gate.authentication.verify(request.headers[.authorization], now: gate.wall()) {
    case .success(let token):
      var context = context
      context.token = token
      return try await next(request, context)
    case .failure(let refusal):
      context.note.text = refusal.reason
      return Response(ServerResponse(status: 401, body: []), closing: false)
    }
  }
}

/// The control endpoint's authentication: the bearer token `--control-token` set, or else (when
/// an App Store Server API key is registered) a token that API accepts; else 401 with the reason
/// in a JSON body.
struct ControlAuthentication: RouterMiddleware {
  let access: SessionAccess

  func handle(
    _ request: Request, context: ServerContext,
    next: (Request, ServerContext) async throws -> Response
  ) async throws -> Response {
    guard let refusal = Self.refusal(request.headers[.authorization], by: try access.gate())
    else {
      return try await next(request, context)
    }
    context.note.text = refusal
    let body = JSONValue.object(JSONObject([JSONMember("error", .string(refusal))]))
    return Response(
      ServerResponse(status: 401, body: Array(JSONWriter.compact(body).utf8)), closing: false)
  }

  /// Why the control endpoint refuses an `Authorization`, or `nil`.
  private static func refusal(_ authorization: String?, by gate: AccessGate) -> String? {
    if let controlToken = gate.controlToken {
      let given = Array((authorization ?? "").utf8)
      let expected = Array("Bearer \(controlToken)".utf8)
      // The same time whatever the first difference.
      var difference = given.count ^ expected.count
      for index in expected.indices {
        difference |= Int(expected[index] ^ (index < given.count ? given[index] : 0))
      }
      return difference == 0 ? nil : "the control endpoint needs \"Bearer <--control-token>\""
    }
    guard gate.authentication.key != nil else { return nil }
    return gate.authentication.refusal(of: authorization, now: gate.wall()).map {
      "the control endpoint needs an App Store Server API token (--api-key): \($0)"
    }
  }
}
