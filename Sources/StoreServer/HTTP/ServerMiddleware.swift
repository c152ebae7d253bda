import HTTPTypes
import Hummingbird
import NIOConcurrencyHelpers
import NIOCore

/// Logs each request answered: method, path, status, milliseconds, and the note.
struct LogMiddleware: RouterMiddleware {
  let log: @Sendable (RequestRecord) -> Void

  func handle(
    _ request: Request, context: ServerContext,
    next: (Request, ServerContext) async throws -> Response
  ) async throws -> Response {
    let started = ContinuousClock.now
    let response: Response
    do {
      response = try await next(request, context)
    } catch let error as any HTTPResponseError {
      response = try error.response(from: request, context: context)
    }
    let refusedEarly = response.status == .contentTooLarge || response.status == .requestTimeout
    let elapsed = ContinuousClock.now - started
    log(
      RequestRecord(
        method: request.method.rawValue,
        path: refusedEarly ? request.uri.string : request.uri.path,
        status: response.status.code,
        milliseconds: refusedEarly ? nil : elapsed.nanoseconds / 1_000_000,
        note: context.note.text))
    return response
  }
}

/// Reads every request's body whole before anything else looks at it (as the App Store reads
/// a request before judging it): a body announced larger than the limit is refused as soon as
/// the headers are read, one that grows past it or does not arrive within `timeout` as it
/// comes; the rest go on with the body in memory.
struct BodyMiddleware: RouterMiddleware {
  /// How long a request may take to arrive whole.
  let timeout: Duration

  func handle(
    _ request: Request, context: ServerContext,
    next: (Request, ServerContext) async throws -> Response
  ) async throws -> Response {
    let limit = HTTPServer.bodyLimit(for: request.uri.path)
    if let length = request.headers[.contentLength].flatMap({ Int($0) }), length > limit {
      throw BodyRefusal.tooLarge(limit)
    }
    var request = request
    request.body = RequestBody(
      buffer: ByteBuffer(
        bytes: try await Self.body(of: request.body, limit: limit, timeout: timeout)))
    return try await next(request, context)
  }

  /// The whole body, or ``BodyRefusal`` when it is too large or does not arrive in time.
  private static func body(
    of body: RequestBody, limit: Int, timeout: Duration
  ) async throws
    -> [UInt8]
  {
    try await withThrowingTaskGroup(of: [UInt8]?.self) { group in
      group.addTask {
        var bytes: [UInt8] = []
        for try await buffer in body {
          guard bytes.count + buffer.readableBytes <= limit else {
            throw BodyRefusal.tooLarge(limit)
          }
          bytes += buffer.readableBytesView
        }
        return bytes
      }
      group.addTask {
        try await Task.sleep(for: timeout)
        return nil
      }
      defer { group.cancelAll() }
      guard let first = try await group.next(), let bytes = first else {
        throw BodyRefusal.tooSlow
      }
      return bytes
    }
  }
}

/// Answers a request no route took as the App Store Server API would: 405 with `Allow` when its
/// path takes other methods, else 404; an
/// `/inApps` path asks for a token first, as every route there does.
struct UnmatchedMiddleware: RouterMiddleware {
  /// The routes, once they are all added (the middleware comes before them).
  let routes: RouteList
  let authentication: AppStoreAuthentication

  func handle(
    _ request: Request, context: ServerContext,
    next: (Request, ServerContext) async throws -> Response
  ) async throws -> Response {
    do {
      return try await next(request, context)
    } catch let error as HTTPError where error.status == .notFound {
      let path = request.uri.path
      let segments = path.split(separator: "/")
      guard segments.first == "inApps" else { throw answer(request.method, path, segments) }
      return try await authentication.handle(request, context: context) { _, _ in
        throw answer(request.method, path, segments)
      }
    }
  }

  private func answer(
    _ method: HTTPRequest.Method, _ path: String, _ segments: [Substring]
  ) -> AppStoreError {
    let allowed = routes.methods(taking: segments)
    guard allowed.isEmpty else {
      return .methodNotAllowed(method.rawValue, path, allowed: allowed)
    }
    return .notFound(method.rawValue, path)
  }
}

/// The router's routes, for the answer to a request none took: kept once the last route is
/// added, before the server starts.
final class RouteList: Sendable {
  private let routes = NIOLockedValueBox<[(path: RouterPath, method: String)]>([])
  /// The order an `Allow` header names methods in.
  private static let methodOrder = ["GET", "HEAD", "PUT", "POST", "PATCH", "DELETE"]

  /// Keeps the router's routes.
  func keep(_ router: Router<ServerContext>) {
    let described = router.routes.map { (path: $0.path, method: $0.method.rawValue) }
    routes.withLockedValue { $0 = described }
  }

  /// The methods of the routes whose path `segments` match, GET first, then PUT, then POST.
  func methods(taking segments: [Substring]) -> [String] {
    let methods = routes.withLockedValue { $0 }.filter { route in
      route.path.components.count == segments.count
        && zip(route.path.components, segments).allSatisfy { $0 ~= $1 }
    }.map(\.method)
    return methods.sorted {
      (Self.methodOrder.firstIndex(of: $0) ?? .max) < (Self.methodOrder.firstIndex(of: $1) ?? .max)
    }
  }
}

/// A request refused before its handler read it: its body is too large or did not arrive in
/// time. The connection closes after the answer.
struct BodyRefusal: HTTPResponseError {
  var error: AppStoreError
  var note: String

  /// A body over `limit` bytes.
  static func tooLarge(_ limit: Int) -> BodyRefusal {
    BodyRefusal(
      error: .payloadTooLarge(limit: limit), note: "the body is larger than \(limit) bytes")
  }
  static let tooSlow = BodyRefusal(
    error: .requestTimeout, note: "the request did not arrive whole")

  var status: HTTPResponse.Status { error.status }

  func response(from request: Request, context: some RequestContext) throws -> Response {
    (context as? ServerContext)?.note.text = note
    return Response(error.response, closing: true)
  }
}
