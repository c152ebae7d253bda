import Foundation
import StoreCommands
import StoreTestSupport
import Testing

/// The README and `docs/`: every relative link resolves, and the verb reference is the verb
/// table's. `STOREKEEPER_UPDATE_DOCS=1` rewrites the generated part.
@Suite struct DocumentationTests {
  static let pages: [URL] = {
    let docs = packageRoot.appendingPathComponent("docs")
    let names = (try? FileManager.default.contentsOfDirectory(atPath: docs.path)) ?? []
    return [packageRoot.appendingPathComponent("README.md")]
      + names.filter { $0.hasSuffix(".md") }.sorted().map { docs.appendingPathComponent($0) }
  }()

  /// `[text](target)` and `![alt](target)`: the targets, outside code blocks.
  static func links(in text: String) -> [String] {
    var targets: [String] = []
    var inCode = false
    for line in text.split(separator: "\n", omittingEmptySubsequences: false) {
      if line.trimmingCharacters(in: .whitespaces).hasPrefix("```") { inCode.toggle() }
      guard !inCode else { continue }
      for match in line.matches(of: /\]\(([^)\s]+)\)/) { targets.append(String(match.output.1)) }
    }
    return targets
  }

  /// The anchors of a Markdown page's headings, as GitHub makes them.
  static func anchors(of text: String) -> Set<String> {
    Set(
      text.split(separator: "\n").filter { $0.hasPrefix("#") }.map { heading in
        let words = heading.drop { $0 == "#" }.trimmingCharacters(in: .whitespaces).lowercased()
        return String(
          words.compactMap { character -> Character? in
            if character == " " { return "-" }
            return character.isLetter || character.isNumber || character == "-"
              || character == "_" ? character : nil
          })
      })
  }

  @Test func everyRelativeLinkResolves() throws {
    #expect(Self.pages.count > 8, "the README and the docs pages")
    for page in Self.pages {
      let text = try String(contentsOf: page, encoding: .utf8)
      for link in Self.links(in: text) where !link.contains("://") && !link.hasPrefix("mailto:") {
        let parts = link.split(separator: "#", maxSplits: 1, omittingEmptySubsequences: false)
        let target =
          parts[0].isEmpty
          ? page : page.deletingLastPathComponent().appendingPathComponent(String(parts[0]))
        #expect(
          FileManager.default.fileExists(atPath: target.path),
          "\(page.lastPathComponent): \(link) names no file")
        if parts.count == 2, target.pathExtension == "md",
          let linked = try? String(contentsOf: target, encoding: .utf8)
        {
          #expect(
            Self.anchors(of: linked).contains(String(parts[1])),
            "\(page.lastPathComponent): \(link) names no heading")
        }
      }
    }
  }

  @Test func theReadmeIsAFrontDoor() throws {
    let readme = try String(
      contentsOf: packageRoot.appendingPathComponent("README.md"), encoding: .utf8)
    #expect(readme.split(separator: "\n", omittingEmptySubsequences: false).count <= 200)
    #expect(readme.contains(".ci/setup && swift run storekeeper\nswift test\n"))
  }

  @Test func theReadmesStoreKitTestIsOneTheExamplePackageRuns() throws {
    let readme = try String(
      contentsOf: packageRoot.appendingPathComponent("README.md"), encoding: .utf8)
    let example = try String(
      contentsOf: packageRoot.appendingPathComponent(
        "Examples/FoodTruckStore/Tests/FoodTruckStoreTests/ReadmeTests.swift"),
      encoding: .utf8)
    let start = try #require(readme.range(of: "```swift\nimport XCTest\n"))
    let code = readme[start.lowerBound...].dropFirst("```swift\n".count)
    let test = code[..<(try #require(code.range(of: "```")).lowerBound)]
    /// The code without its whole-line comments.
    func lines(_ text: String) -> [Substring] {
      text.split(separator: "\n", omittingEmptySubsequences: false).filter {
        !$0.hasPrefix("//")
      }
    }
    #expect(lines(example) == lines(String(test)), "the README's test is not ReadmeTests.swift's")
  }

  /// Apple's `notificationType` and `subtype` values (App Store Server Notifications V2).
  static let notificationTypes = [
    "SUBSCRIBED", "DID_CHANGE_RENEWAL_PREF", "DID_CHANGE_RENEWAL_STATUS", "OFFER_REDEEMED",
    "DID_RENEW", "EXPIRED", "DID_FAIL_TO_RENEW", "GRACE_PERIOD_EXPIRED", "PRICE_INCREASE",
    "REFUND", "REFUND_DECLINED", "CONSUMPTION_REQUEST", "RENEWAL_EXTENDED", "REVOKE", "TEST",
    "RENEWAL_EXTENSION", "REFUND_REVERSED", "EXTERNAL_PURCHASE_TOKEN", "ONE_TIME_CHARGE",
    "RESCIND_CONSENT", "METADATA_UPDATE", "MIGRATION", "PRICE_CHANGE",
  ]
  static let subtypes = [
    "INITIAL_BUY", "RESUBSCRIBE", "DOWNGRADE", "UPGRADE", "AUTO_RENEW_ENABLED",
    "AUTO_RENEW_DISABLED", "VOLUNTARY", "BILLING_RETRY", "PRICE_INCREASE", "GRACE_PERIOD",
    "PENDING", "ACCEPTED", "BILLING_RECOVERY", "PRODUCT_NOT_FOR_SALE", "SUMMARY", "FAILURE",
    "UNREPORTED", "CREATED", "ACTIVE_TOKEN_REMINDER",
  ]

  @Test func everyNotificationTypeAndSubtypeIsInTheTables() throws {
    func tableRows(_ path: String) throws -> [Substring] {
      try String(contentsOf: packageRoot.appendingPathComponent(path), encoding: .utf8)
        .split(separator: "\n").filter { $0.hasPrefix("| `") }
    }
    let readme = try tableRows("README.md")
    let fidelity = try tableRows("Sources/StoreSimulation/StoreSimulation.docc/Fidelity.md")
    /// Whether a row's first cell names `type`.
    func names(_ row: Substring, _ type: String) -> Bool {
      row.split(separator: "|").first?.contains("`\(type)`") == true
    }
    for type in Self.notificationTypes {
      #expect(readme.contains { names($0, type) }, "README: \(type)")
      #expect(fidelity.contains { names($0, type) }, "Fidelity: \(type)")
    }
    for subtype in Self.subtypes {
      #expect(fidelity.contains { $0.contains("| `\(subtype)` |") }, "Fidelity: \(subtype)")
    }
  }

  static let begin = "<!-- verbs: generated from the verb table -->"
  static let end = "<!-- verbs: end -->"

  /// The reference of every verb, as the verb table describes it.
  static var verbReference: String {
    var text = begin + "\n\n```text\n"
    for verb in Verb.all { text += "\(verb.synopsis)\n    \(verb.summary)\n" }
    return text + "```\n\n" + end
  }

  @Test func theCommandLanguagePageListsEveryVerbAsTheTableDescribesIt() throws {
    let url = packageRoot.appendingPathComponent("docs/command-language.md")
    var page = try String(contentsOf: url, encoding: .utf8)
    let start = try #require(page.range(of: Self.begin), "the page has the generated block")
    let finish = try #require(page.range(of: Self.end, range: start.upperBound..<page.endIndex))
    let current = String(page[start.lowerBound..<finish.upperBound])
    if current != Self.verbReference,
      ProcessInfo.processInfo.environment["STOREKEEPER_UPDATE_DOCS"] == "1"
    {
      page.replaceSubrange(start.lowerBound..<finish.upperBound, with: Self.verbReference)
      try page.write(to: url, atomically: true, encoding: .utf8)
      return
    }
    #expect(
      current == Self.verbReference,
      "docs/command-language.md's verb reference is out of date: run STOREKEEPER_UPDATE_DOCS=1 swift test --filter DocumentationTests"
    )
  }
}
