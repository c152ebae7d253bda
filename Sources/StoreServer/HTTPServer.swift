import NIOConcurrencyHelpers
import NIOCore
import NIOHTTP1
import NIOPosix

/// A request as the router sees it: method, path, query, headers and the whole body.
public struct ServerRequest: Sendable {
  /// `GET`, `POST` …
  public var method: String
  /// The path without the query, percent-decoded segments left as sent.
  public var path: String
  /// The query's parameters; a repeated name keeps every value in order.
  public var query: [String: [String]]
  /// Header names lowercased.
  public var headers: [String: String]
  /// The body.
  public var body: [UInt8]

  /// A request.
  public init(
    method: String, path: String, query: [String: [String]] = [:], headers: [String: String] = [:],
    body: [UInt8] = []
  ) {
    self.method = method
    self.path = path
    self.query = query
    self.headers = headers
    self.body = body
  }

  /// A request from its target (`/path?name=value&…`).
  init(method: String, target: String, headers: [String: String], body: [UInt8]) {
    let parts = target.split(separator: "?", maxSplits: 1, omittingEmptySubsequences: false)
    var query: [String: [String]] = [:]
    if parts.count == 2 {
      for pair in parts[1].split(separator: "&") {
        let nameValue = pair.split(separator: "=", maxSplits: 1, omittingEmptySubsequences: false)
        let name = Self.decode(nameValue[0])
        query[name, default: []].append(nameValue.count == 2 ? Self.decode(nameValue[1]) : "")
      }
    }
    self.init(method: method, path: String(parts[0]), query: query, headers: headers, body: body)
  }

  /// `%41` and `+` decoded; a malformed escape is kept as written.
  private static func decode(_ text: Substring) -> String {
    var bytes: [UInt8] = []
    var index = text.utf8.startIndex
    let utf8 = text.utf8
    while index < utf8.endIndex {
      let byte = utf8[index]
      if byte == UInt8(ascii: "%"), utf8.distance(from: index, to: utf8.endIndex) >= 3,
        let value = UInt8(
          String(
            decoding: utf8[utf8.index(after: index)..<utf8.index(index, offsetBy: 3)], as: UTF8.self
          ),
          radix: 16)
      {
        bytes.append(value)
        index = utf8.index(index, offsetBy: 3)
        continue
      }
      bytes.append(byte == UInt8(ascii: "+") ? UInt8(ascii: " ") : byte)
      index = utf8.index(after: index)
    }
    return String(decoding: bytes, as: UTF8.self)
  }
}

/// A response: a status, a content type and a body.
public struct ServerResponse: Sendable, Equatable {
  /// The HTTP status.
  public var status: Int
  /// `application/json` …
  public var contentType: String
  /// The body.
  public var body: [UInt8]
  /// Why, for the request log only (a 401's reason: Apple's answer has no body).
  public var note: String?
  /// Headers besides the content type and length (a 405's `Allow`).
  public var headers: [String: String] = [:]

  /// A response.
  public init(
    status: Int, contentType: String = "application/json", body: [UInt8], note: String? = nil
  ) {
    self.status = status
    self.contentType = contentType
    self.body = body
    self.note = note
  }
}

/// An HTTP/1.1 server on one event loop: each request is read whole (at most ``bodyLimit``
/// bytes), handed to `handler`, and answered when the handler replies — from any thread, at any
/// time: the loop goes on reading and answering other connections meanwhile.
public final class HTTPServer: Sendable {
  /// The largest body read; a larger one is refused with 413.
  public static let bodyLimit = 1 << 20
  private let group: MultiThreadedEventLoopGroup
  private let channel: any Channel
  private let closed = NIOLockedValueBox(false)

  /// Answers a request by calling its second argument with the response, once.
  public typealias Handler =
    @Sendable (
      ServerRequest, _ reply: @escaping @Sendable (ServerResponse) -> Void
    ) -> Void

  /// The port it listens on (the one picked when asked for port 0).
  public var port: Int { channel.localAddress?.port ?? 0 }

  /// Starts listening on `host:port`.
  ///
  /// - Parameter handler: answers a request; `log` hears each one (method, path, status, ms).
  /// - Parameter timeout: how long a request may take to arrive whole, counted from the
  ///   connection's start or the previous answer: a slow client gets 408 (or, before its
  ///   request's head, just the close) and the others are not held up.
  public init(
    host: String, port: Int, timeout: Duration = .seconds(30),
    handler: @escaping Handler, log: @escaping @Sendable (RequestRecord) -> Void
  ) throws {
    let group = MultiThreadedEventLoopGroup(numberOfThreads: 1)
    self.group = group
    let connections = Connections(limit: Connections.limitForThisProcess())
    let bootstrap = ServerBootstrap(group: group)
      .serverChannelOption(ChannelOptions.backlog, value: 1024)
      .serverChannelOption(ChannelOptions.socketOption(.so_reuseaddr), value: 1)
      // Out of descriptors, accepting again at once would spin: wait a moment first.
      .serverChannelInitializer { channel in
        channel.eventLoop.makeCompletedFuture {
          try channel.pipeline.syncOperations.addHandler(
            AcceptBackoffHandler(shouldForwardIOErrorCaught: false) { _ in .milliseconds(100) })
        }
      }
      .childChannelInitializer { channel in
        channel.eventLoop.makeCompletedFuture {
          connections.add(channel)
          try channel.pipeline.syncOperations.configureHTTPServerPipeline()
          try channel.pipeline.syncOperations.addHandler(
            RequestHandler(
              timeout: .nanoseconds(timeout.nanoseconds), connections: connections,
              handler: handler, log: log))
        }
      }
    do {
      channel = try bootstrap.bind(host: host, port: port).wait()
    } catch {
      try? group.syncShutdownGracefully()
      throw error
    }
  }

