import Foundation
import StoreTestSupport
import Testing

@Suite struct FormatCommandTests {
  @Test(arguments: ["Configs/FoodTruck.storekit", "Configs/Everything.storekit"])
  func formattingAnXcodeFileGivesBackItsBytes(path: String) throws {
    let result = try storekeeper(["format", path])
    #expect(result.status == 0)
    #expect(
      result.stdoutBytes == [UInt8](try Data(contentsOf: packageRoot.appendingPathComponent(path))))
    #expect(try storekeeper(["format", "--check", path]).status == 0)
  }

  @Test func formattingAMinifiedFileWritesXcodeLayoutAndKeepsUnknownKeys() throws {
    let result = try storekeeper(["format", "Minified.storekit"], in: fixtures)
    #expect(result.status == 0)
    #expect(
      result.stdout.hasPrefix(
        "{\n  \"identifier\" : \"AB12CD35\",\n  \"nonRenewingSubscriptions\" : [\n\n  ],\n"))
    #expect(result.stdout.contains("      \"futureKey\" : 1.50,\n"))
    #expect(
      result.stdout.contains(
        "    \"_storefront\" : \"GBR\",\n    \"_storeKitErrors\" : [\n\n    ]\n"))
    #expect(result.stdout.hasSuffix("}\n"))
    #expect(try storekeeper(["format", "--check", "Minified.storekit"], in: fixtures).status == 1)
  }

  @Test func inPlaceRewritesAtomicallyAndKeepsPermissions() throws {
    let folder = try temporaryFolder()
    defer { try? FileManager.default.removeItem(at: folder) }
    let file = folder.appendingPathComponent("m.storekit")
    try FileManager.default.copyItem(
      at: fixtures.appendingPathComponent("Minified.storekit"), to: file)
    try FileManager.default.setAttributes([.posixPermissions: 0o640], ofItemAtPath: file.path)
    let expected = try storekeeper(["format", file.path]).stdoutBytes
    let result = try storekeeper(["format", "--in-place", file.path])
    #expect(result.status == 0)
    #expect(result.stdout.isEmpty)
    #expect([UInt8](try Data(contentsOf: file)) == expected)
    let mode =
      try FileManager.default.attributesOfItem(atPath: file.path)[.posixPermissions] as? Int
    #expect(mode == 0o640)
    #expect(try FileManager.default.contentsOfDirectory(atPath: folder.path) == ["m.storekit"])
  }

  @Test func inPlaceLeavesAFileWithErrorsUntouched() throws {
    let folder = try temporaryFolder()
    defer { try? FileManager.default.removeItem(at: folder) }
    let file = folder.appendingPathComponent("t.storekit")
    try FileManager.default.copyItem(
      at: fixtures.appendingPathComponent("Truncated.storekit"), to: file)
    let before = try Data(contentsOf: file)
    let result = try storekeeper(["format", "-i", file.path])
    #expect(result.status == 1)
    #expect(result.stderr.contains("error: not valid JSON"))
    #expect(result.stderr.contains("not formatted: fix the errors above first."))
    #expect(try Data(contentsOf: file) == before)
    #expect(try FileManager.default.contentsOfDirectory(atPath: folder.path) == ["t.storekit"])
  }

  @Test func aDirectoryIsAnErrorNotACrash() throws {
    let result = try storekeeper(["format", "Directory.storekit"], in: fixtures)
    #expect(result.status == 1)
    #expect(result.stderr.contains("is a directory"))
  }

  @Test func conflictingFlagsAreAUsageError() throws {
    #expect(try storekeeper(["format", "--in-place", "--check", "x.storekit"]).status == 64)
  }
}
