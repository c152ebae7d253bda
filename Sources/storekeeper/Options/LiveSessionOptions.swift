import ArgumentParser
import Foundation
import StoreCommands
import StoreSimulation

/// The options of the commands that own a live session (the inspector, `serve`): the
/// configuration, the journal, a fresh start, a paused clock, a new session's start, a time rate.
struct LiveSessionOptions: ParsableArguments {
  @Argument(help: "The .storekit configuration.", completion: .file(extensions: ["storekit"]))
  var configurationPath = "Configs/FoodTruck.storekit"

  @Option(help: "Use this journal instead of the configuration's own.")
  var journal: String?

  @Flag(help: "Start a new journal (the old one is kept beside it).")
  var fresh = false

  @Flag(help: "Keep the clock stopped at the journal's last instant (only advance moves it).")
  var paused = false

  @Option(help: "A new session's start instant (ISO-8601); the clock runs on from there.")
  var start: String?

  @Option(help: "Set the session's time rate (name or raw value), as set time-rate does.")
  var rate: String?

  func validate() throws {
    if let start, Instant(iso8601: start) == nil {
      throw ValidationError(
        "--start must be ISO-8601, such as 2026-11-22T02:00:00Z (got \"\(start)\").")
    }
    _ = try Self.timeRate(rate)
  }

  /// `--rate`'s value, checked.
  static func timeRate(_ text: String?) throws -> TimeRate? {
    guard let text else { return nil }
    guard let rate = TimeRate(name: text) else {
      throw ValidationError(
        "--rate \"\(text)\" is not a time rate; try monthlyRenewalEveryThirtySeconds or 1003.")
    }
    return rate
  }

  /// Sets a `--rate` on an opened session, journaled as `set time-rate` (nothing when the
  /// session already runs at that rate).
  static func apply(rate text: String?, to journaled: inout JournaledSession) throws(CommandError) {
    guard let rate = TimeRate(name: text ?? ""), journaled.session.settings.timeRate != rate
    else { return }
    try journaled.apply(.set(.timeRate(rate))) { _ in }
  }

  /// The new session's start, when given.
  var startInstant: Instant? { start.flatMap(Instant.init(iso8601:)) }

  /// The journal to open: `--start` only for a new one; `--fresh` sets the old one aside.
  func preparedJournal() throws -> String {
    let path = try journal ?? defaultJournal(for: configurationPath)
    if start != nil && FileManager.default.fileExists(atPath: path) && !fresh {
      throw ValidationError("--start applies to a new session; \(path) exists (add --fresh).")
    }
    if fresh { try setAside(path) }
    return path
  }
}
