import Foundation
import NIOCore
import NIOHTTPTypes

/// The open connections, so that their number stays below what the process may open: at the
/// limit, a new connection takes the place of the one idle longest (none in the middle of a
/// request is closed), or is closed itself when every one is busy. Descriptors stay for the
/// journal, the notifications' connections and the answers. `@unchecked Sendable`: it is used
/// only on the server's one event loop, so its state is never touched from two threads.
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

/// Watches one connection for ``Connections`` (busy from a request's head to its answer's end)
/// and closes it after an answer that says `Connection: close` (a body too large, a request too
/// slow): its output first, the rest a moment later, so that a client still sending reads the
/// answer before the connection goes.
final class ConnectionWatch: ChannelDuplexHandler, RemovableChannelHandler {
  typealias InboundIn = HTTPRequestPart
  typealias InboundOut = HTTPRequestPart
  typealias OutboundIn = HTTPResponsePart
  typealias OutboundOut = HTTPResponsePart

  private let connections: Connections
  private var closesAfterAnswer = false

  init(_ connections: Connections) { self.connections = connections }

  func handlerAdded(context: ChannelHandlerContext) { connections.add(context.channel) }

  func channelRead(context: ChannelHandlerContext, data: NIOAny) {
    if case .head = unwrapInboundIn(data) { connections.busy(context.channel) }
    context.fireChannelRead(data)
  }

  func write(context: ChannelHandlerContext, data: NIOAny, promise: EventLoopPromise<Void>?) {
    switch unwrapOutboundIn(data) {
    case .head(let head):
      if head.headerFields[.connection]?.lowercased() == "close" { closesAfterAnswer = true }
      context.write(data, promise: promise)
    case .body: context.write(data, promise: promise)
    case .end:
      connections.idle(context.channel)
      guard closesAfterAnswer else {
        context.write(data, promise: promise)
        return
      }
      let written = context.eventLoop.makePromise(of: Void.self)
      written.futureResult.cascade(to: promise)
      context.writeAndFlush(data, promise: written)
      let channel = context.channel
      written.futureResult.whenComplete { _ in
        channel.close(mode: .output, promise: nil)
        channel.eventLoop.scheduleTask(in: .seconds(2)) { channel.close(promise: nil) }
      }
    }
  }
}
