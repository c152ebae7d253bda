import StoreConfiguration
import StoreSimulation

/// Who asked for a command, which decides how it is journaled.
public enum CommandOrigin: Sendable, Equatable {
  /// A person, a script or a replayed journal: the command is journaled as written.
  case person
  /// The inspector's live clock, moving the session with `advance <instant>`: journaled only
  /// when something happened on the way.
  case clock
}

/// A session with its memory: every accepted command, eventful clock advance and configuration
/// change is queued in the journal before its events are handed out, and reaches the disk with
/// ``commit()`` before the caller reports them.
public struct JournaledSession {
  /// The session as of the last record applied.
  public internal(set) var session: Session
  /// The journal, or `nil` for a session that is not remembered.
  public let journal: Journal?
  /// The session's clock as the journal last recorded it. A live clock that moves without
  /// anything happening is not recorded until something happens (``recordClock()``).
  public internal(set) var recordedNow: Instant
  /// What tells this session from any other (``JournalHeader/identity``): the journal's, or
  /// one made of the session's start, first id and configuration.
  public let identity: String
  /// What made the session, in order: the journal's records with every step back resolved
  /// (``Journal/timeline(of:path:)``); replaying it from the start rebuilds the session.
  public var timeline: [JournalRecord] { history.entries }
  /// What step backs and replays to a moment redid so far: records and (muted) events.
  public var replayWork: Int { history.replayWork }
  /// The timeline with the points a step back can go to and copies of the session at some of
  /// them.
  var history = SessionHistory()

  /// Whether what a step back needs is kept (the records, their marks, copies of the session).
  /// A front end that never steps back (a population of thousands of customers) turns it off,
  /// and memory stays that of the session; `back` then finds nothing to go back to.
  public var keepsHistory: Bool {
    get { history.keepsHistory }
    set {
      guard newValue != history.keepsHistory else { return }
      history = SessionHistory()
      history.keepsHistory = newValue
      if !newValue { journal?.forgetRecords() }
    }
  }
  /// How to make the session of the start again (stepping back replays from it); `nil` when
  /// the session was handed over with a history of its own.
  let start: Start?
  /// The options the session was opened with.
  let openingOptions: SessionOptions
  /// The app's bundle id (the front end's `--bundle-id`): a purchase carrying a signature is
  /// journaled with it (`bundle=`), so that it replays the same whatever the bundle id then.
  public var bundleID: String?

  /// Where a session's history begins.
  enum Start {
    /// The session a journal's header describes.
    case header(JournalHeader, path: String)
    /// A fresh session handed over without a journal.
    case session(Session)
  }

  /// A fresh session, remembered in `journal` when one is given (its header must match).
  ///
  /// - Parameter identity: what tells this session from others; by default the journal's, or
  ///   one made of the session's start, first id and configuration (a session without a
  ///   journal that must not repeat another's should pass its own).
  public init(session: Session, journal: Journal?, identity: String? = nil) {
    self.session = session
    self.journal = journal
    self.recordedNow = session.now
    self.openingOptions = session.options
    if session.emittedEventCount == 0 && journal?.records.isEmpty ?? true {
      self.start = journal.map { .header($0.header, path: $0.path) } ?? .session(session)
    } else {
      self.start = nil
    }
    self.identity =
      identity ?? journal?.header.identity
      ?? JournalHeader(
        configurationPath: "", configuration: session.configuration.xcodeFormattedBytes(),
        start: session.now, firstTransactionID: session.options.firstTransactionID
      ).identity
  }

