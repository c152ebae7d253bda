import Foundation
import StoreConfiguration
import StoreTestSupport
import Testing

/// The settings table is the one description of the session's switches.
@Suite struct SettingDescriptorTests {
  /// The settings page's table (docs/settings.md), as the descriptors write it.
  static var expectedTable: String {
    var table =
      "| `set` | `.storekit` key | Inspector | Default | What it does |\n|---|---|---|---|---|\n"
    for setting in SettingDescriptor.all {
      table +=
        "| `\(setting.command)` | \(setting.key.map { "`\($0)`" } ?? "—") | \(setting.label) | "
        + "\(setting.defaultValue) | "
        + "\(setting.help) |\n"
    }
    return table
  }

  @Test func theSettingsPageListsEverySettingAsTheTableDescribesIt() throws {
    let page = try String(
      contentsOf: packageRoot.appendingPathComponent("docs/settings.md"), encoding: .utf8)
    #expect(
      page.contains(Self.expectedTable),
      "docs/settings.md's table should be:\n\(Self.expectedTable)")
  }

  @Test func everySettingHasItsOwnKeyAndCommand() {
    let all = SettingDescriptor.all
    let keys = all.compactMap(\.key)
    #expect(Set(keys).count == keys.count)
    #expect(Set(all.map(\.command)).count == all.count)
    #expect(Set(all.map(\.id)) == Set(SettingID.allCases))
  }

  @Test func flagsReadAndWriteTheirOwnKeys() throws {
    for (setting, key) in SettingDescriptor.fileFlags {
      let json = "{\"settings\" : {\"\(key)\" : true}, \"products\" : []}"
      let loaded = StoreKitConfiguration.load(Array(json.utf8))
      let settings = try #require(loaded.configuration?.settings)
      #expect(setting.flag(in: settings) == true, "\(key)")
      for (other, otherKey) in SettingDescriptor.fileFlags where other.id != setting.id {
        #expect(other.flag(in: settings) == nil, "\(key) set \(otherKey)")
      }
      let written = String(decoding: loaded.configuration!.xcodeFormattedBytes(), as: UTF8.self)
      #expect(written.contains("\"\(key)\" : true"))
    }
  }
}
