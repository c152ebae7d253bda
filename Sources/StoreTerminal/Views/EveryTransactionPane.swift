import StoreConfiguration
import StoreSimulation

/// Every customer's transactions, drawn over the panes: a Customer column, then the table's.
struct EveryTransactionPane: ScreenPart {
  let screen: Screen

  /// Draws `view` over every pane (the status bar stays).
  func draw(_ view: EveryTransactionView, into canvas: inout Canvas, _ layout: Layout) {
    let rect = Rect(x: 0, y: 0, width: layout.width, height: layout.statusBar.y)
    canvas.fill(rect)
    canvas.box(
      rect, title: "Transactions of every customer", focused: true, glyphs: display.glyphs,
      marksFocus: false)
    let inner = rect.inner
    guard inner.height >= 3, inner.width >= 20 else { return }
    let listHeight = inner.height - 1
    let first = max(0, view.selected - (listHeight - 2))
    let page = view.page(from: first, count: listHeight - 1)
    let wide = inner.width >= 100
    let header = ["Customer", "ID", "Product", wide ? "Purchased (UTC)" : "Purchased", "State"]
    let lines = page.map { cells($0.row, $0.customer, wide: wide) }
    var widths = header.map(TextCells.width)
    for line in lines {
      for (column, cell) in line.enumerated() {
        widths[column] = max(widths[column], TextCells.width(cell))
      }
    }
    let others = widths.enumerated().filter { $0.offset != 2 }.map(\.element).reduce(0, +)
    widths[2] = max(8, min(widths[2], inner.width - others - widths.count))
    drawRow(
      header, widths, into: &canvas, x: inner.x, y: inner.y,
      style: styled(CellStyle(bold: true, underline: true)))
    for (offset, line) in lines.enumerated() {
      var style = CellStyle(reverse: first + offset == view.selected)
      if !style.reverse {
        style.foreground = display.color ? color(of: page[offset].row.state) : nil
      }
      drawRow(line, widths, into: &canvas, x: inner.x, y: inner.y + 1 + offset, style: style)
    }
    if page.isEmpty {
      canvas.put(
        "no transaction matches the filter", x: inner.x, y: inner.y + 1, limit: inner.width,
        style: styled(CellStyle(dim: true)))
    }
    drawFooter(
      view, into: &canvas,
      Rect(x: inner.x, y: inner.y + inner.height - 1, width: inner.width, height: 1))
  }

  private func cells(_ row: LedgerRow, _ customer: Customer, wide: Bool) -> [String] {
    let product = session.catalog.products[Int(row.product)].productID.sanitizedForTerminal
    let purchased = Formatting.clock(Instant(milliseconds: row.purchaseDate))
    return [
      (customer.name ?? "(own)").sanitizedForTerminal, String(row.id), product,
      wide ? purchased : String(purchased.prefix(10)), row.state.label,
    ]
  }

  private func drawRow(
    _ cells: [String], _ widths: [Int], into canvas: inout Canvas, x: Int, y: Int,
    style: CellStyle
  ) {
    var column = x
    let right = canvas.width - 1
    for (index, cell) in cells.enumerated() where column < right {
      let text = TextCells.fit(
        TextCells.truncate(cell, to: widths[index], ellipsis: display.glyphs.ellipsis),
        widths[index], alignRight: index == 1)
      column = canvas.put(text + " ", x: column, y: y, limit: max(0, right - column), style: style)
    }
  }

  private func drawFooter(_ view: EveryTransactionView, into canvas: inout Canvas, _ rect: Rect) {
    let position = view.shownCount == 0 ? "0" : "\(view.selected + 1)/\(view.shownCount)"
    guard view.isFiltering || !view.filter.text.isEmpty else {
      canvas.put(
        "Enter open its customer · / filter (customer:<name> narrows) · Esc back · \(position)",
        x: rect.x, y: rect.y, limit: rect.width, style: styled(CellStyle(dim: true)))
      return
    }
    let hint =
      view.filterError.map { " \(display.glyphs.warning) \($0)" }
      ?? (view.isFiltering ? " (Enter keep, Esc clear) · \(position)" : " · \(position)")
    var column = canvas.put("/", x: rect.x, y: rect.y, limit: rect.width)
    column = canvas.put(
      view.filter.text, x: column, y: rect.y, limit: max(0, rect.x + rect.width - column),
      style: CellStyle(reverse: view.isFiltering))
    canvas.put(
      hint, x: column, y: rect.y, limit: max(0, rect.x + rect.width - column),
      style: styled(
        CellStyle(foreground: view.filterError == nil ? nil : .red, dim: view.filterError == nil)))
  }
}