  /// A server whose handler answers on the loop at once (a test's backend).
  public convenience init(
    host: String, port: Int, timeout: Duration = .seconds(30),
    answering answer: @escaping @Sendable (ServerRequest) -> ServerResponse,
    log: @escaping @Sendable (RequestRecord) -> Void
  ) throws {
    try self.init(
      host: host, port: port, timeout: timeout, handler: { $1(answer($0)) }, log: log)
  }

  /// Stops listening and closes the loop; closing again does nothing.
  public func close() {
    guard
      !closed.withLockedValue({ was in
        defer { was = true }; return was
      })
    else { return }
    try? channel.close().wait()
    try? group.syncShutdownGracefully()
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

/// The open connections, so that their number stays below what the process may open: at the
/// limit, a new connection takes the place of the one idle longest (none in the middle of a
/// request is closed), or is closed itself when every one is busy. Descriptors stay for the
/// journal, the notifications' connections and the answers. Used on the server's one loop.
final class Connections: @unchecked Sendable {
  private let limit: Int
  /// Open connections in the order they last became idle (`nil` while busy).
  private var idleSince: [ObjectIdentifier: (channel: any Channel, since: UInt64?)] = [:]
  private var ticks: UInt64 = 0

  init(limit: Int) { self.limit = max(1, limit) }

  /// The process's descriptor limit less what the rest of it needs (64, or a quarter of a small
  /// limit).
  static func limitForThisProcess() -> Int {
    var limits = rlimit()
    guard getrlimit(Int32(RLIMIT_NOFILE.rawValue), &limits) == 0 else { return 1_000 }
    let soft = Int(clamping: limits.rlim_cur)
    return max(1, soft - max(16, min(64, soft / 4)))
  }

  /// A new connection: room is made for it, or it is closed.
  func add(_ channel: any Channel) {
    if idleSince.count >= limit {
      let idle = idleSince.values.compactMap { entry in entry.since.map { (entry.channel, $0) } }
      guard let oldest = idle.min(by: { $0.1 < $1.1 }) else {
        channel.close(promise: nil)
        return
      }
      idleSince[ObjectIdentifier(oldest.0)] = nil
      oldest.0.close(promise: nil)
    }
    ticks += 1
    idleSince[ObjectIdentifier(channel)] = (channel, ticks)
    channel.closeFuture.whenComplete { [weak self] _ in
      self?.idleSince[ObjectIdentifier(channel)] = nil
    }
  }

  /// A request began arriving on `channel`.
  func busy(_ channel: any Channel) {
    idleSince[ObjectIdentifier(channel)]?.since = nil
  }

  /// `channel` waits for its next request.
  func idle(_ channel: any Channel) {
    ticks += 1
    idleSince[ObjectIdentifier(channel)]?.since = ticks
  }
}

/// Reads a request whole and writes the handler's answer.
private final class RequestHandler: ChannelInboundHandler {
  typealias InboundIn = HTTPServerRequestPart
  typealias OutboundOut = HTTPServerResponsePart

  private let handler: HTTPServer.Handler
  private let log: @Sendable (RequestRecord) -> Void
  private var head: HTTPRequestHead?
  private var body: [UInt8] = []
  /// The request was answered before it was read whole (too large): the rest is not read.
  private var answeredEarly = false
  private let timeout: TimeAmount
  private var deadline: Scheduled<Void>?
  private let connections: Connections

  init(
    timeout: TimeAmount, connections: Connections,
    handler: @escaping HTTPServer.Handler, log: @escaping @Sendable (RequestRecord) -> Void
  ) {
    self.timeout = timeout
    self.connections = connections
    self.handler = handler
    self.log = log
  }

  func channelActive(context: ChannelHandlerContext) {
    startDeadline(context: context)
    context.fireChannelActive()
  }

  /// Gives the next request `timeout` to arrive whole.
  private func startDeadline(context: ChannelHandlerContext) {
    deadline?.cancel()
    let loopBound = NIOLoopBound((self, context), eventLoop: context.eventLoop)
    deadline = context.eventLoop.scheduleTask(in: timeout) {
      let (handler, context) = loopBound.value
      handler.timedOut(context: context)
    }
  }

  func channelInactive(context: ChannelHandlerContext) {
    deadline?.cancel()
    deadline = nil
    context.fireChannelInactive()
  }

  func channelRead(context: ChannelHandlerContext, data: NIOAny) {
    guard !answeredEarly else { return }
    switch unwrapInboundIn(data) {
    case .head(let head):
      self.head = head
      body = []
      connections.busy(context.channel)
      // A body announced larger than the limit is refused as soon as the headers are read.
      if let length = head.headers["content-length"].first.flatMap({ Int($0) }),
        length > HTTPServer.bodyLimit
      {
        refuseTooLarge(context: context)
      }
    case .body(var buffer):
      // A chunked body is refused once it passes the limit.
      guard body.count + buffer.readableBytes <= HTTPServer.bodyLimit else {
        refuseTooLarge(context: context)
        return
      }
      if let bytes = buffer.readBytes(length: buffer.readableBytes) { body += bytes }
    case .end:
      deadline?.cancel()
      deadline = nil
      guard let head else { return }
      let started = NIODeadline.now()
      var headers: [String: String] = [:]
      for (name, value) in head.headers { headers[name.lowercased()] = value }
      let request = ServerRequest(
        method: head.method.rawValue, target: head.uri, headers: headers, body: body)
      self.head = nil
      body = []
      // Answered when the handler answers; the pipeline holds the connection's next request
      // until then.
      let loop = context.eventLoop
      let loopBound = NIOLoopBound((self, context), eventLoop: loop)
      handler(request) { response in
        loop.execute {
          let (handler, context) = loopBound.value
          handler.answer(response, to: request, head, started, context)
        }
      }
    }
  }

  /// Writes the handler's answer and logs it.
  private func answer(
    _ response: ServerResponse, to request: ServerRequest, _ head: HTTPRequestHead,
    _ started: NIODeadline, _ context: ChannelHandlerContext
  ) {
    write(response, keepAlive: head.isKeepAlive, context: context)
    log(
      RequestRecord(
        method: request.method, path: request.path, status: response.status,
        milliseconds: (NIODeadline.now() - started).nanoseconds / 1_000_000,
        note: response.note))
  }

  /// Writes a response; without keep-alive the connection then closes, or (`lingering`, the
  /// client may still be sending) stops writing and closes a moment later, so that the client
  /// reads the answer before the connection goes.
  private func write(
    _ response: ServerResponse, keepAlive: Bool, lingering: Bool = false,
    context: ChannelHandlerContext
  ) {
    var headers = HTTPHeaders()
    headers.add(name: "Content-Type", value: response.contentType)
    headers.add(name: "Content-Length", value: String(response.body.count))
    headers.add(name: "Connection", value: keepAlive ? "keep-alive" : "close")
    for (name, value) in response.headers.sorted(by: { $0.key < $1.key }) {
      headers.add(name: name, value: value)
    }
    let head = HTTPResponseHead(
      version: .http1_1, status: HTTPResponseStatus(statusCode: response.status), headers: headers)
    context.write(wrapOutboundOut(.head(head)), promise: nil)
    var buffer = context.channel.allocator.buffer(capacity: response.body.count)
    buffer.writeBytes(response.body)
    context.write(wrapOutboundOut(.body(.byteBuffer(buffer))), promise: nil)
    let done = context.writeAndFlush(wrapOutboundOut(.end(nil)))
    if keepAlive {
      connections.idle(context.channel)
      startDeadline(context: context)
    } else if lingering {
      let channel = context.channel
      done.whenComplete { _ in
        channel.close(mode: .output, promise: nil)
        channel.eventLoop.scheduleTask(in: .seconds(2)) { channel.close(promise: nil) }
      }
    } else {
      let channel = context.channel
      done.whenComplete { _ in channel.close(promise: nil) }
    }
  }

  /// Answers 413 in Apple's shape at once, without reading the rest, and closes the connection.
  private func refuseTooLarge(context: ChannelHandlerContext) {
    deadline?.cancel()
    deadline = nil
    answeredEarly = true
    let response = AppStoreError.payloadTooLarge.response
    write(response, keepAlive: false, lingering: true, context: context)
    if let head {
      log(
        RequestRecord(
          method: head.method.rawValue, path: head.uri, status: response.status,
          note: "the body is larger than \(HTTPServer.bodyLimit) bytes"))
    }
    self.head = nil
    body = []
  }

  /// A request still incomplete after `timeout`: 408 in Apple's shape once its head has come,
  /// and the connection closes.
  private func timedOut(context: ChannelHandlerContext) {
    deadline = nil
    guard let head else {
      context.close(promise: nil)
      return
    }
    let response = AppStoreError.requestTimeout.response
    write(response, keepAlive: false, context: context)
    log(
      RequestRecord(
        method: head.method.rawValue, path: head.uri, status: response.status,
        note: "the request did not arrive whole"))
    self.head = nil
    body = []
  }

  func errorCaught(context: ChannelHandlerContext, error: any Error) {
    // A request that is not HTTP: NIO's own handler has answered 400; the connection closes.
    context.close(promise: nil)
  }
}
