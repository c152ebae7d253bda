import Foundation
import StoreSimulation

/// A script's lines applied through a host one after another, as `run` applies a file and the
/// control endpoint a request's body: numbered from 1, each line's work counted (its command,
/// its events, what a step back replayed), stopped at the first line that cannot be applied
/// (unless it keeps going), at a journal that cannot be written, or before a line when
/// ``shouldStop`` says why. A line that must ask the developer's server first (`retention show`
/// with a real-time URL) ends the run with ``End/waiting(_:)``: the caller awaits the call
/// outside the session and ``resume(_:with:_:on:afterLine:)`` goes on from there.
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
    /// Line `wait.line` needs the developer's server's answer first; it and the lines after
    /// wait for ``ScriptLoop/resume(_:with:_:on:afterLine:)``.
    case waiting(Wait)
  }

  /// Where a script is: the lines read, the work done, the lines refused.
  public struct Progress: Equatable, Sendable {
    var number = 0
    var spent = 0
    var failures = 0

    /// A script not yet begun.
    public init() {}
  }

  /// A line that waits for a call to the developer's server, and where the script was.
  public struct Wait: Equatable, Sendable {
    /// The line's number.
    public var line: Int
    /// The line's text.
    public var text: String
    /// The call to make.
    public var call: RetentionCall
    var progress: Progress

    /// Waits for the same line at the same point (the call itself is not compared).
    public static func == (lhs: Wait, rhs: Wait) -> Bool {
      lhs.line == rhs.line && lhs.text == rhs.text && lhs.progress == rhs.progress
    }
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
    try run(next, on: host, from: Progress(), afterLine: afterLine)
  }

  /// Applies the lines `next` gives (until it gives `nil`) through `host`.
  public func run(_ next: () -> String?, on host: CommandHost) -> End {
    run(next, on: host) { _ in true }
  }

  /// Applies the line `wait` was for with what its call came to, then the lines after it.
  public func resume(
    _ wait: Wait, with exchange: RealtimeExchange, _ next: () -> String?, on host: CommandHost,
    afterLine: (CommandOutcome) throws -> Bool
  ) rethrows -> End {
    var progress = wait.progress
    let outcome = host.perform(
      RetentionCall.resolved(exchange), line: wait.text, number: wait.line)
    if let end = try settle(outcome, &progress, afterLine) { return end }
    return try run(next, on: host, from: progress, afterLine: afterLine)
  }

  private func run(
    _ next: () -> String?, on host: CommandHost, from start: Progress,
    afterLine: (CommandOutcome) throws -> Bool
  ) rethrows -> End {
    var progress = start
    while let text = next() {
      progress.number += 1
      if let why = shouldStop(progress.spent) {
        return .stopped(
          line: progress.number, text: text.trimmingCharacters(in: .whitespaces), why: why)
      }
      if let call = host.pendingCall(forLine: text) {
        return .waiting(Wait(line: progress.number, text: text, call: call, progress: progress))
      }
      let outcome = host.perform(line: text, number: progress.number)
      if let end = try settle(outcome, &progress, afterLine) { return end }
    }
    return .finished(failures: progress.failures)
  }

  /// Counts a line's outcome; how the script ends there, if it ends.
  private func settle(
    _ outcome: CommandOutcome, _ progress: inout Progress,
    _ afterLine: (CommandOutcome) throws -> Bool
  ) rethrows -> End? {
    if outcome.isApplied { progress.spent += 1 + outcome.work }
    if let error = outcome.publishError { return .journalFailed(error) }
    let goesOn = try afterLine(outcome)
    if let error = outcome.error {
      progress.failures += 1
      if !keepsGoing { return .refused(error) }
    }
    return goesOn ? nil : .halted(failures: progress.failures)
  }
}
