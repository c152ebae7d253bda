import StoreConfiguration
import StoreSimulation

/// A point of a session's history: the first `entries` entries of its timeline, then the clock
/// moved on to `clock`.
public struct HistoryPoint: Equatable, Comparable, Sendable {
  /// How many timeline entries it keeps.
  public var entries: Int
  /// Where its clock stands.
  public var clock: Instant

  /// A point.
  public init(entries: Int, clock: Instant) {
    self.entries = entries
    self.clock = clock
  }

  /// Points in the order the history passes them.
  public static func < (lhs: HistoryPoint, rhs: HistoryPoint) -> Bool {
    (lhs.entries, lhs.clock.milliseconds) < (rhs.entries, rhs.clock.milliseconds)
  }
}

/// A session's history as stepping back needs it, kept as the session goes: the timeline (the
/// records that made it, step backs resolved), the points a step back can go to (before each
/// moment that made events, before each command), and copies of the session at some points.
/// A step back replays only from the nearest copy, so it costs about what the steps it takes
/// back cost, whatever the length of the history.
struct SessionHistory {
  /// A copy of the session at a point (sessions share what they did not change since).
  private struct Copy {
    var point: HistoryPoint
    /// Its place among all copies ever made: the older, the sparser they are kept.
    var serial: Int
    var session: Session
  }

  /// The points a step back can go to, ascending: before each moment that made events
  /// (`back`), before each command a person gave (`undo`).
  struct Marks {
    var events: [HistoryPoint] = []
    var commands: [HistoryPoint] = []
  }

  /// The records that made the session, in order.
  private(set) var entries: [JournalRecord] = []
  /// Where a step back can go.
  private(set) var marks = Marks()
  /// Copies of the session at some points, ascending.
  private var copies: [Copy] = []
  /// Whether the entries, the marks and copies of the session are kept as it goes (not for a
  /// session that is only read, such as a listing's: each copy keeps what the session changes
  /// after it, and the entries and marks grow with the journal).
  var keepsHistory = true
  /// Told the session between the stretches of a long advance (the events so far streamed),
  /// so that observers can finish with them before the command ends.
  var checkpoint: ((Session) -> Void)?
  private var serials = 0
  /// Entries and eventful moments since the last copy: what a replay from it would redo.
  private var workSinceCopy = 0
  /// What the replays of ``session(at:from:)`` cost so far: entries replayed and eventful
  /// moments passed (tests read it to see that a step back replays only what it takes back).
  private(set) var replayed = 0
  /// What the replays of ``session(at:from:)`` did so far: entries replayed and the events
  /// they caused again (muted), whatever the marks say (a request's budget counts it).
  private(set) var replayWork = 0

  /// How many copies are kept: recent ones dense, older ones sparser (their replay is longer,
  /// but rarer).
  static let copiesKept = 20

  /// How much work between copies: a copy costs about what the session holds, its transactions
  /// and its customers (the arrays it changes next are copied then), so one is kept each time a
  /// sixteenth of that was done — every entry for a small session, every 60,000 renewals or so
  /// at a million transactions. A step back then replays at most that, and copying adds a few
  /// percent to the work.
  static func copySpacing(_ session: Session) -> Int {
    max(1, (session.transactionCountOfEveryCustomer + session.customers.count) / 16)
  }

  /// The last point a step back of `kind` goes to.
  func target(_ kind: StepBack) -> HistoryPoint? {
    kind == .event ? marks.events.last : marks.commands.last
  }

  /// Applies one entry to `session` as a replay does, appending it and its marks, and keeping
  /// copies of the session on the way as ``copySpacing(_:)`` says.
  ///
  /// - Parameter command: the entry's command already parsed (a live command), or `nil` to
  ///   parse it.
  /// - Throws: ``CommandError`` when the session refuses the entry; nothing changed then.
  mutating func run(
    _ record: JournalRecord, command: Command? = nil, on session: inout Session,
    _ sink: EventSink
  ) throws(CommandError) {
    let (events, commands) = (marks.events.count, marks.commands.count)
    do throws(CommandError) {
      var marks = Marks()
      swap(&marks, &self.marks)
      defer { swap(&marks, &self.marks) }
      try apply(record, index: entries.count, command: command, on: &session, &marks, sink)
      if !keepsHistory { marks = Marks() }
    } catch {
      // Refused: nothing changed, and no mark stays.
      marks.events.removeSubrange(events...)
      marks.commands.removeSubrange(commands...)
      throw error
    }
    if keepsHistory { entries.append(record) }
  }

