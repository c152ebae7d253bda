import StoreSimulation

/// How far a step back goes.
public enum StepBack: String, Sendable, Equatable, CaseIterable {
  /// To just before the last moment something happened: a command's events, a renewal, an
  /// expiry (`back`, the inspector's `N`).
  case event = "back"
  /// To just before the last command a person gave (`undo`).
  case command = "undo"
}

extension JournaledSession {
  /// Where a step back would go now, or `nil` at the start of the session's history.
  ///
  /// - Complexity: O(1): the points are noted as the session goes.
  public func stepBackTarget(_ kind: StepBack) -> HistoryPoint? {
    history.target(kind)
  }

  /// Steps back: the session becomes what it was at ``stepBackTarget(_:)``, rebuilt from the
  /// nearest copy of it the history kept (so a step back costs about what the steps it takes
  /// back cost). The step is journaled as its own record (nothing is deleted), so a later
  /// command goes on from there and the journal reopens there.
  ///
  /// - Throws: ``CommandError`` at the start of the history ("nothing to step back to"), or
  ///   when the start is not known.
  public mutating func stepBack(_ kind: StepBack) throws(CommandError) {
    guard start != nil else {
      throw CommandError(
        "this session was opened with a history that is not journaled, so it cannot step back")
    }
    guard let point = history.target(kind) else {
      throw CommandError(
        kind == .event
          ? "nothing happened yet: this is the start of the session"
          : "no command to undo: this is the start of the session")
    }
    var session = try history.session(at: point, from: startingSession)
    session.stepBacks = self.session.stepBacks + 1
    session.isMuted = false
    session.maximumEventsPerVerb = openingOptions.maximumEventsPerVerb
    journal?.append(.rewind(at: self.session.now, entries: point.entries, to: point.clock))
    history.rewind(to: point)
    self.session = session
    recordedNow = session.now
  }

  /// The session as it was at `instant`: the history replayed to that moment (every entry
  /// dated at or before it; an advance under way then, only up to it). The session itself does
  /// not change.
  ///
  /// - Throws: ``CommandError`` when `instant` is before the session's start or after its
  ///   present, or the start is not known.
  public mutating func session(at instant: Instant) throws(CommandError) -> Session {
    guard start != nil else {
      throw CommandError(
        "this session was opened with a history that is not journaled, so it cannot be replayed")
    }
    let first = try startingSession().now
    guard instant >= first, instant <= session.now else {
      throw CommandError(
        "\(instant.iso8601) is outside the session's history (\(first.iso8601) to "
          + "\(session.now.iso8601))")
    }
    var entries = 0
    for record in history.entries {
      let begins: Instant =
        switch record {
        case .command(let at, _, _), .configuration(let at, _): at
        case .advance(let to): to
        case .rewind(let at, _, _): at
        }
      guard begins <= instant else { break }
      entries += 1
    }
    // The last entry taken may be an advance going past the instant: the point stops before
    // it and moves the clock to the instant, which is that advance cut short (and, when it
    // ended sooner, the same as taking it whole).
    if entries > 0, Self.isAdvance(history.entries[entries - 1]) { entries -= 1 }
    var replayed = try history.session(
      at: HistoryPoint(entries: entries, clock: instant), from: startingSession)
    replayed.isMuted = false
    return replayed
  }

  /// Whether an entry only moves the clock (an advance command or record).
  private static func isAdvance(_ record: JournalRecord) -> Bool {
    switch record {
    case .advance: return true
    case .command(_, let text, _):
      guard let command = try? Command.parse(text), case .advance = command else { return false }
      return true
    case .configuration, .rewind: return false
    }
  }

  /// The session at the start of its history.
  func startingSession() throws(CommandError) -> Session {
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
