import StoreJSON
import StoreSimulation
import StoreUtilities

/// The events as JSON lines (`run`'s standard output, the control endpoint's answer): each
/// command's events, its error line, what the delivery said, the notifications it sent. Held
/// in a buffer and written only when the host publishes, so a million events stream out a
/// megabyte at a time, each after the journal records that explain it.
public final class EventLines: CommandObserver {
  private var encoder: EventEncoder
  private var buffer: ByteWriter
  private let limit: Int
  private let write: (inout ByteWriter) throws -> Void
  /// What went wrong writing, if anything: nothing more is written after it.
  public private(set) var failure: (any Error)?
  /// Whose device the lines show (`--customer`, `--member`): by default every customer's own;
  /// the events another account's device sees are left out.
  public var device = DeviceFilter()

  /// Lines written by `write` (which empties the writer) once `limit` bytes wait, or when the
  /// host flushes.
  public init(
    encoder: EventEncoder, limit: Int = 1 << 20,
    write: @escaping (inout ByteWriter) throws -> Void
  ) {
    self.encoder = encoder
    self.limit = limit
    self.buffer = ByteWriter(capacity: limit + limit / 4)
    self.write = write
  }

  /// Encodes the events into the buffer.
  public func stream(_ events: ArraySlice<StoreEvent>) {
    guard failure == nil else { return }
    if encoder.decorates && events.count >= Self.parallelThreshold {
      return appendOnEveryCore(events)
    }
    for event in events {
      if !device.shows(event) { continue }
      encoder.append(event, to: &buffer)
    }
  }

  /// Below this many events, signed lines are made on the caller's thread.
  static let parallelThreshold = 64

  /// Signed lines (`--sign`: a signature or two each) made on every core: the events in a
  /// piece a core and then some, each piece into its own bytes, appended in order, so the
  /// output is byte for byte what one core writes.
  private func appendOnEveryCore(_ events: ArraySlice<StoreEvent>) {
    let shown = events.filter { device.shows($0) }
    let pieces = Swift.min(shown.count, 4 * activeCores)
    let size = (shown.count + pieces - 1) / Swift.max(1, pieces)
    let encoder = self.encoder
    let lines = [[UInt8]](concurrentlyMaking: pieces) { piece in
      var encoder = encoder
      var writer = ByteWriter(capacity: size * 1024)
      for event in shown[
        Swift.min(shown.count, piece * size)..<Swift.min(shown.count, (piece + 1) * size)]
      {
        encoder.append(event, to: &writer)
      }
      return writer.array
    }
    for piece in lines { piece.withUnsafeBufferPointer { buffer.append($0) } }
  }

  /// Adds the command's error line, or what the delivery said.
  public func finished(_ outcome: CommandOutcome, session: Session) {
    guard failure == nil else { return }
    if let error = outcome.error { line(encoder.errorLine(error, time: session.now)) }
    if let notice = outcome.notice { line(Self.noticeLine(notice, time: session.now)) }
  }

  /// An error of the request rather than of a command (a budget spent, a server stopping).
  public func error(_ error: CommandError, time: Instant) {
    line(encoder.errorLine(error, time: time))
  }

  /// A notification sent, after its command's events: `{"event":"notification",…}`; or, with
  /// a reason, one sent earlier that will not be delivered after all (dropped from a full
  /// queue): `{"event":"notificationDropped",…,"reason":…}`.
  public func notification(
    time: Instant, type: String, subtype: String?, uuid: String, file: String?,
    customer: String? = nil, droppedBecause reason: String? = nil
  ) {
    line(
      encoder.notificationLine(
        time: time, type: type, subtype: subtype, uuid: uuid, file: file, customer: customer,
        droppedBecause: reason))
  }

  /// Whether a megabyte waits.
  public var wantsToPublish: Bool { buffer.count >= limit }

  /// Writes what waits.
  public func publish() throws {
    if let failure { throw failure }
    guard buffer.count > 0 else { return }
    do {
      try write(&buffer)
    } catch {
      failure = error
      throw error
    }
  }

  private func line(_ text: String) {
    buffer.append(text)
    buffer.append(0x0A)
  }

  /// What the delivery said of `notify …`, as a line.
  public static func noticeLine(_ notice: DeliveryNotice, time: Instant) -> String {
    var object = ObjectBuilder()
    object.field("time", time)
    object.field("event", "notify")
    switch notice {
    case .retried(let count):
      object.field("action", "retry")
      object.field("count", Int64(count))
    case .fault(let fault):
      object.field("action", "fault")
      object.field("fault", fault.words.joined(separator: " "))
    case .unavailable(let message): object.field("message", message)
    }
    return String(decoding: object.finish(), as: UTF8.self)
  }
}
