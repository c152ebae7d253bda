import StoreSimulation

/// The transaction table pane.
struct TransactionTableView: ScreenPart {
  let screen: Screen

  /// The transaction table, newest first, with the active filter in the title.
  func drawTransactions(into canvas: inout Canvas, _ rect: Rect) {
    let glyphs = display.glyphs
    var title = "Transactions"
    if !filter.isEmpty { title += "  \(filter.text)  (\(visible.count) of \(rows.count))" }
    canvas.box(rect, title: title, focused: focus == .transactions, glyphs: glyphs)
    let inner = rect.inner
    guard inner.height > 1 else { return }
    let columns = tableColumns(width: inner.width)
    var x = inner.x
    for column in columns {
      canvas.put(
        TextCells.fit(column.title, column.width, alignRight: column.alignRight), x: x, y: inner.y,
        style: CellStyle(bold: true, underline: true))
      x += column.width + 1
    }
    guard !visible.isEmpty else {
      let empty =
        rows.isEmpty
        ? "No transactions yet: select a product and press b, or : buy …"
        : "No transaction matches the filter (Esc clears it)."
      canvas.put(empty, x: inner.x, y: inner.y + 1, limit: inner.width, style: CellStyle(dim: true))
      return
    }
    let height = inner.height - 1
    let selected = selectedIndex
    let top = scrollTop(selected: selected ?? 0, height: height)
    for line in 0..<height {
      let index = top + line
      guard visible.indices.contains(index) else { break }
      let row = rows[visible[index]]
      let isSelected = index == selected
      let style = CellStyle(
        reverse: isSelected && focus == .transactions,
        underline: isSelected && focus != .transactions)
      let y = inner.y + 1 + line
      canvas.fill(Rect(x: inner.x, y: y, width: inner.width, height: 1), style: style)
      var x = inner.x
      for column in columns {
        var cellStyle = style
        if column.title == "State" {
          cellStyle.foreground = styled(CellStyle(foreground: color(of: row.state))).foreground
        }
        canvas.put(
          TextCells.fit(column.value(self, row), column.width, alignRight: column.alignRight), x: x,
          y: y,
          style: cellStyle)
        x += column.width + 1
      }
    }
  }

  struct TableColumn {
    var title: String
    var width: Int
    var alignRight = false
    var value: (TransactionTableView, LedgerRow) -> String
  }

  /// The columns that fit: unfinished mark, id, product, type, purchase date, expiration, state;
  /// type and expiration go first when space is short.
  func tableColumns(width: Int) -> [TableColumn] {
    let glyphs = display.glyphs
    let idWidth = max(3, String(rows.last?.id ?? 0).count)
    var columns = [
      TableColumn(title: " ", width: 1) { _, row in row.isFinished ? " " : glyphs.warning },
      TableColumn(title: "ID", width: idWidth, alignRight: true) { _, row in String(row.id) },
      TableColumn(title: "Product", width: 0) { app, row in
        app.session.catalog.products[Int(row.product)].productID
      },
      TableColumn(title: "Type", width: 14) { app, row in
        Formatting.shortType(ProductKind(app.session.catalog.products[Int(row.product)].type))
      },
      TableColumn(title: "Purchased", width: 14) { _, row in
        Formatting.shortDate(Instant(milliseconds: row.purchaseDate))
      },
      TableColumn(title: "Expires", width: 14) { _, row in
        row.expirationDate == Int64.min
          ? "" : Formatting.shortDate(Instant(milliseconds: row.expirationDate))
      },
      TableColumn(title: "State", width: 16) { _, row in row.state.label },
    ]
    func fixed() -> Int { columns.filter { $0.title != "Product" }.reduce(0) { $0 + $1.width + 1 } }
    if width - fixed() < 16 { columns.removeAll { $0.title == "Type" } }
    if width - fixed() < 16 { columns.removeAll { $0.title == "Expires" } }
    if width - fixed() < 12 { columns.removeAll { $0.title == "Purchased" } }
    let productIndex = columns.firstIndex { $0.title == "Product" }!
    columns[productIndex].width = max(8, width - fixed())
    return columns
  }
}
