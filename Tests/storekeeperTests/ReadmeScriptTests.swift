import Foundation
import StoreTestSupport
import Testing

/// The README's "Script it" block, run as written (twice: a newcomer runs it again), with
/// `storekeeper` on the PATH: its listing shows the refund its script made.
@Suite struct ReadmeScriptTests {
  @Test func theScriptItBlockWorksAsWrittenAndAgain() throws {
    let readme = try String(
      contentsOf: packageRoot.appendingPathComponent("README.md"), encoding: .utf8)
    let section = try #require(readme.range(of: "### Script it"))
    let open = try #require(
      readme.range(of: "```sh\n", range: section.upperBound..<readme.endIndex))
    let close = try #require(readme.range(of: "```", range: open.upperBound..<readme.endIndex))
    let block = String(readme[open.upperBound..<close.lowerBound])
    let folder = try temporaryFolder("readme")
    defer { try? FileManager.default.removeItem(at: folder) }
    try FileManager.default.createSymbolicLink(
      at: folder.appendingPathComponent("Configs"),
      withDestinationURL: packageRoot.appendingPathComponent("Configs"))
    let path = productsDirectory.path + ":" + (ProcessInfo.processInfo.environment["PATH"] ?? "")
    for _ in 0..<2 {
      let run = try runProcess(
        "/bin/bash", ["-e", "-o", "pipefail", "-c", block], in: folder,
        environment: ["PATH": path])
      #expect(run.status == 0, "\(run.stderr)")
      let listing = run.stdout.split(separator: "\n").filter { $0.contains(#""ledgerState""#) }
      #expect(listing.count == 1 && listing[0].contains(#""ledgerState":"refunded""#))
      #expect(run.stdout.contains("0 errors"), "validate")
    }
  }
}
