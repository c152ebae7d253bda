import StoreCommands
import StoreSimulation

/// The inspector's live clock: the simulated now follows the wall clock at an offset while
/// running, stands still while paused. A running clock moves the session with
/// `advance <instant>`, a command like any other (journaled only when something happens); a gap
/// that would make more than a step's worth of transitions becomes a ``CatchUp``, closed one
/// step per tick.
package struct LiveClock: Equatable, Sendable {
  /// Running or paused, and the offset.
  package internal(set) var state: ClockState
  /// The wall clock at the last tick or key.
  package internal(set) var wall: Instant
  /// The catch-up in progress, if the clock is far behind.
  package internal(set) var catchUp: CatchUp?

  /// What a step of the clock did to a catch-up.
  enum Step: Equatable {
    /// No catch-up: the events are shown as they come.
    case live
    /// Still catching up: the table waits for the end.
    case catchingUp
    /// The catch-up reached its target.
    case caughtUp(CatchUp)
  }

  /// The command that moves the session to the wall clock's moment (one step of it), if the
  /// clock runs and is behind.
  mutating func tick(wall: Instant, session: SessionView) -> Command? {
    self.wall = wall
    guard state.running else { return nil }
    let target = state.simulated(at: wall, current: session.now)
    guard target > session.now else { return nil }
    let stepEnd = Self.stepEnd(of: session, toward: target)
    if catchUp == nil && stepEnd < target {
      catchUp = CatchUp(from: session.now, target: target, startedAt: wall)
    }
    catchUp?.target = target
    return .advance(.to(stepEnd))
  }

  /// The furthest instant toward `target` whose transitions fit in one step (at least the next
  /// scheduled event, so that every step moves).
  static func stepEnd(of session: SessionView, toward target: Instant) -> Instant {
    let budget = CatchUp.transitionsPerStep
    if session.transitionsDue(until: target, atMost: budget) <= budget { return target }
    var low = session.now.milliseconds
    var high = target.milliseconds
    while high - low > 1 {
      let middle = low + (high - low) / 2
      if session.transitionsDue(until: Instant(milliseconds: middle), atMost: budget) <= budget {
        low = middle
      } else {
        high = middle
      }
    }
    let next = session.nextScheduledEvent ?? target
    return max(Instant(milliseconds: low), min(next, target))
  }

  /// A step applied: a catch-up counts its events and renewals.
  mutating func stepped(_ events: [StoreEvent], session: SessionView) -> Step {
    guard var progress = catchUp else { return .live }
    progress.events += events.count
    progress.renewals +=
      events.lazy.filter {
        if case .transaction(let transaction, _) = $0.kind {
          transaction.reason == .renewal
        } else {
          false
        }
      }.count
    if session.now < progress.target {
      catchUp = progress
      return .catchingUp
    }
    catchUp = nil
    return .caughtUp(progress)
  }

  /// The clock could not move (the engine refused): it stops.
  mutating func stop() {
    state.running = false
    catchUp = nil
  }

  /// Pauses where it is; returns the catch-up it ends, if any.
  mutating func pause() -> CatchUp? {
    defer { catchUp = nil }
    state.running = false
    return catchUp
  }

  /// Pauses now: the command that first moves the session to this moment (one step at most),
  /// if it is behind, and the instant it stops at.
  mutating func pauseNow(session: SessionView) -> (command: Command?, at: Instant) {
    let target = state.simulated(at: wall, current: session.now)
    state.running = false
    guard target > session.now else { return (nil, session.now) }
    let end = Self.stepEnd(of: session, toward: target)
    return (.advance(.to(end)), end)
  }

  /// Runs on from the session's instant.
  mutating func resume(session: SessionView) {
    state.running = true
    state.offset = wall.milliseconds - session.now.milliseconds
  }

  /// Keeps the clock moving from wherever a command put the session: after `advance` or `n`,
  /// time runs on from the new instant instead of waiting for the wall clock to catch up.
  mutating func keepAhead(of session: SessionView) {
    guard state.running else { return }
    if session.now.milliseconds > wall.milliseconds - state.offset {
      state.offset = wall.milliseconds - session.now.milliseconds
    }
  }

  /// The simulated instant now.
  func now(_ session: SessionView) -> Instant { state.simulated(at: wall, current: session.now) }

  /// How long the loop may sleep: not at all while catching up, else until the clock's next
  /// second or the next due event, whichever comes first.
  func sleepMilliseconds(wall: Instant, session: SessionView) -> Int {
    if catchUp != nil { return 0 }
    guard state.running else { return 1000 }
    let now = state.simulated(at: wall, current: session.now).milliseconds
    var wait = 1000 - (now % 1000)
    if let next = session.nextScheduledEvent?.milliseconds { wait = min(wait, max(0, next - now)) }
    return Int(max(1, min(1000, wait)))
  }
}

/// A catch-up in progress: the session's clock is far behind where the live clock says it
/// should be (a journal reopened after a while, at a fast rate), so it moves in steps with a
/// frame and a look at the keys between them. Every step that caused events is journaled, so
/// stopping between steps leaves a consistent session.
package struct CatchUp: Equatable, Sendable {
  /// Where the session's clock stood when the catch-up began.
  package var from: Instant
  /// Where it is going (the live clock's instant at the last step).
  package var target: Instant
  /// The wall clock when it began.
  package var startedAt: Instant
  /// Renewals made so far.
  package var renewals = 0
  /// Events so far.
  package var events = 0

  /// About how many transitions one step makes (a few events each): small enough for a frame
  /// every few dozen milliseconds, large enough that steps are not the cost.
  static let transitionsPerStep = 5_000
}

/// Running or paused, and the offset of simulated time from the wall clock.
package struct ClockState: Equatable, Sendable {
  /// Whether time flows.
  package var running: Bool
  /// Wall time minus simulated time, in milliseconds.
  package var offset: Int64

  /// A clock.
  package init(running: Bool, offset: Int64) {
    self.running = running
    self.offset = offset
  }

  /// The clock a session opens with at `wall`: a new one (its journal starting at `newStart`,
  /// empty) runs on from its start; a resumed one catches up to the wall clock, as Xcode's
  /// environment does, or runs on from its last instant when that is ahead.
  package init(opening journaled: JournaledSession, newStart: Instant, wall: Instant, running: Bool)
  {
    let isNew =
      journaled.journal?.header.start == newStart && journaled.journal?.records.isEmpty == true
    let behind = wall.milliseconds - journaled.session.now.milliseconds
    self.init(running: running, offset: isNew ? behind : min(0, behind))
  }

  /// The simulated instant for a wall-clock instant.
  func simulated(at wall: Instant, current: Instant) -> Instant {
    running ? max(current, wall.adding(milliseconds: -offset)) : current
  }
}
