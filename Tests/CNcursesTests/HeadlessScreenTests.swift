import CNcurses
import Testing

/// Proves the riskiest binding: ncurses' wide-character API, reached through the module map,
/// draws Japanese text two cells per character and reads it back.
@Suite(.serialized) struct HeadlessScreenTests {
  @Test func drawsJapaneseTextAndReadsItBack() throws {
    #expect(cn_setup_locale() == 1, "no UTF-8 locale is available")
    let screen = try #require(cn_headless_screen(24, 80), "no terminal description found")
    defer { cn_close_headless_screen(screen) }
    #expect(cn_lines() == 24)
    #expect(cn_cols() == 80)

    let text = "在庫 ストア 日本語"
    let wide = text.unicodeScalars.map { wchar_t(bitPattern: $0.value) } + [0]
    #expect(cn_draw_text(3, 2, wide) != ERR)
    // Eight wide characters take two cells each and two spaces one each: 18 cells.
    #expect(cn_getcury(cn_stdscr()) == 3)
    #expect(cn_getcurx(cn_stdscr()) == 2 + 18)

    var buffer = [wchar_t](repeating: 0, count: 64)
    let count = cn_read_text(3, 2, &buffer, Int32(text.unicodeScalars.count))
    #expect(count > 0)
    let read = String(
      String.UnicodeScalarView(
        buffer.prefix { $0 != 0 }.compactMap { Unicode.Scalar(UInt32(bitPattern: $0)) }))
    #expect(read == text)
  }

  @Test func attributesAndKeysFromMacrosAreReachable() {
    #expect(cn_attr_bold() != cn_attr_normal())
    #expect(cn_attr_reverse() != cn_attr_bold())
    #expect(cn_key_resize() == KEY_RESIZE)
    #expect(cn_key_f(1) == KEY_F0 + 1)
  }
}