  /// Rebuilds the session a journal describes by replaying it, then keeps appending to it.
  /// What was written reads back whatever limit `options` sets: the limit on events per
  /// command guards new commands only.
  ///
  /// - Parameters:
  ///   - replayLimit: the most events one record may cause while replaying; unbounded unless a
  ///     caller must bound its work (a fuzzer reading untrusted journals).
  ///   - progress: told after each record how far the replay got (records done, of all);
  ///     returning `false` stops it (``CommandError`` "stopped").
  ///   - keepsHistory: whether the history a step back needs is kept (its records, marks and
  ///     copies of the session); a caller that only reads the session (a listing) keeps none.
  /// - Throws: ``CommandError`` when the journal's configuration no longer loads or a record no
  ///   longer applies (naming its line).
  public init(
    replaying journal: Journal, options: SessionOptions = .init(), replayLimit: Int = .max / 4,
    keepsHistory: Bool = true, progress: ((Int, Int) -> Bool)? = nil
  ) throws(CommandError) {
    let (timeline, lines) = try Journal.timeline(of: journal.records, path: journal.path)
    let stepBacks = journal.records.lazy.filter {
      if case .rewind = $0 { true } else { false }
    }.count
    if !keepsHistory { journal.forgetRecords() }
    var session = try Self.fresh(journal.header, path: journal.path, options: options)
    session.isMuted = true
    session.maximumEventsPerVerb = replayLimit
    let count = timeline.count
    var history = SessionHistory()
    history.keepsHistory = keepsHistory
    for (index, record) in timeline.enumerated() {
      do throws(CommandError) {
        try history.run(record, on: &session) { _ in }
      } catch {
        throw CommandError(
          "\(journal.path):\(lines[index]): \(error). "
            + JournalContents.recovery(journal.path, line: lines[index]))
      }
      if let progress, !progress(index + 1, count) {
        throw CommandError("stopped while replaying \(journal.path)")
      }
    }
    session.isMuted = false
    session.maximumEventsPerVerb = options.maximumEventsPerVerb
    session.stepBacks = stepBacks
    self.session = session
    self.history = history
    self.journal = journal
    self.recordedNow = session.now
    self.identity = journal.header.identity
    self.start = .header(journal.header, path: journal.path)
    self.openingOptions = options
  }

  /// The session a journal header describes, before any record.
  static func fresh(
    _ header: JournalHeader, path: String, options: SessionOptions
  ) throws(CommandError) -> Session {
    let loaded = StoreKitConfiguration.load(header.configuration)
    guard let configuration = loaded.usableConfiguration else {
      throw CommandError("\(path): the configuration saved in the journal does not load")
    }
    var options = options
    options.firstTransactionID = header.firstTransactionID
    options.fidelity = fidelity(ofFormat: header.format, from: options.fidelity)
    return Session(configuration: configuration, start: header.start, options: options)
  }

  /// The fidelity choices a journal of `format` was written with: format 1 when the refund sheet
  /// refunded at once, format 2 when it waited for review; both when a price increase without a
  /// price added 10%.
  static func fidelity(ofFormat format: Int, from choices: FidelityChoices) -> FidelityChoices {
    var choices = choices
    if format < 3 { choices.unpricedIncrease = .tenPercentMore }
    if format == 2 { choices.refundSheetOutcome = .request }
    return choices
  }

  static func advance(
    _ session: inout Session, to instant: Instant, _ sink: EventSink
  ) throws(CommandError) {
    do throws(SessionError) {
      try session.advance(to: instant, sink)
    } catch {
      throw CommandError(error)
    }
  }

