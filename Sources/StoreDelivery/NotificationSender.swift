import StoreCommands
import StoreSigning
import StoreSimulation

/// The one path from a session's events to its backend: the App Store Server Notifications the
/// events cause are mapped, signed and handed to the outbox — once the host says the journal
/// holds the commands that caused them. Attached to a ``CommandHost`` by every front end that
/// sends notifications; `notify retry` and `set notify-fault …` come to it too.
public final class NotificationSender: CommandObserver, DeliveryControl {
  /// Where the notifications go, and what became of them.
  public let outbox: NotificationOutbox
  private let signer: Signer
  /// How payloads are signed: the signer's (a test may make it fail).
  var signing: NotificationSigning
  private let mapper: NotificationMapper
  /// What the session's notification UUIDs are made from.
  private let namespace: String
  /// Events streamed for the command under way.
  private var events: [StoreEvent] = []
  /// Notifications decided, waiting to be signed and published (signed a chunk at a time,
  /// so that a long command's payloads are never all in memory at once).
  private var ready: [ServerNotification] = []
  /// How many are signed at once (on every core) before they go to the outbox.
  static let signingChunk = 1024
  /// The session's time when they were made.
  private var now = Instant(milliseconds: 0)
  /// Told of each notification handed to the outbox, in order.
  private var listeners: [(Sent) -> Void] = []

  /// A notification handed to the outbox.
  public struct Sent: Sendable {
    /// The notification as decided, before signing.
    public var notification: ServerNotification
    /// The file it was written to, if any.
    public var file: String?
    /// Why its file could not be written (it is still POSTed).
    public var error: DeliveryError?
    /// Its entry in the outbox's history; `nil` for one that could not be signed (`error`
    /// says why), which nothing sends.
    public var entry: Int?
  }

  /// A sender of a session's notifications (`identity` keeps their UUIDs its own).
  public init(signer: Signer, outbox: NotificationOutbox, identity: String) {
    self.signer = signer
    signing = { try signer.signedPayload($0) }
    self.outbox = outbox
    namespace = signer.notificationNamespace(session: identity)
    self.mapper = NotificationMapper(namespace: namespace)
  }

  /// Tells `listener` of each notification from now on (the event stream's line, the log's,
  /// the control endpoint's answer), after those attached before it.
  public func listen(_ listener: @escaping (Sent) -> Void) { listeners.append(listener) }

  /// Keeps the events for the command's end.
  public func stream(_ events: ArraySlice<StoreEvent>) { self.events += events }

  /// Maps and signs the command's notifications (sent once the journal holds it).
  public func finished(_ outcome: CommandOutcome, session: Session) {
    now = session.now
    guard !events.isEmpty else {
      outbox.pump(now: now)
      return
    }
    record(mapper.notifications(for: events, in: session))
    events = []
  }

  /// Maps the events streamed so far of a long command, with the session as they left it, so
  /// that they are not all kept until it ends.
  public func checkpoint(_ session: Session) {
    guard !events.isEmpty else { return }
    record(mapper.notifications(for: events, in: session))
    events = []
  }

  /// How many notifications the session's commands caused so far, signed or waiting to be
  /// (a population's progress, which does not wait for signing).
  public private(set) var madeCount = 0

  private func record(_ made: [ServerNotification]) {
    ready += made
    madeCount += made.count
  }

  /// Whether the notifications of many small commands are signed a chunk at a time, off the
  /// session's thread, while the commands go on: for a front end whose commands each cause one
  /// or two and whose backend need not hear them at once (a population). Listeners are told
  /// when the host publishes next, and at its flush, which waits until all are out. By default
  /// each command's go out, signed, before the host's publish returns.
  public var batchesAcrossCommands: Bool {
    get { pipeline != nil }
    set {
      guard newValue != batchesAcrossCommands else { return }
      // Turned off: what is under way reaches the outbox, and its listeners, first.
      if let pipeline {
        pipeline.finish()
        pipeline.takeSent().forEach(tell)
      }
      pipeline = newValue ? SigningPipeline(signing: signing, outbox: outbox) : nil
    }
  }
  /// Where chunks go with ``batchesAcrossCommands``.
  private var pipeline: SigningPipeline?

