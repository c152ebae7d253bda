import Foundation
import StoreFuzzing
import Testing

/// Every fuzz target over a fixed-seed corpus: the same inputs on every run, a few seconds in
/// all. The long runs (a million inputs each) are `swift run -c release storekeeper-fuzz`.
@Suite struct FuzzCorpusTests {
  static let configurations: [[UInt8]] = {
    let folder = URL(fileURLWithPath: #filePath).deletingLastPathComponent()
      .deletingLastPathComponent().deletingLastPathComponent().appendingPathComponent("Configs")
    let files = (try? FileManager.default.contentsOfDirectory(atPath: folder.path)) ?? []
    return files.sorted().compactMap {
      FileManager.default.contents(atPath: folder.appendingPathComponent($0).path).map {
        [UInt8]($0)
      }
    }
  }()

  /// Sized for a few seconds each in a debug build.
  static let inputs = [
    "storekit": 300, "commands": 30_000, "journal": 2_000, "decode": 3_000, "filter": 30_000,
  ]

  @Test(arguments: ["storekit", "commands", "journal", "decode", "filter"])
  func aFixedCorpusNeitherCrashesNorHangs(target name: String) throws {
    let target = try #require(
      try FuzzTarget.all(configurations: Self.configurations).first { $0.name == name })
    let report = FuzzRun(target: target, seed: 20_261_123).run(inputs: Self.inputs[name] ?? 1000)
    #expect(report.inputs == Self.inputs[name])
  }

  @Test func theSameSeedMakesTheSameInputs() {
    var first = SplitMix64(seed: 7)
    var second = SplitMix64(seed: 7)
    let seeds = [Array("buy fuzz.coins".utf8)]
    let one = (0..<50).map { _ in Mutator().input(from: seeds, tokens: [], using: &first) }
    let two = (0..<50).map { _ in Mutator().input(from: seeds, tokens: [], using: &second) }
    #expect(one == two)
    #expect(Set(one).count > 10)
  }
}
