import StoreConfiguration
import StoreSimulation

/// A session with its memory: every accepted command, clock advance and configuration change is
/// queued in the journal before its events are handed out, and reaches the disk with
/// ``commit()`` before the caller reports them.
public struct JournaledSession {
  /// The session.
  public private(set) var session: Session
  /// The journal, or `nil` for a session that is not remembered.
  public let journal: Journal?

  /// A fresh session, remembered in `journal` when one is given (its header must match).
  public init(session: Session, journal: Journal?) {
    self.session = session
    self.journal = journal
  }

  /// Rebuilds the session a journal describes by replaying it, then keeps appending to it.
  ///
  /// - Throws: ``CommandError`` when the journal's configuration no longer loads or a record no
  ///   longer applies (naming its line).
  public init(replaying journal: Journal, options: SessionOptions = .init()) throws(CommandError) {
    let loaded = StoreKitConfiguration.load(journal.header.configuration)
    guard let configuration = loaded.usableConfiguration else {
      throw CommandError("\(journal.path): the configuration saved in the journal does not load")
    }
    var options = options
    options.firstTransactionID = journal.header.firstTransactionID
    var session = Session(
      configuration: configuration, start: journal.header.start, options: options)
    session.isMuted = true
    for (index, record) in journal.records.enumerated() {
      do throws(CommandError) {
        try Self.replay(record, on: &session)
      } catch {
        throw CommandError("\(journal.path):\(index + 2): \(error)")
      }
    }
    session.isMuted = false
    self.session = session
    self.journal = journal
  }

  private static func replay(
    _ record: JournalRecord, on session: inout Session
  ) throws(CommandError) {
    let ignore: EventSink = { _ in }
    switch record {
    case .command(let at, let text):
      if at > session.now { try advance(&session, to: at) }
      guard let command = try Command.parse(text) else { return }
      try command.apply(to: &session, ignore)
    case .advance(let to):
      try advance(&session, to: to)
    case .configuration(let at, let bytes):
      if at > session.now { try advance(&session, to: at) }
      guard let configuration = StoreKitConfiguration.load(bytes).usableConfiguration else {
        throw CommandError("a configuration saved in the journal does not load")
      }
      session.reload(configuration)
    }
  }

  private static func advance(_ session: inout Session, to instant: Instant) throws(CommandError) {
    do throws(SessionError) {
      try session.advance(to: instant) { _ in }
    } catch {
      throw CommandError(error.message)
    }
  }

  /// Applies a command at the session's present. On success it is queued in the journal.
  ///
  /// - Throws: ``CommandError`` when the session refuses it; nothing changes or is journaled.
  public mutating func apply(_ command: Command, _ sink: EventSink) throws(CommandError) {
    let at = session.now
    try command.apply(to: &session, sink)
    journal?.append(.command(at: at, text: command.description))
  }

  /// Moves a live clock to `instant` and queues the advance in the journal (the caller commits
  /// before showing the events).
  public mutating func advanceClock(to instant: Instant, _ sink: EventSink) throws(CommandError) {
    guard instant > session.now else { return }
    do throws(SessionError) {
      try session.advance(to: instant, sink)
    } catch {
      throw CommandError(error.message)
    }
    journal?.append(.advance(to: instant))
  }

  /// Switches to a changed configuration (reloaded from disk or written back), journaling it.
  public mutating func reload(_ configuration: StoreKitConfiguration, bytes: [UInt8]) {
    journal?.append(.configuration(at: session.now, bytes: bytes))
    session.reload(configuration)
  }

  /// Flushes the queued records to disk.
  public func commit() throws(CommandError) { try journal?.commit() }
}
