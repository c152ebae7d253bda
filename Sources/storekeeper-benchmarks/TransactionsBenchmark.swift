import ArgumentParser
import Foundation

/// `storekeeper transactions` over a journal of many purchase commands, beside the references
/// the issue names, in the same run: `grep -c` for filtering and `jq -c .` for exporting the
/// same JSON lines.
struct TransactionsBenchmark: ParsableCommand {
  static let configuration = CommandConfiguration(
    commandName: "transactions",
    abstract: "Time transactions --filter and the export against grep -c and jq -c.")

  @Option(help: "How many purchase commands the journal holds.")
  var purchases = 490_000

  @Option(help: "The storekeeper binary.")
  var binary = ".build/release/storekeeper"

  func run() throws {
    let folder = NSTemporaryDirectory() + "storekeeper-transactions-\(getpid())"
    try FileManager.default.createDirectory(atPath: folder, withIntermediateDirectories: true)
    defer { try? FileManager.default.removeItem(atPath: folder) }
    let script = (0..<purchases).map {
      $0 % 3 == 0 ? "buy foodtruck.donuts.box quantity=2\n" : "buy foodtruck.donuts.box\n"
    }.joined()
    try script.write(toFile: folder + "/script", atomically: true, encoding: .utf8)
    let journal = folder + "/bench.journal"
    let config = "Configs/FoodTruck.storekit"
    _ = try timedShell(
      "\(binary) run \(config) \(folder)/script --journal \(journal) "
        + "--start 2026-01-01T00:00:00Z > /dev/null")
    let source = "\(binary) transactions \(config) --journal \(journal)"
    let snapshot = journal + ".snapshot"
    // The first listing replays the journal and writes the snapshot the next ones read.
    let coldExport = try timedShell("\(source) --format json > \(folder)/all.jsonl")
    let export = try timedShell("\(source) --format json > /dev/null")
    let filter = try timedShell("\(source) --filter state:refunded > /dev/null")
    try FileManager.default.removeItem(atPath: snapshot)
    let coldFilter = try timedShell("\(source) --filter state:refunded > /dev/null")
    let grep = try timedShell("grep -c '\"quantity\":2' \(folder)/all.jsonl > /dev/null || true")
    let jq = try? timedShell("jq -c . \(folder)/all.jsonl > /dev/null")
    let size = { (path: String) in
      (try? FileManager.default.attributesOfItem(atPath: path)[.size]) as? Int ?? 0
    }
    let jqFigure =
      jq.map { "; jq -c .: \(seconds($0.time)) (ratio \(ratio(export.time, $0.time)))" }
      ?? "; jq not installed"
    print(
      """
      transactions: \(purchases) transactions, \(size(folder + "/all.jsonl") >> 20) MiB of JSON \
      lines; journal \(size(journal) >> 20) MiB, snapshot \(size(snapshot) >> 20) MiB
        --filter: \(seconds(filter.time)), peak \(filter.peak); grep -c: \(seconds(grep.time)) \
      (ratio \(ratio(filter.time, grep.time)))
        export: \(seconds(export.time)), peak \(export.peak)\(jqFigure)
        replaying instead of the snapshot: --filter \(seconds(coldFilter.time)), peak \
      \(coldFilter.peak); export \(seconds(coldExport.time)), peak \(coldExport.peak)
      """)
  }

  private func ratio(_ value: Double, _ reference: Double) -> String {
    String(format: "%.2f", value / reference)
  }

  private func seconds(_ value: Double) -> String { String(format: "%.3f s", value) }
}
