import Foundation
import StoreTestSupport
import Testing

@testable import StoreConfiguration

@Suite struct RoundTripTests {
  /// Whether a file is laid out as Xcode writes it (not minified, no inline `[]`).
  static func looksXcodeFormatted(_ text: String) -> Bool {
    text.hasPrefix("{\n  \"") && !text.contains("[]") && !text.contains("{}")
      && !text.contains("\":")
  }

  static var corpusFiles: [URL] {
    guard corpusIsPresent else { return [] }
    let names = (try? FileManager.default.contentsOfDirectory(atPath: corpusFolder.path)) ?? []
    return names.filter { $0.hasSuffix(".storekit") }.sorted().map {
      corpusFolder.appendingPathComponent($0)
    }
  }

  @Test(arguments: ["FoodTruck.storekit", "Everything.storekit"])
  func bundledConfigsAreValidAndXcodeFormatted(name: String) throws {
    let path = packageRoot.appendingPathComponent("Configs/\(name)").path
    let bytes = try #require(FileManager.default.contents(atPath: path))
    let result = StoreKitConfiguration.load(contentsOf: path)
    #expect(result.diagnostics == [])
    #expect(result.configuration?.xcodeFormattedBytes() == [UInt8](bytes))
  }

  @Test func everythingCoversEveryProductTypeAndOfferKind() throws {
    let path = packageRoot.appendingPathComponent("Configs/Everything.storekit").path
    let file = try #require(StoreKitConfiguration.load(contentsOf: path).configuration)
    let types = Set(
      (file.products ?? []).map(\.type) + (file.nonRenewingSubscriptions ?? []).map(\.type)
        + file.allSubscriptions.map(\.product.type))
    #expect(types == Set(ProductType.allCases))
    let subscriptions = file.allSubscriptions
    #expect(subscriptions.contains { $0.effectiveIntroductoryOffer != nil })
    #expect(subscriptions.contains { !$0.adHocOffers.isEmpty })
    #expect(subscriptions.contains { !($0.codeOffers ?? []).isEmpty })
    #expect(subscriptions.contains { !($0.winbackOffers ?? []).isEmpty })
    #expect(Set(subscriptions.map(\.groupNumber)).count >= 3)
    #expect((file.subscriptionGroups ?? []).count >= 2)
    let locales = Set(subscriptions.flatMap(\.product.localizations).map(\.locale))
    #expect(locales.isSuperset(of: ["ja", "zh_Hans"]))
  }

  @Test(.enabled(if: corpusIsPresent, "the shared corpus is not beside the package"))
  func everyCorpusFileLoadsWithoutErrors() throws {
    #expect(Self.corpusFiles.count > 40)
    for url in Self.corpusFiles {
      let result = StoreKitConfiguration.load(contentsOf: url.path)
      let errors = result.diagnostics.filter { $0.severity == .error }
      #expect(errors.isEmpty, "\(url.lastPathComponent): \(errors.map { $0.formatted(file: "") })")
    }
  }

  @Test(.enabled(if: corpusIsPresent, "the shared corpus is not beside the package"))
  func everyXcodeFormattedCorpusFileRoundTripsByteForByte() throws {
    var checked = 0
    for url in Self.corpusFiles {
      let bytes = try [UInt8](Data(contentsOf: url))
      guard Self.looksXcodeFormatted(String(decoding: bytes, as: UTF8.self)) else { continue }
      checked += 1
      let written = StoreKitConfiguration.load(bytes).configuration?.xcodeFormattedBytes()
      #expect(written == bytes, "\(url.lastPathComponent) does not round-trip")
    }
    #expect(checked >= 50)
  }

  @Test(.enabled(if: corpusIsPresent, "the shared corpus is not beside the package"))
  func rewrittenCorpusFilesAreStable() throws {
    for url in Self.corpusFiles {
      let once = StoreKitConfiguration.load(contentsOf: url.path).configuration?
        .xcodeFormattedBytes()
      let twice = once.flatMap {
        StoreKitConfiguration.load($0).configuration?.xcodeFormattedBytes()
      }
      #expect(once != nil && once == twice, "\(url.lastPathComponent)")
    }
  }
}