  /// Takes back the last entry, which made nothing (a quiet move of the live clock, which is
  /// not journaled: the next entry's instant covers it).
  mutating func dropLastEntry() { if keepsHistory { entries.removeLast() } }

  /// Adds an entry the session already reflects (the clock recorded where it stands).
  mutating func append(_ record: JournalRecord) { entries.append(record) }

  /// Adds a command whose events come in steps (`finish all`): its mark, an event mark too when
  /// it will make events.
  mutating func appendCommand(_ record: JournalRecord, on session: Session, makesEvents: Bool) {
    let point = HistoryPoint(entries: entries.count, clock: session.now)
    keepIfDue(session, at: point)
    marks.commands.append(point)
    if makesEvents { marks.events.append(point) }
    entries.append(record)
    workSinceCopy += 1
  }

  /// Applies `record` as entry `index`, appending its marks to `marks`; keeps copies on the way
  /// when ``copySpacing(_:)`` says so.
  private mutating func apply(
    _ record: JournalRecord, index: Int, command given: Command?, on session: inout Session,
    _ marks: inout Marks, _ sink: EventSink
  ) throws(CommandError) {
    keepIfDue(session, at: HistoryPoint(entries: index, clock: session.now))
    workSinceCopy += 1
    switch record {
    case .command(let at, let text, let customer):
      if at > session.now { try advance(&session, to: at, index: index, &marks, sink) }
      var parsed = given
      if parsed == nil { parsed = try Command.parse(text) }
      guard let command = parsed else { return }
      let point = HistoryPoint(entries: index, clock: session.now)
      marks.commands.append(point)
      // `advance 95s` steps back one renewal at a time, as the clock's own moves do.
      if case .verb(.advance(let target))? = try? command.resolved(in: SessionView(session)) {
        try advance(&session, to: target, index: index, &marks, sink)
        return
      }
      let before = session.emittedEventCount
      if let customer {
        try Self.apply(command, for: customer, on: &session, sink)
      } else {
        try command.apply(to: &session, sink)
      }
      if session.emittedEventCount > before { marks.events.append(point) }
    case .advance(let to):
      try advance(&session, to: to, index: index, &marks, sink)
    case .configuration(let at, let bytes):
      if at > session.now { try advance(&session, to: at, index: index, &marks, sink) }
      guard let configuration = StoreKitConfiguration.load(bytes).usableConfiguration else {
        throw CommandError("a configuration saved in the journal does not load")
      }
      session.reload(configuration)
    case .rewind:
      // A timeline holds no steps back: they are resolved into it.
      throw CommandError("a step back cannot be replayed outside its journal")
    }
  }

  /// Applies `command` to the customer a journal line names (`""` the session's own), the
  /// session's current customer unchanged.
  ///
  /// - Throws: ``CommandError`` when no such customer is in the session, or the command's own.
  static func apply(
    _ command: Command, for name: String, on session: inout Session, _ sink: EventSink
  ) throws(CommandError) {
    guard let customer = name.isEmpty ? Customer.own : session.customer(named: name) else {
      throw CommandError(session.noCustomer(named: name), command: command.description)
    }
    _ = try session.addressing(customer) { (session) throws(CommandError) in
      try command.apply(to: &session, sink)
    }
  }

  /// Moves the clock to `target` within entry `index`, a mark before each moment that made
  /// events, in stretches of ``copySpacing(_:)`` transitions with a copy between them.
  private mutating func advance(
    _ session: inout Session, to target: Instant, index: Int, _ marks: inout Marks,
    _ sink: EventSink
  ) throws(CommandError) {
    var previous = session.now
    var reached = false
    while !reached {
      // With a checkpoint, at most 1,024 transitions' events wait for it.
      let stretch = max(
        1, min(Self.copySpacing(session) - workSinceCopy, checkpoint == nil ? .max : 1024))
      var work = 0
      do throws(SessionError) {
        reached = try session.advance(
          to: target, atMost: stretch,
          marking: { due, eventful in
            if eventful {
              let clock = max(previous, due.adding(milliseconds: -1))
              marks.events.append(HistoryPoint(entries: index, clock: clock))
              work += 1
            }
            previous = due
          }, sink)
      } catch {
        throw CommandError(error)
      }
      workSinceCopy += work
      if !reached {
        checkpoint?(session)
        keepIfDue(session, at: HistoryPoint(entries: index, clock: session.now))
      }
    }
  }