  /// Applies a command at the session's present. Its record is queued in the journal before
  /// its first event reaches `sink` (a refused command emits nothing), so a caller may commit
  /// and print events while a long command still runs.
  ///
  /// - Parameter origin: who asked. The live clock's `advance to` is journaled only when
  ///   something happened on the way; a quiet one is recorded with the next record, or by
  ///   ``recordClock()``.
  /// - Parameter customer: whom it acts for, when not the session's current customer (an App
  ///   Store Server API call about their transaction): one journal line names them, and the
  ///   current customer stays the current one.
  /// - Throws: ``CommandError`` when the session refuses it; nothing changes or is journaled.
  public mutating func apply(
    _ command: Command, from origin: CommandOrigin = .person, for customer: Customer? = nil,
    between checkpoint: ((Session) -> Void)? = nil, _ sink: EventSink
  ) throws(CommandError) {
    history.checkpoint = checkpoint
    defer { history.checkpoint = nil }
    var command = command
    if case .buy(let productID, var options) = command, let bundleID, options.bundleID == nil,
      options.offerSignature != nil || options.introductoryEligibility != nil
    {
      options.bundleID = bundleID
      command = .buy(productID: productID, options: options)
    }
    // The line is written only for a journal or a history that keeps it (not a population's).
    let keepsLine = journal != nil || history.keepsHistory
    var addressed: String?
    if let customer, customer != session.customer { addressed = customer.name ?? "" }
    var record = JournalRecord.command(
      at: session.now, text: keepsLine ? command.description : "", customer: addressed)
    var quiet = false
    if origin == .clock, case .advance(.to(let instant)) = command {
      record = .advance(to: instant)
      quiet = true
    }
    if case .stepBack(let kind) = command {
      try stepBack(kind)
      return
    }
    var queued = false
    let journal = self.journal
    try history.run(record, command: command, on: &session) { event in
      if !queued {
        journal?.append(record)
        queued = true
      }
      sink(event)
    }
    if quiet && !queued {
      history.dropLastEntry()
      return
    }
    if !queued { journal?.append(record) }
    recordedNow = session.now
  }

  /// Starts `finish all` to be done in steps (``continueFinishing(_:atMost:_:)``), so that a
  /// caller finishing a million transactions keeps drawing between them. The command is
  /// journaled now, once: replaying it finishes at once what the steps finish, since the steps
  /// leave alone what is made after this point. Commands that would see a half-finished
  /// session (finishing, deleting) must wait until it is done.
  public mutating func startFinishingAll() -> FinishAllJob {
    let record = JournalRecord.command(at: session.now, text: Command.finish(nil).description)
    journal?.append(record)
    history.appendCommand(record, on: session, makesEvents: session.unfinishedCount > 0)
    recordedNow = session.now
    return FinishAllJob(next: 0, boundary: session.recordCount, total: session.unfinishedCount)
  }

  /// Finishes up to `limit` more transactions of a ``startFinishingAll()``; `true` when none
  /// is left.
  public mutating func continueFinishing(
    _ job: inout FinishAllJob, atMost limit: Int, _ sink: EventSink
  ) -> Bool {
    var count = 0
    let next = session.finishAll(
      fromPosition: job.next, beforePosition: job.boundary, atMost: limit
    ) {
      count += 1
      sink($0)
    }
    job.done += count
    job.next = next ?? job.boundary
    return next == nil
  }

  /// Queues the clock's position in the journal, when it moved since the last record (the
  /// inspector pauses or quits).
  public mutating func recordClock() {
    guard session.now > recordedNow else { return }
    journal?.append(.advance(to: session.now))
    history.append(.advance(to: session.now))
    recordedNow = session.now
  }

  /// Switches to a changed configuration (reloaded from disk or written back), journaling it.
  public mutating func reload(_ configuration: StoreKitConfiguration, bytes: [UInt8]) {
    journal?.append(.configuration(at: session.now, bytes: bytes))
    history.append(.configuration(at: session.now, bytes: bytes))
    session.reload(configuration)
    recordedNow = session.now
  }

  /// Flushes the queued records to disk.
  public func commit() throws(CommandError) { try journal?.commit() }
}

/// A `finish all` being done in steps (``JournaledSession/startFinishingAll()``).
public struct FinishAllJob: Equatable, Sendable {
  /// The ledger position to go on from.
  var next: Int
  /// The first position made after it started: left alone.
  let boundary: Int
  /// How many transactions were unfinished when it started.
  public let total: Int
  /// How many it finished so far.
  public internal(set) var done = 0
}
