import Foundation
import StoreTestSupport
import Testing

/// The README's "Script it" block, run as written (twice: a newcomer runs it again), with
/// `storekeeper` on the PATH: its listing shows the refund its script made.
@Suite struct ReadmeScriptTests {
  /// The README's first `sh` block after `marker`.
  func block(after marker: String) throws -> String {
    let readme = try String(
      contentsOf: packageRoot.appendingPathComponent("README.md"), encoding: .utf8)
    let section = try #require(readme.range(of: marker))
    let open = try #require(
      readme.range(of: "```sh\n", range: section.upperBound..<readme.endIndex))
    let close = try #require(readme.range(of: "```", range: open.upperBound..<readme.endIndex))
    return String(readme[open.upperBound..<close.lowerBound])
  }

  /// Runs `block` with bash in a fresh folder beside `Configs`, `storekeeper` on the PATH.
  func run(_ block: String, in folder: URL) throws -> RunResult {
    if !FileManager.default.fileExists(atPath: folder.appendingPathComponent("Configs").path) {
      try FileManager.default.createSymbolicLink(
        at: folder.appendingPathComponent("Configs"),
        withDestinationURL: packageRoot.appendingPathComponent("Configs"))
    }
    let path = productsDirectory.path + ":" + (ProcessInfo.processInfo.environment["PATH"] ?? "")
    return try runProcess(
      "/bin/bash", ["-e", "-o", "pipefail", "-c", block], in: folder, environment: ["PATH": path])
  }

  /// The population lines: the journal `simulate` keeps is the one `customers` lists.
  @Test func thePopulationLinesWorkAsWritten() throws {
    let block = try block(after: "and [a population](docs/simulate.md)")
    #expect(block.contains("storekeeper customers"))
    let folder = try temporaryFolder("readme")
    defer { try? FileManager.default.removeItem(at: folder) }
    let run = try run(block, in: folder)
    #expect(run.status == 0, "\(run.stderr)")
    let listed = run.stdout.split(separator: "\n").filter { $0.contains(#""customer":"c"#) }
    #expect(!listed.isEmpty, "customers lists the population: \(run.stdout.prefix(300))")
    #expect(listed.allSatisfy { $0.contains(#""status":"inBillingRetryPeriod""#) })
  }

  /// docs/commands.md's customers example, as `run` takes it: a month for two customers is a
  /// few renewals, not the 172,813 lines a month of FoodTruck's 30-second months made.
  @Test func theCustomersExampleRunsAsWrittenAndBriefly() throws {
    let page = try String(
      contentsOf: packageRoot.appendingPathComponent("docs/commands.md"), encoding: .utf8)
    let section = try #require(page.range(of: "## Customers"))
    let open = try #require(page.range(of: "```\n", range: section.upperBound..<page.endIndex))
    let close = try #require(page.range(of: "```", range: open.upperBound..<page.endIndex))
    let script = String(page[open.upperBound..<close.lowerBound])
    let run = try storekeeper(["run", "Configs/FoodTruck.storekit", "-"], stdin: script)
    #expect(run.status == 0, "\(run.stderr)")
    let lines = run.stdout.split(separator: "\n")
    #expect(lines.count < 100, "\(lines.count) lines")
    #expect(lines.contains { $0.contains(#""customer":"alice""#) && $0.contains(#""renewal""#) })
  }

  /// docs/command-language.md's JSON lines, as written, after a subscription to show a page for.
  @Test func theJSONLinesOfTheCommandLanguagePageRunAsWritten() throws {
    let page = try String(
      contentsOf: packageRoot.appendingPathComponent("docs/command-language.md"), encoding: .utf8)
    let section = try #require(page.range(of: "JSON goes in as written:"))
    let open = try #require(page.range(of: "```\n", range: section.upperBound..<page.endIndex))
    let close = try #require(page.range(of: "```", range: open.upperBound..<page.endIndex))
    let script = "buy socialfeed.monthly\n" + page[open.upperBound..<close.lowerBound]
    let run = try storekeeper(["run", "Configs/FoodTruck.storekit", "-"], stdin: script)
    #expect(run.status == 0, "\(run.stderr)")
    #expect(run.stdout.contains(#""source":"realtime""#), "\(run.stdout)")
  }

  @Test func theScriptItBlockWorksAsWrittenAndAgain() throws {
    let block = try block(after: "### Script it")
    let folder = try temporaryFolder("readme")
    defer { try? FileManager.default.removeItem(at: folder) }
    for _ in 0..<2 {
      let run = try run(block, in: folder)
      #expect(run.status == 0, "\(run.stderr)")
      let listing = run.stdout.split(separator: "\n").filter { $0.contains(#""ledgerState""#) }
      #expect(listing.count == 1 && listing[0].contains(#""ledgerState":"refunded""#))
      #expect(run.stdout.contains("0 errors"), "validate")
    }
  }
}
