import Testing

@testable import StoreConfiguration

@Suite struct ValueTypeTests {
  @Test(
    arguments: [
      ("0.99", 990), ("29", 29_000), ("13900", 13_900_000), ("98.0", 98_000), ("0.0", 0),
      ("0.5", 500), ("1.2345", 1235), ("1.2344", 1234),
    ] as [(String, Int64)])
  func pricesBecomeMilliunitsExactly(text: String, milliunits: Int64) {
    #expect(Price(text).milliunits == milliunits)
    #expect(Price(text).text == text)
  }

  @Test(arguments: ["", "abc", "1,99", "-1", ".5", "5.", "1.2.3", "$1", " 1"])
  func pricesThatAreNotPlainDecimalsHaveNoValue(text: String) {
    #expect(Price(text).milliunits == nil)
    #expect(!Price(text).isValid)
  }

  @Test(arguments: [
    ("P3D", 3, SubscriptionPeriod.Unit.day), ("P1W", 1, .week), ("P2W", 2, .week),
    ("P1M", 1, .month),
    ("P6M", 6, .month), ("P1Y", 1, .year),
  ])
  func periodsParseISO8601(text: String, value: Int, unit: SubscriptionPeriod.Unit) {
    let period = SubscriptionPeriod(iso8601: text)
    #expect(period == SubscriptionPeriod(value, unit))
    #expect(period?.iso8601 == text)
  }

  @Test(arguments: ["P0M", "P01M", "1M", "P1", "PM", "P1Y6M", "P+1M", "PT30S", "p1m", "P1Q", ""])
  func periodsRejectOtherForms(text: String) {
    #expect(SubscriptionPeriod(iso8601: text) == nil)
  }

  @Test func localizationsMatchLocaleThenLanguageThenEnglish() {
    let all = [
      Localization(locale: "en_US", displayName: "English", description: ""),
      Localization(locale: "ja", displayName: "日本語", description: ""),
      Localization(locale: "zh_Hans", displayName: "简体", description: ""),
    ]
    #expect(all.best(for: "ja_JP")?.displayName == "日本語")
    #expect(all.best(for: "zh_Hans")?.displayName == "简体")
    #expect(all.best(for: "fr")?.displayName == "English")
    #expect([Localization]().best(for: "en_US") == nil)
  }

  @Test func terminalSanitizingMakesControlsVisible() {
    #expect("ok 日本".sanitizedForTerminal == "ok 日本")
    #expect("a\u{1B}[31mb\u{7}".sanitizedForTerminal == "a\\u{1B}[31mb\\u{7}")
    #expect("x\u{202E}y\u{9B}".sanitizedForTerminal == "x\\u{202E}y\\u{9B}")
  }
}