  /// Keeps a copy of `session` at `point` when enough work was done since the last one.
  private mutating func keepIfDue(_ session: Session, at point: HistoryPoint) {
    guard keepsHistory, workSinceCopy >= Self.copySpacing(session) || copies.isEmpty else {
      return
    }
    keep(session, at: point)
  }

  /// Keeps a copy of `session` at `point`, in order; when there are too many, drops the older
  /// one whose neighbours are closest for its age.
  private mutating func keep(_ session: Session, at point: HistoryPoint) {
    workSinceCopy = 0
    let position = copies.firstIndex { $0.point > point } ?? copies.count
    if position > 0 && copies[position - 1].point == point { return }
    serials += 1
    var copy = session
    copy.isMuted = true
    copies.insert(Copy(point: point, serial: serials, session: copy), at: position)
    guard copies.count > Self.copiesKept else { return }
    let newest = serials
    var dropped = 1
    var smallest = Double.infinity
    for index in 1..<(copies.count - 1) {
      let gap = Double(abs(copies[index + 1].serial - copies[index - 1].serial))
      let age = Double(newest - copies[index].serial + 1)
      if gap / age < smallest {
        smallest = gap / age
        dropped = index
      }
    }
    copies.remove(at: dropped)
  }

  /// The session at `point`: the nearest copy at or before it (or `start`), with the entries
  /// between replayed and the clock moved on. Copies are kept on the way as during the session,
  /// so that the next step back is short too.
  mutating func session(
    at point: HistoryPoint, from start: () throws(CommandError) -> Session
  ) throws(CommandError) -> Session {
    let nearest = copies.last { $0.point <= point }
    var session: Session
    if let nearest { session = nearest.session } else { session = try start() }
    let from = nearest?.point ?? HistoryPoint(entries: 0, clock: session.now)
    session.isMuted = true
    session.maximumEventsPerVerb = .max / 4
    let startingEvents = session.emittedEventCount
    replayed +=
      max(0, min(point.entries, entries.count) - from.entries)
      + Self.firstIndex(in: marks.events, atOrAfter: point)
      - Self.firstIndex(in: marks.events, atOrAfter: from)
    workSinceCopy = 0
    var ignored = Marks()
    for index in from.entries..<min(point.entries, entries.count) {
      // Copies 1, 2, 4, 8 … entries before the point: stepping back again and again from
      // there replays a few entries each time.
      let before = point.entries - index
      if index > from.entries && before & (before - 1) == 0 {
        keep(session, at: HistoryPoint(entries: index, clock: session.now))
      }
      var record = entries[index]
      if index == from.entries, case .command(let at, let text, _) = record, at < session.now {
        // A copy within an advance command: the rest of it, to its own target.
        guard let command = try Command.parse(text),
          case .verb(.advance(let target))? = try? command.resolved(in: SessionView(session))
        else {
          throw CommandError("a copy of the session lies within a command that is no advance")
        }
        if case .advance(.by(let duration)) = command {
          record = .advance(to: duration.after(at))
        } else {
          record = .advance(to: target)
        }
      }
      ignored = Marks()
      try apply(record, index: index, command: nil, on: &session, &ignored) { _ in }
    }
    if point.clock > session.now {
      try advance(&session, to: point.clock, index: point.entries, &ignored) { _ in }
    }
    replayWork +=
      max(0, min(point.entries, entries.count) - from.entries)
      + Int(clamping: session.emittedEventCount - startingEvents)
    return session
  }

  /// The index of the first point at or after `point` (binary search).
  private static func firstIndex(in points: [HistoryPoint], atOrAfter point: HistoryPoint) -> Int {
    var low = 0
    var high = points.count
    while low < high {
      let middle = (low + high) / 2
      if points[middle] < point { low = middle + 1 } else { high = middle }
    }
    return low
  }

  /// The history after a step back to `point`: the entries before it, then the move of the
  /// clock to its instant (an entry that is no command, so its command mark goes too); marks
  /// and copies past it are gone.
  mutating func rewind(to point: HistoryPoint) {
    entries.removeSubrange(point.entries...)
    entries.append(.advance(to: point.clock))
    marks.events.removeSubrange(Self.firstIndex(in: marks.events, atOrAfter: point)...)
    marks.commands.removeSubrange(
      Self.firstIndex(
        in: marks.commands,
        atOrAfter: HistoryPoint(entries: point.entries, clock: Instant(milliseconds: .min)))...)
    copies.removeAll { $0.point > point }
  }
}