  /// Whether notifications wait to be sent (with ``batchesAcrossCommands``, a chunk of them).
  public var wantsToPublish: Bool {
    pipeline == nil ? !ready.isEmpty : ready.count >= SigningPipeline.chunk
  }

  /// Signs the notifications waiting and hands them to the outbox, in order, a chunk at a
  /// time; tells the listeners (of one that cannot be signed too, with why). With
  /// ``batchesAcrossCommands``, only whole chunks go, and the listeners hear of those signed
  /// so far.
  public func publish() {
    guard let pipeline else { return sendReady() }
    let chunk = SigningPipeline.chunk
    if ready.count == chunk {
      // The usual case: one command filled the chunk; it goes as it is, not copied.
      pipeline.submit(ready, now: now)
      ready = []
      ready.reserveCapacity(chunk)
    } else {
      let whole = ready.count - ready.count % chunk
      for start in stride(from: 0, to: whole, by: chunk) {
        pipeline.submit(Array(ready[start..<start + chunk]), now: now)
      }
      ready.removeFirst(whole)
    }
    pipeline.takeSent().forEach(tell)
  }

  /// Sends every notification waiting, and returns once they are in the outbox.
  public func flush() {
    guard let pipeline else { return sendReady() }
    if !ready.isEmpty { pipeline.submit(ready, now: now) }
    ready = []
    pipeline.finish()
    pipeline.takeSent().forEach(tell)
    outbox.pump(now: now)
  }

  /// Signs what waits on the caller's thread (on every core), a chunk at a time.
  private func sendReady() {
    let sending = ready
    ready = []
    for start in stride(from: 0, to: sending.count, by: Self.signingChunk) {
      let chunk = Array(sending[start..<min(sending.count, start + Self.signingChunk)])
      for (notification, signed) in zip(chunk, signedPayloads(chunk, with: signing)) {
        tell(.handOver(notification, signed, to: outbox, now: now))
      }
    }
    outbox.pump(now: now)
  }

  /// Tells every listener, in the order they were attached (and counts one never sent).
  private func tell(_ sent: Sent) {
    if sent.entry == nil { unsignedCount += 1 }
    for listener in listeners { listener(sent) }
  }

  /// How many notifications could not be signed, so that nothing sent them (each was told to
  /// the listeners with why).
  public private(set) var unsignedCount = 0

  /// `notify retry` (every undelivered notification due now) and `set notify-fault …`.
  public func perform(_ action: NotifyAction, now: Instant) -> DeliveryNotice {
    switch action {
    case .retry:
      guard outbox.posts else {
        return .unavailable("no --notify-url: notifications are not POSTed, nothing to retry")
      }
      return .retried(outbox.retryFailed(now: now))
    case .fault(let fault):
      let injected: NotificationOutbox.Fault =
        switch fault {
        case .off: .off
        case .drop: .drop
        case .duplicate: .duplicate
        case .delay(let duration): .delay(duration.after(now).milliseconds - now.milliseconds)
        }
      outbox.setFault(injected)
      return .fault(fault)
    }
  }

  /// The `number`th `TEST` notification ("Request a Test Notification") through the same
  /// outbox; its entry.
  ///
  /// - Throws: ``DeliveryError`` when it cannot be signed or its file written.
  public func sendTest(at now: Instant, number: Int) throws(DeliveryError) -> Int {
    // After every notification made before it.
    flush()
    let notification = ServerNotification.test(
      at: now, uuid: nameBasedUUID(namespace + "|test|\(number)"))
    guard let signed = try? signer.signedPayload(notification) else {
      throw DeliveryError("the test notification could not be signed")
    }
    let added = outbox.add(notification, signedPayload: signed, now: now)
    if let error = added.error { throw error }
    return added.index
  }
}
