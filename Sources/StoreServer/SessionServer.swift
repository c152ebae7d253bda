import Dispatch
import Foundation

/// `serve`: a served session on a queue of its own, behind an HTTP server. Requests and the
/// clock's ticks take turns on the queue; the server's loop only reads and writes.
public final class SessionServer: Sendable {
  private let server: HTTPServer
  nonisolated(unsafe) private let timer: any DispatchSourceTimer
  nonisolated(unsafe) private let served: ServedSession

  /// Serves `served` on `host:port`.
  ///
  /// - Parameters:
  ///   - timeout: how long a request may take to arrive whole.
  ///   - tick: how often a running clock follows the wall clock (renewals fall due on their own).
  ///   - log: hears each request answered.
  /// - Throws: when it cannot listen there.
  public init(
    _ served: ServedSession, host: String, port: Int, timeout: Duration = .seconds(30),
    tick: Duration = .milliseconds(250), log: @escaping @Sendable (RequestRecord) -> Void
  ) throws {
    let queue = DispatchQueue(label: "storekeeper.session")
    self.served = served
    nonisolated(unsafe) let served = served
    server = try ServedSession.server(
      host: host, port: port, timeout: timeout, patience: nil,
      submit: { work in
        queue.async { work.run() }
        return true
      }, session: { served }, reads: { [reads = served.reads] in reads }, log: log)
    timer = DispatchSource.makeTimerSource(queue: queue)
    let interval = DispatchTimeInterval.nanoseconds(Int(tick.nanoseconds))
    nonisolated(unsafe) let ticking = served
    timer.schedule(deadline: .now() + interval, repeating: interval)
    timer.setEventHandler { ticking.tick() }
    timer.resume()
  }

  /// The port it listens on.
  public var port: Int { server.port }

  /// Asks a control request under way to stop after its current command; safe from any thread.
  public func requestStop() { served.requestStop() }

  /// Stops the clock and the server.
  public func close() {
    timer.cancel()
    server.close()
  }

  /// Stops the clock and the server, awaiting the requests under way.
  public func close() async {
    timer.cancel()
    await server.close()
  }
}
