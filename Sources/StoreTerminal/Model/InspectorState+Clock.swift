import StoreCommands
import StoreSimulation

extension InspectorState {
  /// A tick of the wall clock: a running clock asks to advance.
  mutating func tick(wall: Instant, session: SessionView) -> [InspectorEffect] {
    live.tick(wall: wall, session: session).map { [.apply(CommandRequest($0, origin: .clock))] }
      ?? []
  }

  /// A step of the live clock applied: its events reach the table (at the end of a catch-up).
  mutating func clockAdvanced(_ events: [StoreEvent], session: SessionView) -> [InspectorEffect] {
    switch live.stepped(events, session: session) {
    case .live: absorb(events, session: session)
    case .catchingUp: absorb(events, session: session, refiltering: false)
    case .caughtUp(let progress):
      absorb(events, session: session)
      finishCatchUp(progress, session: session)
    }
    return events.isEmpty ? [] : [.deliver(events)]
  }

  /// After a catch-up: the table shows the newest transaction, and the status line says so.
  private mutating func finishCatchUp(_ progress: CatchUp, session: SessionView) {
    table.refresh(session)
    table.selectNewest()
    say(
      "caught up to \(Formatting.clock(session.now)): \(progress.renewals) renewals, "
        + "\(progress.events) events")
  }

  /// Space: pauses (a catch-up where it got to), journaling where the clock stands, or runs the
  /// clock on from the session's instant.
  mutating func toggleClock(session: SessionView) -> [InspectorEffect] {
    if live.catchUp != nil, let progress = live.pause() {
      finishCatchUp(progress, session: session)
      say(
        "paused at \(Formatting.clock(session.now)) while catching up (\(progress.renewals) "
          + "renewals so far); space runs the clock on")
      return [.recordClock]
    }
    if !clock.running {
      live.resume(session: session)
      say("clock running")
      return []
    }
    let (command, instant) = live.pauseNow(session: session)
    say("clock paused at \(Formatting.clock(instant))")
    return (command.map { [.apply(CommandRequest($0, origin: .clock))] } ?? []) + [.recordClock]
  }

  /// `+` and `-`: the next rate on the ladder.
  mutating func changeRate(by delta: Int, session: SessionView) -> [InspectorEffect] {
    let ladder = TimeRate.ladder
    let current = ladder.firstIndex(of: session.settings.timeRate) ?? 0
    let next = max(0, min(ladder.count - 1, current + delta))
    guard next != current else {
      complain("already the \(delta > 0 ? "fastest" : "slowest") rate")
      return []
    }
    let rate = ladder[next]
    return [
      Self.apply(
        .set(.timeRate(rate)),
        success: "time rate: \(rate.displayName) (applies from the next period)")
    ]
  }
}
