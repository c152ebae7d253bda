import NIOCore
import NIOPosix

/// `serve`: a served session on an event loop of its own, behind an HTTP server. Requests and
/// the clock's ticks take turns on that loop (the session is bound to it: reaching it from
/// another thread stops the process); the server's loop only reads and writes.
public final class SessionServer: Sendable {
  private let server: HTTPServer
  private let group: MultiThreadedEventLoopGroup
  private let ticking: RepeatedTask
  private let stop: @Sendable () -> Void

  /// Serves `served` on `host:port`.
  ///
  /// - Parameters:
  ///   - timeout: how long a request may take to arrive whole.
  ///   - tick: how often a running clock follows the wall clock (renewals fall due on their own).
  ///   - log: hears each request answered.
  /// - Throws: when it cannot listen there.
  public init(
    _ served: sending ServedSession, host: String, port: Int, timeout: Duration = .seconds(30),
    tick: Duration = .milliseconds(250), log: @escaping @Sendable (RequestRecord) -> Void
  ) throws {
    let group = MultiThreadedEventLoopGroup(numberOfThreads: 1)
    let loop = group.next()
    let stopping = served.stopping
    let reads = served.reads
    let session = NIOLoopBoundBox.makeBoxSendingValue(
      served, as: ServedSession.self, eventLoop: loop)
    do {
      server = try ServedSession.server(
        host: host, port: port, timeout: timeout, patience: nil,
        submit: { work in
          loop.execute { work.run() }
          return true
        }, session: { session.value }, reads: { reads }, log: log)
    } catch {
      try? group.syncShutdownGracefully()
      throw error
    }
    self.group = group
    stop = { stopping.withLockedValue { $0 = true } }
    let interval = TimeAmount.nanoseconds(tick.nanoseconds)
    ticking = loop.scheduleRepeatedTask(initialDelay: interval, delay: interval) { _ in
      session.value.tick()
    }
  }

  /// The port it listens on.
  public var port: Int { server.port }

  /// Asks a control request under way to stop after its current command; safe from any thread.
  public func requestStop() { stop() }

  /// Stops the clock and the server, awaiting the requests under way, then the session's loop.
  public func close() async {
    ticking.cancel()
    await server.close()
    try? await group.shutdownGracefully()
  }
}
