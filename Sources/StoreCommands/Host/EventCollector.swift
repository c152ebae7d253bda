import StoreSimulation

/// Keeps the events of the commands a host applies, for a front end that takes them once a
/// command returned (the inspector's reducer; the server's answer to an App Store Server API
/// change). The events leave the host through it, as through any observer; a front end that
/// commits each command takes them committed.
public final class EventCollector: CommandObserver {
  private var kept: [StoreEvent] = []

  /// A collector that has kept nothing.
  public init() {}

  /// Keeps the events.
  public func stream(_ events: ArraySlice<StoreEvent>) { kept += events }

  /// Nothing to do at a command's end: the events wait for ``take()``.
  public func finished(_ outcome: CommandOutcome, session: Session) {}

  /// The events kept since the last call, in order; it keeps nothing after.
  public func take() -> [StoreEvent] {
    defer { kept = [] }
    return kept
  }
}

/// The commands a host applied while it listened, each with its events: for a front end that
/// shows what another front end applied through the same host (the inspector showing the
/// requests the server served).
public final class AppliedCommands: CommandObserver {
  private var events: [StoreEvent] = []
  private var applied: [(command: Command, events: [StoreEvent])] = []

  /// A log that has heard nothing.
  public init() {}

  /// Keeps the events of the command under way.
  public func stream(_ events: ArraySlice<StoreEvent>) { self.events += events }

  /// Keeps the command with its events when it applied.
  public func finished(_ outcome: CommandOutcome, session: Session) {
    defer { events = [] }
    guard let command = outcome.command, outcome.isApplied else { return }
    applied.append((command, events))
  }

  /// The commands applied since the last call, in order; it keeps nothing after.
  public func take() -> [(command: Command, events: [StoreEvent])] {
    defer { applied = [] }
    return applied
  }
}
