import ArgumentParser
import Foundation

/// The build a newcomer runs: `swift run` makes a debug binary, whose engine checks its
/// invariants. Runs scripts of *n* and 10 *n* lines through that binary and prints the time per
/// line of each: linear costs keep the two close.
struct DebugBuild: ParsableCommand {
  static let configuration = CommandConfiguration(
    commandName: "debug-build",
    abstract: "Time run over n and 10n lines with the debug binary (swift run's build).")

  @Option(help: "The smaller script's lines (the larger has ten times as many).")
  var lines = 2_000

  @Option(help: "The storekeeper binary (build it first with `swift build`).")
  var binary = ".build/debug/storekeeper"

  func run() throws {
    let folder = NSTemporaryDirectory() + "storekeeper-debug-\(getpid())"
    try FileManager.default.createDirectory(atPath: folder, withIntermediateDirectories: true)
    defer { try? FileManager.default.removeItem(atPath: folder) }
    let scripts: [(name: String, config: String, first: String, line: String)] = [
      (
        "advance 30s on a monthly subscription", "FoodTruck", "buy socialfeed.monthly\n",
        "advance 30s\n"
      ),
      ("purchases of a consumable", "FoodTruck", "", "buy foodtruck.donuts.box\n"),
      ("a family of five renewing every 30 s", "Everything", Self.family, "advance 10m\n"),
    ]
    print("debug-build: \(binary)")
    for script in scripts {
      var figures: [String] = []
      var perLine: [Double] = []
      for count in [lines, lines * 10] {
        let path = "\(folder)/script"
        try (script.first + String(repeating: script.line, count: count))
          .write(toFile: path, atomically: true, encoding: .utf8)
        let measured = try timedShell(
          "\(binary) run Configs/\(script.config).storekit \(path) --start 2026-11-22T02:00:00Z "
            + "> /dev/null")
        perLine.append(measured.time / Double(count))
        figures.append(
          "\(count) lines \(String(format: "%.2f s", measured.time)), peak \(measured.peak)")
      }
      print(
        "  \(script.name): \(figures.joined(separator: "; ")); time per line ×"
          + String(format: "%.2f", perLine[1] / perLine[0]) + " at ten times the lines")
    }
  }

  /// Five members sharing a monthly subscription at the fastest rate.
  static let family =
    "set time-rate monthlyRenewalEveryThirtySeconds\nfamily join Anna\nfamily join Ben\n"
    + "family join Cleo\nfamily join Dan\nfamily join Eve\nbuy everything.family.monthly\n"
}
