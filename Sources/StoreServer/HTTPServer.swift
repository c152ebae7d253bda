import Dispatch
import HTTPTypes
import Hummingbird
import Logging
import NIOCore
import NIOPosix
import ServiceLifecycle

/// An HTTP/1.1 server on Hummingbird: a route table (each endpoint a method and a path with
/// `{parameters}`), a body limit answered from the headers, a time limit for a request to arrive
/// whole, a request log, and a graceful shutdown. A handler replies when it likes, from any
/// thread: the server's loop goes on reading and answering other connections meanwhile.
public final class HTTPServer: Sendable {
  /// Answers a request by calling its second argument with the response, once.
  public typealias Handler =
    @Sendable (
      ServerRequest, _ reply: @escaping @Sendable (ServerResponse) -> Void
    ) -> Void

  /// One route: a method, a path (`inApps/v1/transactions/{transactionId}`) and its handler,
  /// which gets the path's parameters in order.
  public struct Endpoint: Sendable {
    /// `GET`, `POST` …
    public var method: String
    /// The path; `{name}` segments are parameters.
    public var path: String
    /// Answers a request with its parameters.
    public var answer:
      @Sendable (
        ServerRequest, _ parameters: [String],
        _ reply: @escaping @Sendable (ServerResponse) -> Void
      ) -> Void

    /// An endpoint.
    public init(
      method: String, path: String,
      answer:
        @escaping @Sendable (
          ServerRequest, [String], @escaping @Sendable (ServerResponse) -> Void
        ) -> Void
    ) {
      self.method = method
      self.path = path
      self.answer = answer
    }
  }

  /// The largest body read; a larger one is refused with 413.
  public static let bodyLimit = 1 << 20

  private let group: MultiThreadedEventLoopGroup
  private let services: ServiceGroup
  private let stopped = DispatchSemaphore(value: 0)
  /// The port it listens on (the one picked when asked for port 0).
  public let port: Int

  /// Starts listening on `host:port`.
  ///
  /// - Parameters:
  ///   - timeout: how long a request may take to arrive whole once its head came (408 then);
  ///     a connection that sends nothing for a little longer is closed.
  ///   - endpoints: the route table.
  ///   - unmatched: answers a request no endpoint matches (a 404 or 405 of its own).
  ///   - log: hears each request answered.
  /// - Throws: when it cannot listen there.
  public init(
    host: String, port: Int, timeout: Duration = .seconds(30), endpoints: [Endpoint],
    unmatched: @escaping Handler, log: @escaping @Sendable (RequestRecord) -> Void
  ) throws {
    let router = Router(context: ServerContext.self)
    router.add(middleware: LogMiddleware(log: log))
    router.add(middleware: BodyLimitMiddleware())
    router.add(middleware: UnmatchedMiddleware(timeout: timeout, answer: unmatched))
    for endpoint in endpoints {
      let route = Route.routerPath(endpoint.path)
      router.on(
        RouterPath(route.path), method: HTTPRequest.Method(endpoint.method) ?? .get
      ) { request, context in
        let parameters = route.names.map { context.parameters.get($0) ?? "" }
        return try await Self.respond(to: request, context: context, timeout: timeout) {
          endpoint.answer($0, parameters, $1)
        }
      }
    }
    let group = MultiThreadedEventLoopGroup(numberOfThreads: 1)
    self.group = group
    let connections = Connections(limit: Connections.limitForThisProcess())
    let bound = BindResult()
    let quiet = Logger(label: "storekeeper.serve") { _ in SwiftLogNoOpLogHandler() }
    let application = Application(
      router: router,
      server: .http1(
        configuration: .init(
          additionalChannelHandlers: [ConnectionWatch(connections)],
          // Past the request's own time limit: a 408 is answered before the connection goes.
          idleTimeout: .nanoseconds(timeout.nanoseconds + 1_000_000_000),
          // Headers as large as a body may be: an oversized token reaches the authentication,
          // which refuses it (401) as any other bad token, instead of the parser (400).
          httpDecoderConfiguration: .init(
            maxHeaderFieldSize: Self.bodyLimit, maxHeaderListSize: Self.bodyLimit))),
      configuration: .init(address: .hostname(host, port: port), backlog: 1024),
      onServerRunning: { bound.set(.success($0.localAddress?.port ?? 0)) },
      eventLoopGroupProvider: .shared(group), logger: quiet)
    services = ServiceGroup(configuration: .init(services: [application], logger: quiet))
    let services = services
    let stopped = stopped
    Task.detached {
      do {
        try await services.run()
      } catch {
        bound.set(.failure(error))
      }
      stopped.signal()
    }
    switch bound.wait() {
    case .success(let port): self.port = port
    case .failure(let error):
      try? group.syncShutdownGracefully()
      throw error
    }
  }

  /// Stops listening, lets the requests under way finish, and closes the loop; closing again
  /// does nothing.
  public func close() {
    Task { await services.triggerGracefulShutdown() }
    stopped.wait()
    stopped.signal()
    try? group.syncShutdownGracefully()
  }

  /// Reads the body (at most ``bodyLimit`` bytes, within `timeout`), hands the request to
  /// `handler` and waits for its reply.
  static func respond(
    to request: Request, context: ServerContext, timeout: Duration,
    _ handler: @escaping Handler
  ) async throws -> Response {
    let body: [UInt8]
    do {
      body = try await readBody(request.body, timeout: timeout)
    } catch let refusal as Refusal {
      context.note.text = refusal.note
      return Response(refusal.response, closing: true)
    }
    var headers: [String: String] = [:]
    for field in request.headers { headers[field.name.canonicalName] = field.value }
    let served = ServerRequest(
      method: request.method.rawValue, target: request.uri.string, headers: headers, body: body)
    let response = await withCheckedContinuation { continuation in
      handler(served) { continuation.resume(returning: $0) }
    }
    context.note.text = response.note
    return Response(response, closing: false)
  }

