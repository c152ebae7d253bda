import StoreSimulation

/// The transaction table pane.
struct TransactionTableView: ScreenPart {
  let screen: Screen

  /// The transaction table, newest first, with the active filter in the title.
  func drawTransactions(into canvas: inout Canvas, _ rect: Rect) {
    let glyphs = display.glyphs
    var title =
      state.viewer.map { "Transactions: \($0)'s device (family shared)" } ?? "Transactions"
    if let customer = session.customer.name { title += " of \(customer)" }
    if !filter.isEmpty {
      // The count always shows; the filter's text gives way first, then whose table it is,
      // each ending in an ellipsis.
      let count = "(\(visible.count) of \(rows.count))"
      let mark = focus == .transactions ? TextCells.width(glyphs.selected) + 1 : 0
      let room = rect.width - 4 - mark - 4 - TextCells.width(count)
      let head = TextCells.truncate(title, to: max(1, room - 5), ellipsis: glyphs.ellipsis)
      let text = TextCells.truncate(
        filter.text, to: max(1, room - TextCells.width(head)), ellipsis: glyphs.ellipsis)
      title = "\(head)  \(text)  \(count)"
    }
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
        ? "No transactions yet: select a product and press b to buy it (or type : buy …)."
        : "No transaction matches the filter (Esc clears it)."
      for (offset, line) in TextCells.wrap(empty, width: inner.width).prefix(inner.height - 1)
        .enumerated()
      {
        canvas.put(
          line, x: inner.x, y: inner.y + 1 + offset, limit: inner.width, style: CellStyle(dim: true)
        )
      }
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

  /// The fewest cells the ID column is cut to when ids are long and the pane narrow.
  static let idColumnLimit = 8

  /// How wide the date columns are: with the year when the oldest purchase is in another year
  /// (a back-dated one, a journal from last year).
  private var dateWidth: Int {
    let withYear =
      rows.first.map {
        Formatting.isOtherYear(Instant(milliseconds: $0.purchaseDate), now: session.now)
      } ?? false
    return withYear ? 16 : 14
  }

  /// The columns that fit, most useful first: unfinished mark, id, product, purchase date and
  /// state always (dates keep their seconds; the year shows when it is not the session's);
  /// then expiration and type when the product keeps 16 cells. Narrow, states take their short
  /// names.
  func tableColumns(width: Int) -> [TableColumn] {
    let glyphs = display.glyphs
    let now = session.now
    let dateWidth = self.dateWidth
    // A named customer's ids have 15 digits: where they would push the purchase date out, the
    // column keeps their last ones (the inspector shows the whole id).
    let digits = max(3, String(rows.last?.id ?? 0).count)
    let fitting = width - (2 + 8 + dateWidth + 11 + 5)  // five columns, a space after each
    let idWidth = digits <= fitting ? digits : max(Self.idColumnLimit, min(digits, fitting))
    func date(_ milliseconds: Int64) -> String {
      milliseconds == Int64.min
        ? "" : Formatting.shortDate(Instant(milliseconds: milliseconds), now: now, fitting: true)
    }
    // Unfinished, and named by the last step.
    let changed = state.changes?.ids ?? []
    let mark = TableColumn(title: " ", width: 2) { _, row in
      (row.isFinished ? " " : glyphs.warning) + (changed.contains(row.id) ? glyphs.changed : " ")
    }
    let id = TableColumn(title: "ID", width: idWidth, alignRight: true) { _, row in
      let text = String(row.id)
      return text.count <= idWidth ? text : glyphs.ellipsis + text.suffix(idWidth - 1)
    }
    let product = TableColumn(title: "Product", width: 8) { view, row in
      view.session.catalog.products[Int(row.product)].productID
    }
    let type = TableColumn(title: "Type", width: 14) { view, row in
      Formatting.shortType(ProductKind(view.session.catalog.products[Int(row.product)].type))
    }
    let purchased = TableColumn(title: "Purchased", width: dateWidth) { _, row in
      date(row.purchaseDate)
    }
    let expires = TableColumn(title: "Expires", width: dateWidth) { _, row in
      date(row.expirationDate)
    }
    let state = TableColumn(title: "State", width: 16) { _, row in row.state.label }
    let shortState = TableColumn(title: "State", width: 11) { _, row in row.state.shortLabel }
    func room(_ columns: [TableColumn]) -> Int {
      width - columns.reduce(0) { $0 + $1.width + 1 }
    }
    var columns = [mark, id, product, purchased, state]
    if room(columns) < 8 { columns[4] = shortState }
    if room(columns + [expires]) >= 8 + 8 { columns.insert(expires, at: 4) }
    if room(columns + [type]) >= 8 + 8 { columns.insert(type, at: 3) }
    if room(columns) < 0 {
      // Narrow (a named customer's long ids): the purchase date without its seconds, or
      // without its time in another year, before no date at all.
      let compact = TableColumn(title: "Purchased", width: dateWidth == 16 ? 10 : 11) { _, row in
        let text = date(row.purchaseDate)
        return String(text.prefix(text.count == 16 ? 10 : 11))
      }
      columns[columns.firstIndex { $0.title == "Purchased" }!] = compact
    }
    if room(columns) < 0 { columns.removeAll { $0.title == "Purchased" } }
    columns[2].width = max(8, room(columns) + 8)
    return columns
  }
}
