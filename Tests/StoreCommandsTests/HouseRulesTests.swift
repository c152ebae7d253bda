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

  /// The StoreKit ports, where Apple's synchronous and open-class API leaves the compiler
  /// blind to what the house otherwise checks.
  static func isPort(_ path: String) -> Bool { path.hasPrefix("Sources/StorekeeperKit") }

  /// Outside the StoreKit ports, confinement is checked by the compiler (`Locked`, NIO's
  /// boxes, `Sendable` values) but for at most three types, each saying why it cannot be.
  @Test func atMostThreeUncheckedSendableTypesOutsideThePorts() throws {
    let unchecked = try Self.sources().filter { !Self.isPort($0.path) }.flatMap { file in
      file.text.split(separator: "\n").filter {
        !$0.trimmingCharacters(in: .whitespaces).hasPrefix("//")
          && ($0.contains(": @unchecked Sendable") || $0.contains(", @unchecked Sendable"))
      }.map { "\(file.path): \($0.trimmingCharacters(in: .whitespaces))" }
    }
    #expect(unchecked.count <= 3, "\(unchecked.joined(separator: "\n"))")
  }

  /// Outside the StoreKit ports nothing blocks a thread on a semaphore: work that waits is
  /// awaited, or waits on NIO's futures or a dispatch group it owns.
  @Test func noSemaphoreOutsideThePorts() throws {
    let found = try Self.sources().filter { !Self.isPort($0.path) }.filter {
      $0.text.contains("DispatchSemaphore(")
    }.map(\.path)
    #expect(found.isEmpty, "\(found)")
  }

  /// No function is longer than 80 lines (benchmarks included): from its declaration to the
  /// brace that closes its body, string literals and comments aside.
  @Test func noFunctionIsLongerThanEightyLines() throws {
    var long: [String] = []
    var found = 0
    for (path, text) in try Self.sources() {
      let lines = text.split(separator: "\n", omittingEmptySubsequences: false).map(Self.code)
      for (index, line) in lines.enumerated() where Self.declaresFunction(line) {
        found += 1
        if let length = Self.bodyLength(lines, from: index), length > 80 {
          long.append("\(path):\(index + 1) (\(length) lines)")
        }
      }
    }
    #expect(found > 1000, "the check found the functions")
    #expect(long.isEmpty, "longer than 80 lines: \(long.joined(separator: ", "))")
  }

  /// A line without its string literals and its comment (a multi-line literal's inner lines
  /// hold no braces that count: they are rarely code-like, and the check is a guard).
  static func code(_ line: Substring) -> String {
    var result = ""
    var inString = false
    var escaping = false
    var previous: Character = " "
    for character in line {
      if inString {
        if escaping {
          escaping = false
        } else if character == "\\" {
          escaping = true
        } else if character == "\"" {
          inString = false
        }
        continue
      }
      if character == "/" && previous == "/" {
        result.removeLast()
        break
      }
      if character == "\"" { inString = true } else { result.append(character) }
      previous = character
    }
    return result
  }

  static func declaresFunction(_ line: String) -> Bool {
    let words = line.trimmingCharacters(in: .whitespaces).split(separator: " ")
    guard
      let first = words.firstIndex(where: { !$0.hasPrefix("@") && !Self.modifiers.contains($0) })
    else { return false }
    let word = words[first]
    return word == "func" || word.hasPrefix("init(") || word.hasPrefix("init?(")
      || word.hasPrefix("init<") || word == "init" || word == "deinit"
  }

  static let modifiers: Set<Substring> = [
    "public", "private", "fileprivate", "internal", "package", "open", "static", "class",
    "final", "override", "mutating", "nonisolated", "convenience", "required", "private(set)",
  ]

  /// Lines from the declaration at `start` to the brace that closes its body; `nil` for a
  /// declaration without a body (a protocol's).
  static func bodyLength(_ lines: [String], from start: Int) -> Int? {
    var depth = 0
    var opened = false
    for index in start..<lines.count {
      for character in lines[index] {
        if character == "{" {
          depth += 1
          opened = true
        } else if character == "}" {
          depth -= 1
        }
      }
      if opened && depth <= 0 { return index - start + 1 }
      if !opened && index > start + 20 { return nil }
    }
    return nil
  }
}