  /// A request refused before it reached its handler.
  struct Refusal: Error {
    var response: ServerResponse
    var note: String

    static let tooLarge = Refusal(
      response: AppStoreError.payloadTooLarge.response,
      note: "the body is larger than \(HTTPServer.bodyLimit) bytes")
    static let tooSlow = Refusal(
      response: AppStoreError.requestTimeout.response, note: "the request did not arrive whole")
  }

  /// The whole body, or ``Refusal`` when it is too large or does not arrive in time.
  private static func readBody(_ body: RequestBody, timeout: Duration) async throws -> [UInt8] {
    try await withThrowingTaskGroup(of: [UInt8]?.self) { group in
      group.addTask {
        var bytes: [UInt8] = []
        for try await buffer in body {
          guard bytes.count + buffer.readableBytes <= bodyLimit else { throw Refusal.tooLarge }
          bytes += buffer.readableBytesView
        }
        return bytes
      }
      group.addTask {
        try await Task.sleep(for: timeout)
        return nil
      }
      defer { group.cancelAll() }
      guard let first = try await group.next(), let bytes = first else { throw Refusal.tooSlow }
      return bytes
    }
  }
}

/// Where the port arrives from the server's task. `@unchecked Sendable`: `result` is written
/// once before `ready` is signalled and read only after waiting for it.
private final class BindResult: @unchecked Sendable {
  private let ready = DispatchSemaphore(value: 0)
  private var result: Result<Int, any Error>?

  func set(_ result: Result<Int, any Error>) {
    guard self.result == nil else { return }
    self.result = result
    ready.signal()
  }

  func wait() -> Result<Int, any Error> {
    ready.wait()
    return result!
  }
}

/// What a request carries through the middlewares: the note its log line gets.
struct ServerContext: RequestContext {
  var coreContext: CoreRequestContextStorage
  /// Why, for the request log (set by whoever answers).
  let note = Note()

  /// `@unchecked Sendable`: one request's task writes it and then reads it, never two at once.
  final class Note: @unchecked Sendable {
    var text: String?
  }

  init(source: ApplicationRequestContextSource) {
    coreContext = .init(source: source)
  }
}

/// Logs each request answered: method, path, status, milliseconds, and the note.
private struct LogMiddleware: RouterMiddleware {
  let log: @Sendable (RequestRecord) -> Void

  func handle(
    _ request: Request, context: ServerContext,
    next: (Request, ServerContext) async throws -> Response
  ) async throws -> Response {
    let started = ContinuousClock.now
    let response = try await next(request, context)
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

/// Refuses a body announced larger than the limit as soon as the headers are read.
private struct BodyLimitMiddleware: RouterMiddleware {
  func handle(
    _ request: Request, context: ServerContext,
    next: (Request, ServerContext) async throws -> Response
  ) async throws -> Response {
    if let length = request.headers[.contentLength].flatMap({ Int($0) }),
      length > HTTPServer.bodyLimit
    {
      context.note.text = HTTPServer.Refusal.tooLarge.note
      return Response(HTTPServer.Refusal.tooLarge.response, closing: true)
    }
    return try await next(request, context)
  }
}

/// Hands a request no route matched to the server's own answer (its 404 or 405).
private struct UnmatchedMiddleware: RouterMiddleware {
  let timeout: Duration
  let answer: HTTPServer.Handler

  func handle(
    _ request: Request, context: ServerContext,
    next: (Request, ServerContext) async throws -> Response
  ) async throws -> Response {
    do {
      return try await next(request, context)
    } catch let error as HTTPError where error.status == .notFound {
      return try await HTTPServer.respond(
        to: request, context: context, timeout: timeout, answer)
    }
  }
}

extension Response {
  /// Hummingbird's response for ours; `closing`, the connection closes once it is written. A
  /// streamed answer goes out chunked, each chunk as it comes.
  init(_ response: ServerResponse, closing: Bool) {
    var fields = HTTPFields()
    fields[.contentType] = response.contentType
    for (name, value) in response.headers.sorted(by: { $0.key < $1.key }) {
      if let field = HTTPField.Name(name) { fields[field] = value }
    }
    if closing { fields[.connection] = "close" }
    guard let stream = response.stream else {
      fields[.contentLength] = String(response.body.count)
      self.init(
        status: .init(code: response.status), headers: fields,
        body: .init(byteBuffer: ByteBuffer(bytes: response.body)))
      return
    }
    self.init(
      status: .init(code: response.status), headers: fields,
      body: ResponseBody { writer in
        // However it ends (the client gone, the task cancelled), nothing more is written.
        defer { stream.drop() }
        for await chunk in stream.chunks {
          try await writer.write(ByteBuffer(bytes: chunk))
          stream.consumed(chunk.count)
        }
        try await writer.finish(nil)
      })
  }
}

extension Duration {
  /// The duration in whole nanoseconds (saturating).
  var nanoseconds: Int64 {
    let (seconds, attoseconds) = components
    let (whole, overflow) = seconds.multipliedReportingOverflow(by: 1_000_000_000)
    return overflow ? .max : whole.addingReportingOverflow(attoseconds / 1_000_000_000).partialValue
  }
}
