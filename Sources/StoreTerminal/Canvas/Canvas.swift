/// The colors the views use; each is paired with a glyph or a word wherever it carries meaning.
package enum CellColor: UInt8, Sendable, CaseIterable {
  case black, red, green, yellow, blue, magenta, cyan, white
}

/// How a cell looks.
package struct CellStyle: Equatable, Hashable, Sendable {
  /// Text color, or the terminal's default.
  package var foreground: CellColor?
  /// Background color, or the terminal's default.
  package var background: CellColor?
  /// Drawn bold (`A_BOLD`).
  package var bold = false
  /// Dimmed.
  package var dim = false
  /// Reverse video (selection).
  package var reverse = false
  /// Underlined.
  package var underline = false

  /// A style.
  package init(
    foreground: CellColor? = nil, background: CellColor? = nil, bold: Bool = false,
    dim: Bool = false, reverse: Bool = false, underline: Bool = false
  ) {
    self.foreground = foreground
    self.background = background
    self.bold = bold
    self.dim = dim
    self.reverse = reverse
    self.underline = underline
  }

  /// The terminal's default look.
  package static let plain = CellStyle()
}

/// One cell of the screen: the text drawn in it (empty for the right half of a wide character)
/// and its style.
package struct Cell: Equatable, Sendable {
  /// What is drawn; `""` when the cell is covered by the wide character on its left.
  package var text: String
  /// How it looks.
  package var style: CellStyle

  /// A blank cell.
  package static let blank = Cell(text: " ", style: .plain)
}

/// A rectangle of cells.
package struct Rect: Equatable, Sendable {
  /// Left column.
  package var x: Int
  /// Top row.
  package var y: Int
  /// Width in cells.
  package var width: Int
  /// Height in rows.
  package var height: Int

  /// A rectangle.
  package init(x: Int, y: Int, width: Int, height: Int) {
    self.x = x
    self.y = y
    self.width = max(0, width)
    self.height = max(0, height)
  }

  /// The rectangle inside a one-cell border.
  package var inner: Rect { Rect(x: x + 1, y: y + 1, width: width - 2, height: height - 2) }

  /// Whether a cell is inside.
  package func contains(x column: Int, y row: Int) -> Bool {
    column >= x && column < x + width && row >= y && row < y + height
  }
}

