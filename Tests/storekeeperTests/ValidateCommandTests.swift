import Foundation
import StoreTestSupport
import Testing

@Suite struct ValidateCommandTests {
  static let negativeFixtures = [
    "Binary.storekit", "Directory.storekit", "Empty.storekit", "EscapeSequences.storekit",
    "IntegerVersion.storekit", "InventedSchema.storekit", "PropertyList.storekit",
    "Truncated.storekit",
  ]

  @Test func bundledConfigsValidateCleanly() throws {
    let result = try storekeeper([
      "validate", "Configs/FoodTruck.storekit", "Configs/Everything.storekit",
    ])
    #expect(result.status == 0)
    #expect(result.stdout == "2 files checked: 0 errors, 0 warnings; all usable.\n")
  }

  @Test func negativeFixturesMatchTheGoldenOutput() throws {
    let result = try storekeeper(["validate"] + Self.negativeFixtures, in: fixtures)
    let golden = try String(
      contentsOf: fixtures.appendingPathComponent("negative.expected"), encoding: .utf8)
    #expect(result.status == 1)
    #expect(result.stdout == golden)
  }

  @Test func escapeSequencesFromAFileNeverReachTheTerminal() throws {
    let result = try storekeeper(["validate", "EscapeSequences.storekit"], in: fixtures)
    #expect(!result.stdoutBytes.contains(0x1B))
    #expect(!result.stdoutBytes.contains(0x07))
    let json = try storekeeper(
      ["validate", "--format", "json", "EscapeSequences.storekit"], in: fixtures)
    #expect(!json.stdoutBytes.contains(0x1B))
  }

  @Test func jsonFormatIsMachineReadable() throws {
    let result = try storekeeper(
      [
        "validate", "--format", "json", "Empty.storekit",
        "Directory.storekit/Configuration.storekit",
      ],
      in: fixtures)
    #expect(result.status == 1)
    let object = try #require(
      try JSONSerialization.jsonObject(with: Data(result.stdout.utf8)) as? [String: Any])
    #expect(object["errors"] as? Int == 1)
    let files = try #require(object["files"] as? [[String: Any]])
    #expect(
      files.map { $0["file"] as? String } == [
        "Empty.storekit", "Directory.storekit/Configuration.storekit",
      ])
    let diagnostic = try #require((files[0]["diagnostics"] as? [[String: Any]])?.first)
    #expect(diagnostic["severity"] as? String == "error")
    #expect(diagnostic["line"] as? Int == 1)
    #expect(diagnostic["column"] as? Int == 1)
  }

  @Test func warningsFailOnlyWithStrict() throws {
    let folder = try temporaryFolder()
    defer { try? FileManager.default.removeItem(at: folder) }
    let file = folder.appendingPathComponent("w.storekit")
    try Data(
      #"{"products" : [], "subscriptionGroups" : [], "version" : {"major" : 4, "minor" : 0}}"#.utf8
    )
    .write(to: file)
    let relaxed = try storekeeper(["validate", file.path])
    #expect(relaxed.status == 0)
    #expect(relaxed.stdout.contains("warning: missing \"settings\"; Xcode always writes it"))
    #expect(try storekeeper(["validate", "--strict", file.path]).status == 1)
  }

  @Test func usageErrorsExitWithUsageStatus() throws {
    #expect(try storekeeper(["validate"]).status == 64)
    #expect(try storekeeper(["validate", "--format", "xml", "x.storekit"]).status == 64)
    #expect(try storekeeper(["validate", "--frobnicate", "x.storekit"]).status == 64)
  }

  @Test(.enabled(if: corpusIsPresent, "the shared corpus is not beside the package"))
  func everyCorpusFileValidates() throws {
    let names = try FileManager.default.contentsOfDirectory(atPath: corpusFolder.path)
      .filter { $0.hasSuffix(".storekit") }.sorted()
    let result = try storekeeper(["validate"] + names, in: corpusFolder)
    #expect(result.status == 0, "\(result.stdout)")
    #expect(result.stdout.hasSuffix("all usable.\n"))
  }
}
