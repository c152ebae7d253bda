import Foundation
import StoreTestSupport
import Testing

/// docs/storekit-api.md's list of what StorekeeperKit does not declare stays true: every name in
/// it is absent from the StoreKit ports' sources, so a name built later must leave the list.
@Suite struct UndeclaredAPITests {
  static let begin = "<!-- not declared: checked by StorekeeperKitTests.UndeclaredAPITests -->"
  static let end = "<!-- not declared: end -->"

  /// The declared names of the list: each backquoted name's last component, without arguments.
  static func listedNames() throws -> [String] {
    let page = try String(
      contentsOf: packageRoot.appendingPathComponent("docs/storekit-api.md"), encoding: .utf8)
    let start = try #require(page.range(of: begin))
    let finish = try #require(page.range(of: end, range: start.upperBound..<page.endIndex))
    let list = page[start.upperBound..<finish.lowerBound]
    return list.split(separator: "`", omittingEmptySubsequences: false).enumerated()
      .filter { $0.offset % 2 == 1 }
      .map { String($0.element.split(separator: ".").last ?? "") }
      .map { String($0.prefix { $0 != "(" }) }
  }

  /// Every Swift file of StorekeeperKit and StorekeeperKitTest, as one text.
  static func portSources() throws -> String {
    var text = ""
    for module in ["StorekeeperKit", "StorekeeperKitTest"] {
      let folder = packageRoot.appendingPathComponent("Sources/\(module)")
      let files = try #require(FileManager.default.enumerator(atPath: folder.path))
      for case let path as String in files where path.hasSuffix(".swift") {
        text += try String(
          contentsOf: folder.appendingPathComponent(path), encoding: .utf8)
      }
    }
    return text
  }

  @Test func everyNameTheDocsSayIsNotDeclaredIsAbsent() throws {
    let names = try Self.listedNames()
    #expect(names.count >= 20, "\(names)")
    let sources = try Self.portSources()
    let kinds = ["struct", "class", "enum", "protocol", "actor", "var", "let", "func", "typealias"]
    for name in names {
      let declared = kinds.contains { kind in
        sources.range(of: "\(kind) \(name)\\b", options: .regularExpression) != nil
      }
      #expect(!declared, "docs/storekit-api.md says \(name) is not declared, but it is")
    }
  }

  @Test func theCheckFindsADeclaredName() throws {
    let sources = try Self.portSources()
    #expect(sources.range(of: "var billingPlanType\\b", options: .regularExpression) != nil)
    #expect(sources.range(of: "func joinFamily\\b", options: .regularExpression) != nil)
  }
}
