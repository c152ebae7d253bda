import Foundation
import Testing

@testable import StoreTerminal

@Suite struct CanvasTests {
  init() { TextCells.prepareLocale() }

  @Test func wideCharactersTakeTwoCells() {
    #expect(TextCells.width("abc") == 3)
    #expect(TextCells.width("日本語") == 6)
    #expect(TextCells.width("コイン100枚") == 11)
    #expect(TextCells.width("e\u{301}") == 1)
  }

  @Test func truncationCutsByCellsAndNeverSplitsAWideCharacter() {
    #expect(TextCells.truncate("日本語テキスト", to: 7) == "日本語…")
    #expect(TextCells.width(TextCells.truncate("日本語テキスト", to: 6)) <= 6)
    #expect(TextCells.truncate("short", to: 10) == "short")
    #expect(TextCells.fit("日本", 6) == "日本  ")
  }

  @Test func controlAndEscapeSequencesAreMadeVisible() {
    let clusters = TextCells.clusters("a\u{1B}[2Jb\u{9B}c")
    #expect(
      !clusters.contains {
        $0.text.unicodeScalars.contains { $0.value == 0x1B || $0.value == 0x9B }
      })
    #expect(clusters.map(\.text).joined() == "a\\u{1B}[2Jb\\u{9B}c")
  }

  @Test func joinedEmojiBecomeTheirParts() {
    let family = "👨\u{200D}👩\u{200D}👧"
    #expect(TextCells.clusters(family).map(\.text) == ["👨", "👩", "👧"])
    #expect(TextCells.width(family) == 6)
  }

  @Test func puttingTextOverHalfAWideCharacterClearsTheOtherHalf() {
    var canvas = Canvas(width: 6, height: 1)
    canvas.put("日本", x: 0, y: 0)
    #expect(canvas.text == "日本")
    canvas.put("x", x: 1, y: 0)
    #expect(canvas.text == " x本")
    canvas.put("語", x: 5, y: 0)
    #expect(canvas.text == " x本")
  }

  @Test func fillingOverHalfAWideCharacterClearsTheOtherHalf() {
    var canvas = Canvas(width: 8, height: 2)
    canvas.put("日本語", x: 0, y: 0)
    canvas.put("日本語", x: 0, y: 1)
    canvas.fill(Rect(x: 1, y: 0, width: 2, height: 2))  // the right half of 日, the left of 本
    #expect(canvas.text == "    語\n    語")
    #expect(Self.wideCharactersAreWhole(canvas))
  }

  /// Every right half has its wide character on its left, and every wide character its right
  /// half: what the terminal draws lines up with what the canvas holds.
  static func wideCharactersAreWhole(_ canvas: Canvas) -> Bool {
    (0..<canvas.height).allSatisfy { y in
      (0..<canvas.width).allSatisfy { x in
        let text = canvas[x, y].text
        if text.isEmpty { return x > 0 && TextCells.width(canvas[x - 1, y].text) == 2 }
        if TextCells.width(text) == 2 {
          return x + 1 < canvas.width && canvas[x + 1, y].text.isEmpty
        }
        return true
      }
    }
  }

  @Test(arguments: [80, 91, 100, 120])
  func aDialogOverWideCharactersLeavesThemWholeAndTheListAsItWasOnceClosed(width: Int) {
    var app = makeApp("Everything")
    for _ in 0..<20 {
      let before = app.render(width: width, height: 24, wall: start)
      app.press(.character("b"))
      let open = app.render(width: width, height: 24, wall: start)
      #expect(Self.wideCharactersAreWhole(open), "\(open.text)")
      app.press(.escape)
      let closed = app.render(width: width, height: 24, wall: start)
      #expect(Self.wideCharactersAreWhole(closed))
      #expect(closed.text == before.text)
      app.press(.character("j"))
    }
  }

  @Test func boxesHaveTitles() {
    var canvas = Canvas(width: 12, height: 3)
    canvas.box(Rect(x: 0, y: 0, width: 12, height: 3), title: "Log", focused: false, glyphs: .ascii)
    #expect(canvas.text == "+ Log -----+\n|          |\n+----------+")
  }

  @Test func layoutsSideBySideStackedAndTooSmall() {
    let wide = Layout(width: 100, height: 30, showsLog: false, zoomed: false)
    #expect(!wide.isStacked)
    #expect(wide.rect(of: .products)?.y == wide.rect(of: .transactions)?.y)
    let usable = Layout(width: 80, height: 24, showsLog: true, zoomed: false)
    #expect(!usable.isStacked)
    #expect(usable.panes.map(\.0) == [.products, .transactions, .inspector, .log])
    let narrow = Layout(width: 60, height: 30, showsLog: false, zoomed: false)
    #expect(narrow.isStacked)
    #expect(narrow.rect(of: .products)!.y < narrow.rect(of: .transactions)!.y)
    #expect(Layout(width: 39, height: 20, showsLog: false, zoomed: false).isTooSmall)
    #expect(Layout(width: 39, height: 20, showsLog: false, zoomed: false).panes.isEmpty)
  }
}

/// Prices by the currency's own rules, in the session's locale.
@Suite struct PriceFormatTests {
  @Test(arguments: [
    ("en_US", "USD", Int64(9_995), "$10.00"), ("en_US", "USD", 9_990, "$9.99"),
    ("en_US", "JPY", 160_000, "¥160"), ("en_US", "KRW", 1_500_000, "₩1,500"),
    ("en_US", "BHD", 1_234, "BHD 1.234"), ("de_DE", "EUR", 990, "0,99 €"),
    ("en_US", "CHF", 12_000, "CHF 12.00"),
  ])
  func pricesFollowTheCurrencysRules(
    locale: String, currency: String, milliunits: Int64, expected: String
  ) {
    let text = PriceFormat(locale: locale)(milliunits, currency: currency)
    // ICU separates with a no-break space where a person sees a space.
    #expect(text.replacingOccurrences(of: "\u{A0}", with: " ") == expected)
  }
}
