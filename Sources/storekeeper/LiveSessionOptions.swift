import ArgumentParser
import Foundation
import StoreSimulation

/// The options of the commands that own a live session (the inspector, `serve`): the
/// configuration, the journal, a fresh start, a paused clock, a new session's start.
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

  func validate() throws {
    if let start, Instant(iso8601: start) == nil {
      throw ValidationError(
        "--start must be ISO-8601, such as 2026-11-22T02:00:00Z (got \"\(start)\").")
    }
  }

  /// The new session's start, when given.
  var startInstant: Instant? { start.flatMap(Instant.init(iso8601:)) }

  /// The journal to open: `--start` only for a new one; `--fresh` sets the old one aside.
  func preparedJournal() throws -> String {
    let path = try journal ?? SessionOpening.defaultJournal(for: configurationPath)
    if start != nil && FileManager.default.fileExists(atPath: path) && !fresh {
      throw ValidationError("--start applies to a new session; \(path) exists (add --fresh).")
    }
    if fresh { try SessionOpening.setAside(path) }
    return path
  }
}
