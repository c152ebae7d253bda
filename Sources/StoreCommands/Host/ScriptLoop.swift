import Foundation

/// A script's lines applied through a host one after another, as `run` applies a file and the
/// control endpoint a request's body: numbered from 1, each line's work counted (its command,
/// its events, what a step back replayed), stopped at the first line that cannot be applied
/// (unless it keeps going), at a journal that cannot be written, or before a line when
/// ``shouldStop`` says why.
public struct ScriptLoop {
  /// How a script ended.
  public enum End: Equatable, Sendable {
    /// Every line was read; this many could not be applied (the loop kept going).
    case finished(failures: Int)
    /// A line could not be applied; its error is the last thing the observers heard.
    case refused(CommandError)
    /// The journal could not be written: what was applied stays applied.
    case journalFailed(CommandError)
    /// Stopped before line `line` (whose text is `text`) for `why`; it and the lines after
    /// were not applied.
    case stopped(line: Int, text: String, why: String)
    /// The caller stopped it after a line (``run(_:on:afterLine:)``).
    case halted(failures: Int)
  }

  /// Whether a line that cannot be applied stops the script (`run --keep-going` goes on).
  public var keepsGoing: Bool
  /// Why the next line must not be applied, given the work done so far; `nil`: go on.
  public var shouldStop: (_ spent: Int) -> String?

  /// A loop; by default it stops at the first refused line and never before a line.
  public init(
    keepsGoing: Bool = false, shouldStop: @escaping (_ spent: Int) -> String? = { _ in nil }
  ) {
    self.keepsGoing = keepsGoing
    self.shouldStop = shouldStop
  }

  /// Applies the lines `next` gives (until it gives `nil`) through `host`. `afterLine` hears
  /// each line's outcome once the host is done with it (an interactive script flushes there)
  /// and returns `false` to stop.
  public func run(
    _ next: () -> String?, on host: CommandHost, afterLine: (CommandOutcome) throws -> Bool
  ) rethrows -> End {
    var number = 0
    var spent = 0
    var failures = 0
    while let text = next() {
      number += 1
      if let why = shouldStop(spent) {
        return .stopped(line: number, text: text.trimmingCharacters(in: .whitespaces), why: why)
      }
      let outcome = host.perform(line: text, number: number)
      if outcome.isApplied { spent += 1 + outcome.work }
      if let error = outcome.publishError { return .journalFailed(error) }
      let goesOn = try afterLine(outcome)
      if let error = outcome.error {
        failures += 1
        if !keepsGoing { return .refused(error) }
      }
      if !goesOn { return .halted(failures: failures) }
    }
    return .finished(failures: failures)
  }

  /// Applies the lines `next` gives (until it gives `nil`) through `host`.
  public func run(_ next: () -> String?, on host: CommandHost) -> End {
    run(next, on: host) { _ in true }
  }
}