/// A grid of cells the views draw into: pure, testable, and drawn to the terminal by one adapter.
package struct Canvas: Equatable, Sendable {
  /// Width in cells.
  package let width: Int
  /// Height in rows.
  package let height: Int
  /// The cells, row by row.
  package private(set) var cells: [Cell]
  /// Whether everything drawn is made plain ASCII first (`--ascii`, `TERM` without Unicode).
  package let asciiOnly: Bool

  /// A blank canvas; with `asciiOnly`, text is transliterated to ASCII as it is put.
  package init(width: Int, height: Int, asciiOnly: Bool = false) {
    self.width = max(0, width)
    self.height = max(0, height)
    self.asciiOnly = asciiOnly
    cells = Array(repeating: .blank, count: self.width * self.height)
  }

  /// The cell at a position.
  package subscript(x: Int, y: Int) -> Cell { cells[y * width + x] }

  /// Writes `text` from a position, clipped to `limit` cells and to the canvas; returns the
  /// column after the last cell written. Wide characters that would straddle the limit are left
  /// out.
  @discardableResult
  package mutating func put(
    _ text: String, x: Int, y: Int, limit: Int? = nil, style: CellStyle = .plain
  ) -> Int {
    guard y >= 0, y < height else { return x }
    let end = min(width, x + (limit ?? width))
    var column = x
    for cluster in TextCells.clusters(asciiOnly ? TextCells.ascii(text) : text) {
      guard column + cluster.width <= end else { break }
      if column >= 0 {
        if column > 0, cells[y * width + column].text.isEmpty {
          cells[y * width + column - 1] = Cell(
            text: " ", style: cells[y * width + column - 1].style)
        }
        cells[y * width + column] = Cell(text: cluster.text, style: style)
        if cluster.width == 2 { cells[y * width + column + 1] = Cell(text: "", style: style) }
        if column + cluster.width < width, cells[y * width + column + cluster.width].text.isEmpty {
          cells[y * width + column + cluster.width] = Cell(text: " ", style: style)
        }
      }
      column += cluster.width
    }
    return column
  }

  /// Fills a rectangle with spaces in a style. A wide character its edge cuts in two (a dialog
  /// over the product list) loses its other half too: no half of one is left on the screen.
  package mutating func fill(_ rect: Rect, style: CellStyle = .plain) {
    let left = max(0, rect.x)
    let right = min(width, rect.x + rect.width)
    guard left < right else { return }
    for row in max(0, rect.y)..<min(height, rect.y + rect.height) {
      if left > 0, cells[row * width + left].text.isEmpty {
        cells[row * width + left - 1].text = " "
      }
      if right < width, cells[row * width + right].text.isEmpty {
        cells[row * width + right].text = " "
      }
      for column in left..<right {
        cells[row * width + column] = Cell(text: " ", style: style)
      }
    }
  }

  /// Changes the style of a rectangle's cells, keeping their text.
  package mutating func restyle(_ rect: Rect, _ change: (inout CellStyle) -> Void) {
    for row in max(0, rect.y)..<min(height, rect.y + rect.height) {
      for column in max(0, rect.x)..<min(width, rect.x + rect.width) {
        change(&cells[row * width + column].style)
      }
    }
  }

  /// Draws a border with a title; a focused box is bold, and a focused pane's title marked
  /// (`▸`, `marksFocus`), so that which pane has the keys shows without color.
  package mutating func box(
    _ rect: Rect, title: String, focused: Bool, glyphs: Glyphs, marksFocus: Bool = true
  ) {
    guard rect.width >= 2, rect.height >= 2 else { return }
    let style = CellStyle(foreground: focused ? .cyan : nil, bold: focused)
    let right = rect.x + rect.width - 1
    let bottom = rect.y + rect.height - 1
    for column in rect.x + 1..<right {
      put(glyphs.horizontal, x: column, y: rect.y, style: style)
      put(glyphs.horizontal, x: column, y: bottom, style: style)
    }
    for row in rect.y + 1..<bottom {
      put(glyphs.vertical, x: rect.x, y: row, style: style)
      put(glyphs.vertical, x: right, y: row, style: style)
    }
    put(glyphs.topLeft, x: rect.x, y: rect.y, style: style)
    put(glyphs.topRight, x: right, y: rect.y, style: style)
    put(glyphs.bottomLeft, x: rect.x, y: bottom, style: style)
    put(glyphs.bottomRight, x: right, y: bottom, style: style)
    if !title.isEmpty && rect.width > 4 {
      let marked = focused && marksFocus ? "\(glyphs.selected) \(title)" : title
      // A title too long for the border ends in an ellipsis, inside the corners.
      let fitted = TextCells.truncate(marked, to: rect.width - 4, ellipsis: glyphs.ellipsis)
      put(" \(fitted) ", x: rect.x + 1, y: rect.y, limit: rect.width - 2, style: style)
    }
  }

  /// The canvas as text, one line per row with trailing spaces removed: what view tests compare.
  package var text: String {
    (0..<height).map { row in
      var line = ""
      for column in 0..<width { line += cells[row * width + column].text }
      while line.hasSuffix(" ") { line.removeLast() }
      return line
    }.joined(separator: "\n")
  }
}

/// The drawing characters, in Unicode or plain ASCII (`--ascii`, `TERM=dumb`).
package struct Glyphs: Equatable, Sendable {
  /// The horizontal line.
  package var horizontal: String
  /// The vertical line.
  package var vertical: String
  /// The top-left corner.
  package var topLeft: String
  /// The top-right corner.
  package var topRight: String
  /// The bottom-left corner.
  package var bottomLeft: String
  /// The bottom-right corner.
  package var bottomRight: String
  /// Marks the selected product or row.
  package var selected: String
  /// Marks what the customer owns.
  package var owned: String
  /// Marks an unfinished transaction or a warning.
  package var warning: String
  /// The clock is running.
  package var running: String
  /// The clock is paused.
  package var paused: String
  /// Separates items in a line.
  package var separator: String
  /// Ends cut text.
  package var ellipsis: String
  /// Points right, for "then".
  package var arrow: String
  /// Marks what the last step changed.
  package var changed: String = "•"

  /// Unicode box drawing and symbols.
  package static let unicode = Glyphs(
    horizontal: "─", vertical: "│", topLeft: "┌", topRight: "┐", bottomLeft: "└",
    bottomRight: "┘", selected: "▸", owned: "●", warning: "⚠", running: "▶", paused: "■",
    separator: " · ", ellipsis: "…", arrow: "→")

  /// Plain ASCII.
  package static let ascii = Glyphs(
    horizontal: "-", vertical: "|", topLeft: "+", topRight: "+", bottomLeft: "+",
    bottomRight: "+", selected: ">", owned: "*", warning: "!", running: ">", paused: "=",
    separator: " | ", ellipsis: "~", arrow: "->", changed: "+")
}
