import Foundation
import StoreUtilities

/// A piece of work on a served session, run where the session lives (`serve`'s queue, the
/// inspector's loop) while the request that asked for it waits without holding a thread.
///
/// It is run once, or abandoned: by its owner (closing), or by the request when it waited too
/// long — never both, so a request answered 503 changed nothing.
public final class SessionWork: Sendable {
  /// Work that answers by calling its argument once, when it likes (a streamed answer does as
  /// soon as it begins streaming, and writes on).
  typealias Body = @Sendable (_ reply: @escaping @Sendable (ServerResponse) -> Void) -> Void

  private enum State: Sendable {
    case waiting(run: Body, answer: @Sendable (ServerResponse) -> Void)
    case taken
  }

  private let state: Locked<State>

  private init(_ run: @escaping Body, answer: @escaping @Sendable (ServerResponse) -> Void) {
    state = Locked(.waiting(run: run, answer: answer))
  }

  /// Runs it, unless it was abandoned; on the session's thread.
  public func run() {
    guard let (run, answer) = take() else { return }
    run(answer)
  }

  /// Answers the request 503 without running the work (the owner is closing).
  public func abandon(_ why: String) {
    guard let (_, answer) = take() else { return }
    answer(Self.unavailable(why))
  }

  private func take() -> (Body, @Sendable (ServerResponse) -> Void)? {
    state.withLock { state in
      guard case .waiting(let run, let answer) = state else { return nil }
      state = .taken
      return (run, answer)
    }
  }

  /// Hands `body` to `submit` (which runs the work where the session lives, or returns `false`
  /// when it takes no more) and replies with its answer: 503 when it was not run within
  /// `patience` seconds (`nil`: it waits its turn however long) or the owner is closing.
  static func answer(
    patience: Double?, submit: (SessionWork) -> Bool, _ body: @escaping Body,
    reply: @escaping @Sendable (ServerResponse) -> Void
  ) {
    let work = SessionWork(body, answer: reply)
    guard submit(work) else {
      work.abandon("the session is closing")
      return
    }
    guard let patience else { return }
    DispatchQueue.global().asyncAfter(deadline: .now() + patience) {
      work.abandon("the session did not get to it within \(Int(patience)) s")
    }
  }

  /// Apple's shape for a service that cannot answer now.
  static func unavailable(_ why: String) -> ServerResponse {
    AppStoreError.unavailable(why).response
  }
}

extension ServedSession {
  /// An HTTP server over a served session (``router(access:log:)``): reads answered at once on
  /// any thread from the session as last committed, changes handed to `submit`, which runs them
  /// where the session lives (or returns `false` when closing).
  ///
  /// - Parameters:
  ///   - timeout: how long a request may take to arrive whole.
  ///   - patience: how long a change waits for its turn before it is answered 503; `nil`:
  ///     however long.
  ///   - session: the served session, read where the work runs (`nil`: not served yet, 503).
  ///   - reads: the served session's reads, from any thread (`nil`: not served yet, 503).
  ///   - log: hears each request answered.
  /// - Throws: when it cannot listen there.
  public static func server(
    host: String, port: Int, timeout: Duration, patience: Double?,
    submit: @escaping @Sendable (SessionWork) -> Bool,
    session: @escaping @Sendable () -> ServedSession?,
    reads: @escaping @Sendable () -> ReadAccess?,
    log: @escaping @Sendable (RequestRecord) -> Void, executor: (any TaskExecutor)? = nil
  ) throws -> HTTPServer {
    let access = SessionAccess(
      patience: patience, submit: submit, session: session, reads: reads)
    return try HTTPServer(
      host: host, port: port, timeout: timeout,
      router: router(access: access, timeout: timeout, log: log), executor: executor)
  }
}

/// Where a served session's reads are found once the session is served (the inspector serves
/// before its session opens); safe from any thread.
public final class ReadSlot: Sendable {
  private let access = Locked<ReadAccess?>(nil)

  /// An empty slot.
  public init() {}

  /// The reads, once set.
  public var reads: ReadAccess? { access.value }

  /// Sets the reads requests are answered from.
  public func set(_ reads: ReadAccess) { access.withLock { $0 = reads } }
}
