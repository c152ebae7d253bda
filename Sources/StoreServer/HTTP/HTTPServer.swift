import HTTPTypes
import Hummingbird
import Logging
import NIOCore
import NIOPosix
import ServiceLifecycle

/// An HTTP/1.1 server on Hummingbird over a router, with a time limit for a request to arrive
/// whole and a graceful shutdown. A handler answers when it likes: the server's loop goes on
/// reading and answering other connections meanwhile.
public final class HTTPServer: Sendable {
  /// The largest body read; a larger one is refused with 413.
  public static let bodyLimit = 1 << 20
  /// The largest body an image upload takes (a 3840 × 2160 PNG).
  public static let imageBodyLimit = 32 << 20

  /// The largest body a request to `path` may send.
  static func bodyLimit(for path: String) -> Int {
    path.hasPrefix("/inApps/v1/messaging/image/") ? imageBodyLimit : bodyLimit
  }

  private let group: MultiThreadedEventLoopGroup
  private let services: ServiceGroup
  /// Completed when the server's task ended (stopped, or failed to start).
  private let stopped: EventLoopPromise<Void>
  /// The port it listens on (the one picked when asked for port 0).
  public let port: Int

  /// Starts listening on `host:port`.
  ///
  /// - Parameters:
  ///   - timeout: how long a request may take to arrive whole once its head came (408 then);
  ///     a connection that sends nothing for a little longer is closed.
  ///   - router: the routes and their middleware.
  ///   - executor: where its tasks run (a test's thread of its own, so that an in-process
  ///     server answers while the test process's shared pool is busy); `nil` for the shared one.
  /// - Throws: when it cannot listen there.
  init(
    host: String, port: Int, timeout: Duration, router: Router<ServerContext>,
    executor: (any TaskExecutor)? = nil
  ) throws {
    let group = MultiThreadedEventLoopGroup(numberOfThreads: 1)
    self.group = group
    let loop = group.next()
    let connections = Connections(limit: Connections.limitForThisProcess(), loop: loop)
    let bound = loop.makePromise(of: Int.self)
    stopped = loop.makePromise(of: Void.self)
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
      onServerRunning: { bound.succeed($0.localAddress?.port ?? 0) },
      eventLoopGroupProvider: .shared(group), logger: quiet)
    services = ServiceGroup(configuration: .init(services: [application], logger: quiet))
    let services = services
    let stopped = stopped
    let serve: @Sendable () async -> Void = {
      do {
        try await services.run()
        // Stopped before it ever listened (its port is never told).
        bound.fail(ChannelError.ioOnClosedChannel)
      } catch {
        bound.fail(error)
      }
      stopped.succeed()
    }
    if #available(macOS 15, *), let executor {
      Task.detached(executorPreference: executor) { await serve() }
    } else {
      Task.detached { await serve() }
    }
    // A synchronous start (the inspector listens before it takes the terminal): NIO's wait,
    // which refuses to run on an event loop, for the port or the reason there is none.
    do {
      self.port = try bound.futureResult.wait()
    } catch {
      try? stopped.futureResult.wait()
      try? group.syncShutdownGracefully()
      throw error
    }
  }

  /// Stops listening, lets the requests under way finish, and closes the loop; closing again
  /// does nothing. Blocks its thread: not for the cooperative pool (``close()-async``).
  public func close() {
    Task { await services.triggerGracefulShutdown() }
    try? stopped.futureResult.wait()
    try? group.syncShutdownGracefully()
  }

  /// Stops listening, lets the requests under way finish, and closes the loop, awaiting each.
  public func close() async {
    await services.triggerGracefulShutdown()
    try? await stopped.futureResult.get()
    try? await group.shutdownGracefully()
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
