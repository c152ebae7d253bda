import StoreConfiguration
import StoreSimulation

/// Every customer's transactions, drawn over the panes: a Customer column, then the table's.
struct EveryTransactionPane: ScreenPart {
  let screen: Screen

  /// Draws `view` over every pane (the status bar stays).
  func draw(_ view: EveryTransactionView, into canvas: inout Canvas, _ layout: Layout) {
    let inner = drawListBox("Transactions of every customer", into: &canvas, layout)
    guard inner.height >= 3, inner.width >= 20 else { return }
    let listHeight = inner.height - 1
    let first = max(0, view.selected - (listHeight - 2))
    let page = view.page(from: first, count: listHeight - 1)
    let wide = inner.width >= 100
    let header = ["Customer", "ID", "Product", wide ? "Purchased (UTC)" : "Purchased", "State"]
    let lines = page.map { cells($0.row, $0.customer, wide: wide) }
    let widths = listWidths(header: header, lines: lines, flexible: 2, width: inner.width)
    drawListRow(
      header, widths, into: &canvas, x: inner.x, y: inner.y,
      style: styled(CellStyle(bold: true, underline: true)), rightAligned: [1])
    for (offset, line) in lines.enumerated() {
      var style = CellStyle(reverse: first + offset == view.selected)
      if !style.reverse {
        style.foreground = display.color ? color(of: page[offset].row.state) : nil
      }
      drawListRow(
        line, widths, into: &canvas, x: inner.x, y: inner.y + 1 + offset, style: style,
        rightAligned: [1])
    }
    if page.isEmpty {
      canvas.put(
        "no transaction matches the filter", x: inner.x, y: inner.y + 1, limit: inner.width,
        style: styled(CellStyle(dim: true)))
    }
    drawListFooter(
      filter: view.filter, isFiltering: view.isFiltering, error: view.filterError,
      position: view.shownCount == 0 ? "0" : "\(view.selected + 1)/\(view.shownCount)",
      keys: "Enter open its customer · / filter (customer:<name> narrows) · Esc back",
      into: &canvas, Rect(x: inner.x, y: inner.y + inner.height - 1, width: inner.width, height: 1))
  }

  private func cells(_ row: LedgerRow, _ customer: Customer, wide: Bool) -> [String] {
    let product = session.catalog.products[Int(row.product)].productID.sanitizedForTerminal
    let purchased = Formatting.clock(Instant(milliseconds: row.purchaseDate))
    return [
      (customer.name ?? "(own)").sanitizedForTerminal, String(row.id), product,
      wide ? purchased : String(purchased.prefix(10)), row.state.label,
    ]
  }
}
