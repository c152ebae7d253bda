import Foundation
import StoreTestSupport
import Testing

/// Rules of the house a reader checks by eye, checked here on every source file.
@Suite struct HouseRulesTests {
  /// Every Swift file under `Sources`, by path relative to the package.
  static func sources() throws -> [(path: String, text: String)] {
    let root = packageRoot.appendingPathComponent("Sources")
    let files = try #require(FileManager.default.enumerator(atPath: root.path))
    return try files.compactMap { $0 as? String }.filter { $0.hasSuffix(".swift") }.sorted().map {
      ("Sources/\($0)", try String(contentsOf: root.appendingPathComponent($0), encoding: .utf8))
    }
  }

  /// `@unchecked Sendable` gives up the compiler's check: the comment above the declaration says
  /// why it is safe (which lock, which thread), in words that name it.
  @Test func everyUncheckedSendableSaysWhyItIsSafe() throws {
    var unexplained: [String] = []
    var found = 0
    for (path, text) in try Self.sources() {
      let lines = text.split(separator: "\n", omittingEmptySubsequences: false)
      for (index, line) in lines.enumerated()
      where line.contains(": @unchecked Sendable")
        || line.contains(", @unchecked Sendable")
      {
        found += 1
        // The comment block right above the declaration (attributes aside).
        var above: [Substring] = []
        var cursor = index - 1
        while cursor >= 0 {
          let trimmed = lines[cursor].trimmingCharacters(in: .whitespaces)
          guard trimmed.hasPrefix("//") || trimmed.hasPrefix("@") else { break }
          above.append(lines[cursor])
          cursor -= 1
        }
        if !above.contains(where: { $0.contains("@unchecked Sendable") }) {
          unexplained.append("\(path):\(index + 1)")
        }
      }
    }
    #expect(found > 10, "the check found the declarations")
    #expect(unexplained.isEmpty, "no reason above: \(unexplained.joined(separator: ", "))")
  }
}
