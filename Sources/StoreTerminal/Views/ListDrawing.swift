/// What the full-screen lists (the customers view, every customer's transactions) draw alike:
/// their box, column widths, rows and the footer with the filter or the keys.
extension ScreenPart {
  /// A titled box over every pane (the status bar stays); its inside.
  func drawListBox(_ title: String, into canvas: inout Canvas, _ layout: Layout) -> Rect {
    let rect = Rect(x: 0, y: 0, width: layout.width, height: layout.statusBar.y)
    canvas.fill(rect)
    canvas.box(rect, title: title, focused: true, glyphs: display.glyphs, marksFocus: false)
    return rect.inner
  }

  /// Each column's width: what its header and visible cells need, column `flexible` taking what
  /// is left of `width` (at least 8).
  func listWidths(header: [String], lines: [[String]], flexible: Int, width: Int) -> [Int] {
    var widths = header.map(TextCells.width)
    for line in lines {
      for (column, cell) in line.enumerated() {
        widths[column] = max(widths[column], TextCells.width(cell))
      }
    }
    let others = widths.enumerated().filter { $0.offset != flexible }.map(\.element).reduce(0, +)
    widths[flexible] = max(8, min(widths[flexible], width - others - (widths.count - 1)))
    return widths
  }

  /// A row of cells in `widths`, a space apart, those in `rightAligned` to the right; a cell's
  /// own style from `cellStyle` when it gives one.
  func drawListRow(
    _ cells: [String], _ widths: [Int], into canvas: inout Canvas, x: Int, y: Int,
    style: CellStyle, rightAligned: Set<Int> = [], cellStyle: (Int) -> CellStyle? = { _ in nil }
  ) {
    var column = x
    let right = canvas.width - 1
    for (index, cell) in cells.enumerated() where column < right {
      let text = TextCells.fit(
        TextCells.truncate(cell, to: widths[index], ellipsis: display.glyphs.ellipsis),
        widths[index], alignRight: rightAligned.contains(index))
      column = canvas.put(
        text + " ", x: column, y: y, limit: max(0, right - column),
        style: cellStyle(index) ?? style)
    }
  }

  /// The footer: the filter being typed (or in force) with its error or hint, else the keys;
  /// the selected row's place either way.
  func drawListFooter(
    filter: TextInput, isFiltering: Bool, error: String?, position: String, keys: String,
    into canvas: inout Canvas, _ rect: Rect
  ) {
    guard isFiltering || !filter.text.isEmpty else {
      canvas.put(
        "\(keys) · \(position)", x: rect.x, y: rect.y, limit: rect.width,
        style: styled(CellStyle(dim: true)))
      return
    }
    let hint =
      error.map { " \(display.glyphs.warning) \($0)" }
      ?? (isFiltering ? " (Enter keep, Esc clear) · \(position)" : " · \(position)")
    var column = canvas.put("/", x: rect.x, y: rect.y, limit: rect.width)
    column = canvas.put(
      filter.text, x: column, y: rect.y, limit: max(0, rect.x + rect.width - column),
      style: CellStyle(reverse: isFiltering))
    canvas.put(
      hint, x: column, y: rect.y, limit: max(0, rect.x + rect.width - column),
      style: styled(CellStyle(foreground: error == nil ? nil : .red, dim: error == nil)))
  }
}
