/// Options that shape how the TUI looks.
package struct DisplayOptions: Equatable, Sendable {
  /// Colors in use.
  package var color: Bool
  /// The glyph set.
  package var glyphs: Glyphs

  /// Creates options.
  package init(color: Bool, glyphs: Glyphs) {
    self.color = color
    self.glyphs = glyphs
  }
}
