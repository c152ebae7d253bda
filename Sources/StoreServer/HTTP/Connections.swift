import Foundation
import NIOCore
import NIOHTTPTypes

/// The open connections, so that their number stays below what the process may open: at the
/// limit, a new connection takes the place of the one idle longest, else of the one whose
/// request has been arriving longest (a client trickling its body holds a descriptor without
/// using the server), and is closed itself only when every one is being answered. Descriptors
/// stay for the journal, the notifications' connections and the answers.
/// Its table lives on the server's one event loop (`NIOLoopBoundBox`: reached from any other
/// thread, it stops the process, so a wrong caller cannot go unseen).
final class Connections: Sendable {
  /// What a connection is doing, and since when (a tick of this counter's own clock).
  private enum State {
    /// Waiting for its next request.
    case idle(since: UInt64)
    /// Its request is arriving: head read, body not yet whole.
    case receiving(since: UInt64)
    /// Its request arrived whole and is being answered.
    case answering
  }

  /// The open connections and the clock their states count in.
  private struct Table {
    var open: [ObjectIdentifier: (channel: any Channel, state: State)] = [:]
    var ticks: UInt64 = 0

    mutating func tick() -> UInt64 {
      ticks += 1
      return ticks
    }
  }

  private let limit: Int
  private let table: NIOLoopBoundBox<Table>

  /// Connections of the server whose one event loop is `loop`, at most `limit` of them.
  init(limit: Int, loop: any EventLoop) {
    self.limit = max(1, limit)
    table = .makeBoxSendingValue(Table(), eventLoop: loop)
  }

  /// The process's descriptor limit less those it has open now (its event loops, the
  /// journal, the listening socket) and what it needs later (64, or a quarter of a small limit:
  /// the notifications' connections, files), so that connections are turned away here rather
  /// than by the system, which would leave the server unable to accept at all.
  static func limitForThisProcess() -> Int {
    var limits = rlimit()
    guard getrlimit(Int32(RLIMIT_NOFILE.rawValue), &limits) == 0 else { return 1_000 }
    let soft = Int(clamping: limits.rlim_cur)
    return max(1, soft - openDescriptors(below: soft) - max(16, min(64, soft / 4)))
  }

  /// How many descriptors the process has open (`/proc/self/fd`, else asking each up to
  /// `limit`, at most 65,536).
  static func openDescriptors(below limit: Int) -> Int {
    if let entries = try? FileManager.default.contentsOfDirectory(atPath: "/proc/self/fd") {
      return max(0, entries.count - 1)  // less the one reading the folder
    }
    return (0..<Int32(clamping: min(limit, 65_536))).count { fcntl($0, F_GETFD) != -1 }
  }

  /// A new connection: room is made for it, or it is closed.
  func add(_ channel: any Channel) {
    if table.value.open.count >= limit {
      guard let evicted = longestIdle() ?? longestReceiving() else {
        channel.close(promise: nil)
        return
      }
      table.value.open[ObjectIdentifier(evicted)] = nil
      evicted.close(promise: nil)
    }
    let since = table.value.tick()
    table.value.open[ObjectIdentifier(channel)] = (channel, .idle(since: since))
    channel.closeFuture.whenComplete { [weak self] _ in
      self?.table.value.open[ObjectIdentifier(channel)] = nil
    }
  }

  /// A request began arriving on `channel`.
  func receiving(_ channel: any Channel) { set(channel, .receiving(since: table.value.tick())) }

  /// `channel`'s request arrived whole.
  func answering(_ channel: any Channel) { set(channel, .answering) }

  /// `channel` waits for its next request.
  func idle(_ channel: any Channel) { set(channel, .idle(since: table.value.tick())) }

  private func set(_ channel: any Channel, _ state: State) {
    table.value.open[ObjectIdentifier(channel)]?.state = state
  }

  /// The connection idle longest.
  private func longestIdle() -> (any Channel)? {
    table.value.open.values.compactMap { entry -> (any Channel, UInt64)? in
      if case .idle(let since) = entry.state { (entry.channel, since) } else { nil }
    }.min { $0.1 < $1.1 }?.0
  }

  /// The connection whose request has been arriving longest.
  private func longestReceiving() -> (any Channel)? {
    table.value.open.values.compactMap { entry -> (any Channel, UInt64)? in
      if case .receiving(let since) = entry.state { (entry.channel, since) } else { nil }
    }.min { $0.1 < $1.1 }?.0
  }
}

/// Watches one connection for ``Connections`` (receiving from a request's head to its end,
/// answering until its answer's end)
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
    switch unwrapInboundIn(data) {
    case .head: connections.receiving(context.channel)
    case .end: connections.answering(context.channel)
    case .body: break
    }
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
