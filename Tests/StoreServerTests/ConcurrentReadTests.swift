import Dispatch
import Foundation
import StoreCommands
import StoreSimulation
import StoreTestSupport
import Testing

@testable import StoreServer

/// Reads never wait for a write: `health` and the App Store Server API answer from the session
/// as last committed while the session's queue is busy with a command.
@Suite struct ConcurrentReadTests {
  /// A request over a fresh connection, within `timeout` seconds; `nil` when none came back.
  /// The client blocks a thread of its own, not one of the dispatch pool the server's reads run
  /// on: on a 2-core machine that pool has two threads, and a client holding one beside the
  /// held write's starved the reads it waited for (CI: health "status 0" after its receive
  /// timeout).
  func request(
    port: Int, _ method: String, _ path: String, body: String = "", timeout: Double
  ) -> (status: Int, body: String)? {
    let answer = NIOLockedAnswer()
    let done = DispatchSemaphore(value: 0)
    Thread {
      let bearer = try? token(key: anyKey, claims: goodClaims())
      answer.set(
        (try? httpRequest(
          port: port, method, path, body: body, bearer: bearer, receiveTimeout: Int(timeout)))
          .map { ($0.status, $0.body) })
      done.signal()
    }.start()
    guard done.wait(timeout: .now() + timeout) == .success else { return nil }
    return answer.value
  }

  @Test func readsAnswerFromTheCommittedSessionWhileTheQueueIsBusy() async throws {
    nonisolated(unsafe) let served = try makeServed()
    _ = await served.call("POST", "/storekeeper/v1/commands", body: "buy socialfeed.monthly\n")
    let queue = DispatchQueue(label: "held")
    let reads = served.reads
    let server = try ServedSession.server(
      host: "127.0.0.1", port: 0, timeout: .seconds(10), patience: nil,
      submit: { work in
        queue.async { work.run() }
        return true
      }, session: { served }, reads: { reads }, log: { _ in },
      // Its tasks on a thread of their own: the test process's pool may be busy with
      // synchronous tests for minutes (CI saw health wait past 60 s).
      executor: ownThreadExecutor)
    defer { server.close() }
    // A write holds the session's queue (a long command), and another waits behind it.
    let held = DispatchSemaphore(value: 0)
    queue.async { held.wait() }
    defer { held.signal() }
    let write = DispatchSemaphore(value: 0)
    Thread {
      // Waits as long as the reads may take: a loaded machine can take more than the usual 10 s.
      _ = try? httpRequest(
        port: server.port, "POST", "/storekeeper/v1/commands", body: "buy foodtruck.donuts.box\n",
        receiveTimeout: 150)
      write.signal()
    }.start()
    // Generous limits for a loaded machine: the write stays held until the reads answered, so a
    // read that waited for it would never come back in time.
    let health = request(port: server.port, "GET", "/storekeeper/v1/health", timeout: 60)
    #expect(health?.status == 200, "health waited for the write")
    let statuses = request(
      port: server.port, "GET", "/inApps/v1/subscriptions/0", timeout: 60)
    #expect(statuses?.status == 200, "the App Store Server API waited for the write")
    #expect(write.wait(timeout: .now() + 0.2) == .timedOut, "the write was held")
    held.signal()
    #expect(write.wait(timeout: .now() + 60) == .success)
    // The answered write is what reads see next.
    let after = request(port: server.port, "GET", "/inApps/v2/history/0", timeout: 60)
    #expect(after?.status == 200)
    let page = try JSONSerialization.jsonObject(with: Data((after?.body ?? "").utf8))
    let signed = (page as? [String: Any])?["signedTransactions"] as? [String]
    #expect(signed?.count == 2, "\(after?.body ?? "")")
  }
}

/// An answer handed between threads.
final class NIOLockedAnswer: @unchecked Sendable {
  // `@unchecked Sendable`: `stored` is read and written only under `lock`.
  private let lock = NSLock()
  private var stored: (status: Int, body: String)?
  func set(_ value: (status: Int, body: String)?) { lock.withLock { stored = value } }
  var value: (status: Int, body: String)? { lock.withLock { stored } }
}
