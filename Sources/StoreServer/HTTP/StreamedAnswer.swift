import Foundation

/// An answer written as it is made, where the session lives, and read by the server as it goes
/// out: a small one is sent whole with its final status; one that outgrows ``startsStreaming``
/// bytes is sent with status 200 as it is made, a chunk at a time, and the writer waits while
/// more than ``bufferLimit`` bytes are unread, so memory stays flat however long the answer
/// (a control request's million events).
///
/// A client that stops reading for 30 seconds, or goes away, is dropped: the writer
/// goes on without writing (what it applies stays applied and journaled).
///
/// `@unchecked Sendable`: its state is read and written only under `condition`, an
/// `NSCondition` the compiler does not track; a condition, not a `Locked`, because the writer
/// waits on it for the reader (the back-pressure above).
public final class StreamedAnswer: @unchecked Sendable, Equatable {
  /// How much of an answer is kept before it is streamed.
  public static let startsStreaming = 1 << 20
  /// How much a streamed answer holds that the client has not read.
  static let bufferLimit = 4 << 20
  /// How long the writer waits by default for a client that reads nothing.
  static let patience = 30.0

  private let condition = NSCondition()
  private let contentType: String
  private let threshold: Int
  /// How long the writer waits for a client that reads nothing before it drops it.
  private let patience: Double
  private var reply: (@Sendable (ServerResponse) -> Void)?
  private var head: [UInt8] = []
  private var isStreaming = false
  private var isDropped = false
  private var unread = 0
  private let continuation: AsyncStream<[UInt8]>.Continuation
  /// The chunks, for the server to send.
  let chunks: AsyncStream<[UInt8]>

  /// An answer that `reply` sends: once, whole or as its stream begins. `threshold`: how much
  /// is kept before streaming (`Int.max`: never, for a caller that wants it whole).
  init(
    contentType: String, threshold: Int = StreamedAnswer.startsStreaming,
    patience: Double = StreamedAnswer.patience, reply: @escaping @Sendable (ServerResponse) -> Void
  ) {
    self.contentType = contentType
    self.threshold = threshold
    self.patience = patience
    self.reply = reply
    (chunks, continuation) = AsyncStream<[UInt8]>.makeStream()
  }

  /// Adds bytes to the answer; past the threshold they go out as they come.
  func write(_ bytes: [UInt8]) {
    guard !bytes.isEmpty else { return }
    condition.lock()
    defer { condition.unlock() }
    guard !isDropped else { return }
    guard isStreaming else {
      head += bytes
      if head.count > threshold { beginStreaming() }
      return
    }
    send(bytes)
  }

  /// Ends the answer: sent whole with `status` when it never streamed, else its stream ends
  /// (the status was 200; a failure is the answer's own last lines).
  func finish(status: Int) {
    condition.lock()
    defer { condition.unlock() }
    if isStreaming {
      continuation.finish()
      return
    }
    let reply = self.reply
    self.reply = nil
    let body = head
    head = []
    reply?(ServerResponse(status: status, contentType: contentType, body: body))
  }

  /// Ends the answer with a failure: `response` instead of what was written when nothing went
  /// out yet, else its body as the stream's last line.
  func fail(_ response: ServerResponse) {
    condition.lock()
    defer { condition.unlock() }
    if isStreaming {
      if !isDropped { send(response.body + [0x0A]) }
      continuation.finish()
      return
    }
    let reply = self.reply
    self.reply = nil
    head = []
    reply?(response)
  }

  /// Whether the answer is being streamed.
  var streams: Bool { condition.withLock { isStreaming } }

  /// The server wrote `count` bytes of a chunk.
  func consumed(_ count: Int) {
    condition.withLock {
      unread -= count
      condition.broadcast()
    }
  }

  /// The client went away: nothing more is written.
  func drop() {
    condition.withLock {
      isDropped = true
      continuation.finish()
      condition.broadcast()
    }
  }

  /// Called under the lock.
  private func beginStreaming() {
    isStreaming = true
    var response = ServerResponse(status: 200, contentType: contentType, body: [])
    response.stream = self
    let reply = self.reply
    self.reply = nil
    let first = head
    head = []
    reply?(response)
    send(first)
  }

  /// Queues a chunk, waiting while too much is unread. Called under the lock.
  private func send(_ bytes: [UInt8]) {
    let deadline = Date().addingTimeInterval(patience)
    while unread > Self.bufferLimit && !isDropped {
      guard condition.wait(until: deadline) else {
        isDropped = true
        continuation.finish()
        return
      }
    }
    guard !isDropped else { return }
    unread += bytes.count
    continuation.yield(bytes)
  }

  /// The same answer.
  public static func == (lhs: StreamedAnswer, rhs: StreamedAnswer) -> Bool { lhs === rhs }
}
