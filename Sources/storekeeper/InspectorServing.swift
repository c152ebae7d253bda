import Dispatch
import Foundation
import StoreCommands
import StoreServer
import StoreSigning
import StoreSimulation
import StoreTerminal

/// The inspector's `--serve`: an HTTP server whose requests wait for the inspector's loop,
/// which answers them against its own session (lent to the served session for the call), so
/// every change shows in the table and every request and delivery in the event log.
///
/// The server's thread only queues requests and waits; the loop does the work. Shared state is
/// under `lock`, hence `@unchecked Sendable`.
final class InspectorServing: @unchecked Sendable {
  /// A request and, once the loop answered it, its response.
  private final class Waiter: @unchecked Sendable {
    let request: ServerRequest
    var response: ServerResponse?
    let done = DispatchSemaphore(value: 0)
    init(_ request: ServerRequest) { self.request = request }
  }

  /// Log lines from any thread (requests, deliveries), for the event log.
  private final class LineBuffer: @unchecked Sendable {
    private let lock = NSLock()
    private var lines: [String] = []
    let wake: @Sendable () -> Void
    init(wake: @escaping @Sendable () -> Void) { self.wake = wake }

    func append(_ line: String) {
      lock.lock()
      lines.append(line)
      lock.unlock()
      wake()
    }

    func take() -> [String] {
      lock.lock()
      defer {
        lines = []
        lock.unlock()
      }
      return lines
    }
  }

  private var served: ServedSession?
  private let signer: Signer
  private let key: APIAuthentication.Key?
  private let controlToken: String?
  private let buffer: LineBuffer
  private var server: HTTPServer?
  private let lock = NSLock()
  private var waiting: [Waiter] = []
  private var closed = false
  /// How long a request waits for the loop before it is answered 503.
  private let patience: Double
  private let host: String
  private let outbox: NotificationOutbox?
  /// The session's time at the last `work`, for the answers that come after.
  private var lastNow = Instant(milliseconds: 0)

  /// Listens on `host:port`; requests wait until ``attach(_:)`` gives it the session.
  ///
  /// - Parameter wake: wakes the inspector's loop (a request or a log line arrived); called
  ///   from the server's thread.
  init(
    signer: Signer, outbox: NotificationOutbox?, api: APIOptions, host: String, port: Int,
    patience: Double = 30, wake: @escaping @Sendable () -> Void
  ) throws {
    let buffer = LineBuffer(wake: wake)
    self.buffer = buffer
    self.patience = patience
    self.host = host
    self.outbox = outbox
    self.signer = signer
    key = try api.loadKey()
    controlToken = api.controlToken
    server = try api.listen(
      host: host, port: port, handler: { [unowned self] in self.enqueue($0) },
      log: { buffer.append("served \($0)") })
    if key == nil { buffer.append(APIOptions.anyTokenNotice) }
  }

  /// Serves `journaled`'s session from now on (it is lent for each call to ``work``).
  func attach(_ journaled: JournaledSession) {
    let buffer = buffer
    served = ServedSession(
      journaled: journaled, signer: signer, environment: signer.environment.rawValue,
      running: false, key: key, controlToken: controlToken, outbox: outbox,
      log: { buffer.append($0) }, lent: true,
      wall: { SessionOpening.wallClock })
    lastNow = journaled.session.now
  }

  /// Where it listens.
  var url: String { ServeAddress.url(host: host, port: server?.port ?? 0) }

  /// The loop's part (the inspector's `serve` hook): notifications of `events` just applied
  /// here, deliveries now due, then every request waiting. Returns what the log shows.
  func work(_ journaled: inout JournaledSession, events: [StoreEvent]) -> [InspectorInput] {
    guard let served else { return [] }
    served.notify(events, lending: &journaled)
    lastNow = journaled.session.now
    lock.lock()
    let taken = waiting
    waiting = []
    lock.unlock()
    var inputs: [InspectorInput] = []
    for waiter in taken {
      let (response, applied) = served.answer(waiter.request, lending: &journaled)
      waiter.response = response
      waiter.done.signal()
      if !applied.isEmpty {
        inputs.append(.served(applied.map { ServedCommand($0.command, events: $0.events) }))
      }
    }
    let said = buffer.take()
    if !said.isEmpty {
      let now = journaled.session.now
      inputs.append(
        .notifications(
          said.map { NotificationLine(time: now, text: $0, isFailure: Self.fails($0)) }))
    }
    return inputs
  }

  /// `notify retry` or `set notify-fault …` typed in the inspector.
  func perform(_ action: NotifyAction, lending journaled: inout JournaledSession) -> String {
    served?.perform(action, lending: &journaled) ?? ""
  }

  /// Stops: requests waiting or arriving get 503, then the server closes, and the
  /// notifications in flight get a few seconds. Returns what became of them.
  func close() -> [String] {
    lock.lock()
    closed = true
    let left = waiting
    waiting = []
    lock.unlock()
    for waiter in left { waiter.done.signal() }
    server?.close()
    server = nil
    return (outbox?.waitForAnswers(timeout: 5, now: lastNow) ?? []) + buffer.take()
  }

  /// The server's thread: queue the request, wake the loop, wait for its answer.
  private func enqueue(_ request: ServerRequest) -> ServerResponse {
    let waiter = Waiter(request)
    lock.lock()
    guard !closed else {
      lock.unlock()
      return Self.unavailable("the inspector is quitting")
    }
    waiting.append(waiter)
    lock.unlock()
    buffer.wake()
    if waiter.done.wait(timeout: .now() + patience) == .timedOut {
      lock.lock()
      waiting.removeAll { $0 === waiter }
      lock.unlock()
      return Self.unavailable("the inspector did not get to it within \(Int(patience)) s")
    }
    lock.lock()
    defer { lock.unlock() }
    return waiter.response ?? Self.unavailable("the inspector is quitting")
  }

  /// Whether a log line says something failed: a server error, a delivery that failed.
  private static func fails(_ line: String) -> Bool {
    let words = line.split(separator: " ")
    if words.first == "served", words.count > 3, let status = Int(words[3]) { return status >= 500 }
    return line.hasPrefix("notification ") && line.contains(" failed: ")
  }

  private static func unavailable(_ why: String) -> ServerResponse {
    AppStoreError(
      status: 503, code: 5_030_000, message: "Service unavailable: \(why). Try again."
    )
    .response
  }
}
