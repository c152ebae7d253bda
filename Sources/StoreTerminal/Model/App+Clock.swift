import StoreCommands
import StoreSimulation

/// A catch-up in progress: the session's clock is far behind where the live clock says it
/// should be (a journal reopened after a while, at a fast rate), so it moves in steps with a
/// frame and a look at the keys between them. Every step that caused events is journaled, so
/// stopping between steps leaves a consistent session.
public struct CatchUp: Equatable, Sendable {
  /// Where the session's clock stood when the catch-up began.
  public var from: Instant
  /// Where it is going (the live clock's instant at the last step).
  public var target: Instant
  /// The wall clock when it began.
  public var startedAt: Instant
  /// Renewals made so far.
  public var renewals = 0
  /// Events so far.
  public var events = 0

  /// About how many transitions one step makes (a few events each): small enough for a frame
  /// every few dozen milliseconds, large enough that steps are not the cost.
  static let transitionsPerStep = 5_000
}

extension App {
  /// Moves a running clock to the wall clock's moment; renewals due meanwhile happen. A gap
  /// that would make more than a step's worth of transitions becomes a ``catchUp``, closed one
  /// step per call.
  public mutating func tick(wall: Instant) {
    self.wall = wall
    guard clock.running else { return }
    let target = clock.simulated(at: wall, current: session.now)
    guard target > session.now else { return }
    let stepEnd = Self.stepEnd(of: session, toward: target)
    var progress = catchUp
    if progress == nil && stepEnd < target {
      progress = CatchUp(from: session.now, target: target, startedAt: wall)
    }
    progress?.target = target
    var events: [StoreEvent] = []
    guard advanceClock(to: stepEnd, collecting: &events) else {
      catchUp = nil
      return
    }
    guard var progress else {
      absorb(events)
      return
    }
    progress.events += events.count
    progress.renewals +=
      events.lazy.filter {
        if case .transaction(let transaction, _) = $0.kind {
          transaction.reason == .renewal
        } else {
          false
        }
      }.count
    if stepEnd < target {
      catchUp = progress
      absorb(events, refiltering: false)
    } else {
      catchUp = nil
      absorb(events)
      finishCatchUp(progress)
    }
  }

  /// The furthest instant toward `target` whose transitions fit in one step (at least the next
  /// scheduled event, so that every step moves).
  static func stepEnd(of session: Session, toward target: Instant) -> Instant {
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

  /// Advances the journaled session, committing when something happened; `false` (with the
  /// clock stopped and the reason shown) when it cannot.
  private mutating func advanceClock(
    to target: Instant, collecting events: inout [StoreEvent]
  )
    -> Bool
  {
    do throws(CommandError) {
      try journaled.advanceClock(to: target) { events.append($0) }
      try journaled.commit()
      return true
    } catch {
      message = ("clock: \(error.explanation)", true)
      clock.running = false
      return false
    }
  }

  /// After a catch-up: the table shows the newest transaction, and the status line says what
  /// happened.
  private mutating func finishCatchUp(_ progress: CatchUp) {
    entitledProducts = Set(session.currentEntitlements().map(\.productID))
    selectedID = nil
    refilter()
    message = (
      "caught up to \(Formatting.clock(session.now)): \(progress.renewals) renewals, "
        + "\(progress.events) events", false
    )
  }

  /// Stops a catch-up where it got to, with the clock paused there (its steps are journaled).
  mutating func pauseCatchUp() {
    guard let progress = catchUp else { return }
    catchUp = nil
    clock.running = false
    recordClock()
    finishCatchUp(progress)
    message = (
      "paused at \(Formatting.clock(session.now)) while catching up (\(progress.renewals) "
        + "renewals so far); space runs the clock on", false
    )
  }

  /// Keeps the live clock moving from wherever a command put the session: after `advance` or
  /// `n`, time runs on from the new instant instead of waiting for the wall clock to catch up.
  mutating func keepClockAhead() {
    guard clock.running else { return }
    let simulated = wall.milliseconds - clock.offset
    if session.now.milliseconds > simulated {
      clock.offset = wall.milliseconds - session.now.milliseconds
    }
  }

  /// Records where the clock stands in the journal (pausing, quitting); nothing when it did not
  /// move since the last record.
  public mutating func recordClock() {
    journaled.recordClock()
    do throws(CommandError) {
      try journaled.commit()
    } catch {
      message = ("clock: \(error.explanation)", true)
    }
  }

  mutating func toggleClock() {
    if catchUp != nil {
      pauseCatchUp()
      return
    }
    if clock.running {
      tick(wall: wall)
      clock.running = false
      recordClock()
      message = ("clock paused at \(Formatting.clock(session.now))", false)
    } else {
      clock.running = true
      clock.offset = wall.milliseconds - session.now.milliseconds
      message = ("clock running", false)
    }
  }

  mutating func jumpToNextEvent() {
    guard let next = session.nextScheduledEvent else {
      message = ("nothing is scheduled: no subscription is renewing", true)
      return
    }
    if perform(.advance(.next)) {
      message = ("jumped to \(Formatting.clock(next)), the next scheduled event", false)
    }
  }

  /// Rates from slowest to fastest.
  static let rateLadder: [TimeRate] = [
    .realTime, .monthlyRenewalEveryHour, .monthlyRenewalEveryThirtyMinutes,
    .monthlyRenewalEveryFifteenMinutes, .monthlyRenewalEveryFiveMinutes,
    .oneRenewalEveryFifteenMinutes, .oneRenewalEveryFiveMinutes, .oneRenewalEveryMinute,
    .monthlyRenewalEveryThirtySeconds, .oneRenewalEveryThirtySeconds, .oneRenewalEveryTenSeconds,
    .oneRenewalEveryTwoSeconds,
  ]

  mutating func changeRate(by delta: Int) {
    let current = Self.rateLadder.firstIndex(of: session.settings.timeRate) ?? 0
    let next = max(0, min(Self.rateLadder.count - 1, current + delta))
    guard next != current else {
      message = ("already the \(delta > 0 ? "fastest" : "slowest") rate", true)
      return
    }
    if perform(.set(.timeRate(Self.rateLadder[next]))) {
      message = (
        "time rate: \(Self.rateLadder[next].displayName) (applies from the next period)", false
      )
    }
  }

  /// How long the loop may sleep: not at all while catching up, else until the clock's next
  /// second or the next due event, whichever comes first.
  public func sleepMilliseconds(wall: Instant) -> Int {
    if catchUp != nil { return 0 }
    guard clock.running else { return 1000 }
    let now = clock.simulated(at: wall, current: session.now).milliseconds
    var wait = 1000 - (now % 1000)
    if let next = session.nextScheduledEvent?.milliseconds { wait = min(wait, max(0, next - now)) }
    return Int(max(1, min(1000, wait)))
  }

  /// Before the program ends (a quit or a signal): the clock's position is journaled, so a
  /// reopened session starts from here.
  public mutating func prepareToQuit() {
    recordClock()
  }
}
