import StoreConfiguration
import StoreSimulation

/// How far a step back goes.
public enum StepBack: String, Sendable, Equatable, CaseIterable {
  /// To just before the last moment something happened: a command's events, a renewal, an
  /// expiry (`back`, the inspector's `N`).
  case event = "back"
  /// To just before the last command a person gave (`undo`).
  case command = "undo"
}

/// A point of a session's history: the first `entries` entries of its timeline, then the clock
/// moved on to `clock`.
public struct HistoryPoint: Equatable, Sendable {
  /// How many timeline entries it keeps.
  public var entries: Int
  /// Where its clock stands.
  public var clock: Instant
}

extension JournaledSession {
  /// Where a step back would go now, or `nil` at the start of the session's history.
  ///
  /// Found by replaying the timeline and noting the point before each moment that made events;
  /// O(history).
  ///
  /// - Throws: ``CommandError`` when the session's start is not known (a session handed over
  ///   with a history of its own) or its history no longer replays.
  public func stepBackTarget(_ kind: StepBack) throws(CommandError) -> HistoryPoint? {
    var session = try startingSession()
    session.isMuted = true
    session.maximumEventsPerVerb = .max / 4
    var lastEvent: HistoryPoint?
    var lastCommand: HistoryPoint?
    let ignore: EventSink = { _ in }
    // Moves the clock to `target` a scheduled transition at a time, noting the point before
    // each one that makes events.
    func advance(to target: Instant, entries: Int) throws(CommandError) {
      while let due = session.nextScheduledEvent, due <= target {
        let before = session.emittedEventCount
        let point = HistoryPoint(
          entries: entries, clock: max(session.now, due.adding(milliseconds: -1)))
        try Self.advance(&session, to: due, ignore)
        if session.emittedEventCount > before { lastEvent = point }
        if session.nextScheduledEvent == due { break }
      }
      if target > session.now { try Self.advance(&session, to: target, ignore) }
    }
    let timeline = self.timeline
    for (index, entry) in timeline.enumerated() {
      switch entry {
      case .command(let at, let text):
        try advance(to: at, entries: index)
        let point = HistoryPoint(entries: index, clock: session.now)
        let before = session.emittedEventCount
        guard let command = try Command.parse(text) else { continue }
        lastCommand = point
        // `advance 95s` steps back one renewal at a time, as the clock's own moves do.
        if case .verb(.advance(let target))? = try? command.resolved(in: session) {
          try advance(to: target, entries: index)
          continue
        }
        try command.apply(to: &session, ignore)
        if session.emittedEventCount > before { lastEvent = point }
      case .advance(let to): try advance(to: to, entries: index)
      case .configuration(let at, _):
        try advance(to: at, entries: index)
        try Self.replay(entry, on: &session)
      case .rewind: throw CommandError("a step back cannot be replayed outside its journal")
      }
    }
    try advance(to: self.session.now, entries: timeline.count)
    return kind == .event ? lastEvent : lastCommand
  }

  /// Steps back: the session becomes what it was at ``stepBackTarget(_:)``, rebuilt by replay.
  /// The step is journaled as its own record (nothing is deleted), so a later command goes on
  /// from there and the journal reopens there.
  ///
  /// - Throws: ``CommandError`` at the start of the history ("nothing to step back to"), or
  ///   when the start is not known.
  public mutating func stepBack(_ kind: StepBack) throws(CommandError) {
    guard let point = try stepBackTarget(kind) else {
      throw CommandError(
        kind == .event
          ? "nothing happened yet: this is the start of the session"
          : "no command to undo: this is the start of the session")
    }
    var entries = Array(self.timeline.prefix(point.entries))
    entries.append(.advance(to: point.clock))
    var session = try startingSession()
    session.isMuted = true
    session.maximumEventsPerVerb = .max / 4
    for entry in entries { try Self.replay(entry, on: &session) }
    session.isMuted = false
    session.maximumEventsPerVerb = openingOptions.maximumEventsPerVerb
    journal?.append(.rewind(at: self.session.now, entries: point.entries, to: point.clock))
    self.session = session
    if journal == nil { unjournaled = entries }
    recordedNow = session.now
  }

  /// The session at the start of its history.
  private func startingSession() throws(CommandError) -> Session {
    switch start {
    case .header(let header, let path)?:
      return try Self.fresh(header, path: path, options: openingOptions)
    case .session(let session)?: return session
    case nil:
      throw CommandError(
        "this session was opened with a history that is not journaled, so it cannot step back")
    }
  }
}
