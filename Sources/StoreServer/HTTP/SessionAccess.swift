import Hummingbird
import NIOCore
import NIOPosix
import StoreSimulation

/// How the controllers reach the served session, each request waiting without holding a thread:
/// reads run on a pool of their own, from the session as last committed (``ReadAccess``), so
/// no read waits for a command under way; changes are handed to where the session lives
/// (`submit`: `serve`'s queue, the inspector's loop) and run there one at a time.
struct SessionAccess: Sendable {
  /// How long a change waits for its turn before it is answered 503; `nil`: however long.
  let patience: Double?
  /// Runs a piece of work where the session lives, or returns `false` when it takes no more.
  let submit: @Sendable (SessionWork) -> Bool
  /// The served session, read where the work runs (`nil`: not served yet).
  let session: @Sendable () -> ServedSession?
  /// The served session's reads, from any thread (`nil`: not served yet).
  let reads: @Sendable () -> ReadAccess?

  /// Who may call the session; 503 while it is opening.
  func gate() throws(AppStoreError) -> AccessGate {
    guard let reads = reads() else { throw Self.opening }
    return reads.gate
  }

  /// The reader of the session as last committed, for `account`.
  func reader(for account: Account) throws(AppStoreError) -> SessionReader {
    guard var reader = reads()?.reader else { throw Self.opening }
    reader.account = account
    return reader
  }

  /// Answers from the session as last committed, on a thread of the reads' own pool.
  func read(
    _ request: Request, _ context: ServerContext,
    _ body: @escaping @Sendable (inout SessionReader, ServerRequest) throws -> ServerResponse
  ) async throws -> Response {
    let whole = try await ServerRequest(request)
    let account = context.account
    let answer = try await Self.readers.runIfActive {
      Self.answering {
        var reader = try reader(for: account)
        return try body(&reader, whole)
      }
    }
    return Response(answer, context)
  }

  /// The threads reads run on, theirs alone: nothing else that blocks a thread (the dispatch
  /// pool's users, a test's blocking client) can starve them. Four at least, one a core beyond;
  /// started once, for the life of the process.
  private static let readers: NIOThreadPool = {
    let pool = NIOThreadPool(numberOfThreads: max(4, System.coreCount))
    pool.start()
    return pool
  }()

  /// Answers where the session lives, with a change to it.
  func write(
    _ request: Request, _ context: ServerContext,
    _ body: @escaping @Sendable (ServedSession, ServerRequest) throws -> ServerResponse
  ) async throws -> Response {
    try await run(request, context) { served, whole, reply in
      served.tick()
      reply(Self.answering { try body(served, whole) })
    }
  }

  /// Answers where the session lives, the answer written as it is made (the control endpoint):
  /// a long one streams once it outgrows ``StreamedAnswer/startsStreaming`` bytes.
  func control(
    _ request: Request, _ context: ServerContext,
    _ body:
      @escaping @Sendable (
        ServedSession, ServerRequest, StreamedAnswer, @escaping ServedSession.Later
      ) -> Void
  ) async throws -> Response {
    try await run(request, context) { served, whole, reply in
      served.tick()
      let answer = StreamedAnswer(contentType: "application/x-ndjson", reply: reply)
      body(served, whole, answer, later(answering: answer))
    }
  }

  /// Brings more of a control request's work to where the session lives, when it comes (its
  /// turn waits however long); 503 in its answer when the session is closing.
  private func later(answering answer: StreamedAnswer) -> ServedSession.Later {
    { [submit, session] work in
      SessionWork.answer(
        patience: nil, submit: submit,
        { _ in
          guard let served = session() else { return answer.fail(Self.opening.response) }
          work(served)
        }, reply: { answer.fail($0) })
    }
  }

  /// Reads the request whole, hands `body` to where the session lives and waits for its reply:
  /// 503 when the session is not served yet, is closing, or did not get to it in time.
  private func run(
    _ request: Request, _ context: ServerContext,
    _ body:
      @escaping @Sendable (
        ServedSession, ServerRequest, @escaping @Sendable (ServerResponse) -> Void
      )
      -> Void
  ) async throws -> Response {
    let whole = try await ServerRequest(request)
    let answer = await withCheckedContinuation { continuation in
      SessionWork.answer(
        patience: patience, submit: submit,
        { reply in
          guard let served = session() else { return reply(Self.opening.response) }
          body(served, whole, reply)
        }, reply: { continuation.resume(returning: $0) })
    }
    return Response(answer, context)
  }

  /// A handler's answer: its response, or its error's (Apple's shape; 500 for any other).
  private static func answering(_ body: () throws -> ServerResponse) -> ServerResponse {
    do {
      return try body()
    } catch let error as AppStoreError {
      return error.response
    } catch {
      return AppStoreError(.generalInternal, message: "\(error)").response
    }
  }

  /// The answer while the session is opening (the inspector serves before it opens).
  static let opening = AppStoreError.unavailable("the session is opening")
}

extension Response {
  /// Hummingbird's response for an answer, its note kept for the request log.
  init(_ answer: ServerResponse, _ context: ServerContext) {
    context.note.text = answer.note
    self.init(answer, closing: false)
  }
}
