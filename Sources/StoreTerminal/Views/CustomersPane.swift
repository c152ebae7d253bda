import StoreConfiguration
import StoreSimulation

/// The customers view, drawn over the panes: the overview line, the chart of subscribers at
/// each month's end, the sorted list and its footer.
struct CustomersPane: ScreenPart {
  let screen: Screen

  /// Draws `view` over every pane (the status and key bars stay).
  func draw(_ view: CustomersView, into canvas: inout Canvas, _ layout: Layout) {
    let rect = Rect(x: 0, y: 0, width: layout.width, height: layout.statusBar.y)
    canvas.fill(rect)
    canvas.box(rect, title: "Customers", focused: true, glyphs: display.glyphs, marksFocus: false)
    let inner = rect.inner
    guard inner.height >= 5, inner.width >= 20 else { return }
    canvas.put(overviewText(view), x: inner.x, y: inner.y, limit: inner.width)
    drawChart(view.overview, into: &canvas, x: inner.x, y: inner.y + 1, width: inner.width)
    let listTop = inner.y + 2
    let listHeight = inner.height - 3
    let rows = view.rows
    // The selected row stays on screen: the list scrolls as the selection leaves it.
    let first = max(0, view.selected - (listHeight - 2))
    let visible = Array(rows.dropFirst(first).prefix(listHeight - 1))
    let wide = inner.width >= 100
    let columns = widths(for: visible, width: inner.width, view: view, wide: wide)
    drawRow(
      header(view, wide: wide), columns, into: &canvas, x: inner.x, y: listTop,
      style: styled(CellStyle(bold: true, underline: true)))
    for (offset, summary) in visible.enumerated() {
      let selected = first + offset == view.selected
      let cells = cells(summary, wide: wide)
      drawRow(
        cells, columns, into: &canvas, x: inner.x, y: listTop + 1 + offset,
        style: CellStyle(reverse: selected), statusColor: color(of: summary.status))
    }
    if rows.isEmpty {
      canvas.put(
        "no customer matches the filter", x: inner.x, y: listTop + 1, limit: inner.width,
        style: styled(CellStyle(dim: true)))
    }
    drawFooter(
      view, into: &canvas,
      Rect(x: inner.x, y: inner.y + inner.height - 1, width: inner.width, height: 1))
  }

  /// `10000 customers · 6234 subscribers · 312 in retry · 45 in grace · 3409 churned`.
  private func overviewText(_ view: CustomersView) -> String {
    let o = view.overview
    return
      "\(o.customers) customer\(o.customers == 1 ? "" : "s") · \(o.subscribers) subscribers · "
      + "\(o.inRetry) in retry · \(o.inGrace) in grace · \(o.churned) churned"
  }

  /// Subscribers at each month's end as a row of bars, with the first and last month and the
  /// peak.
  private func drawChart(
    _ overview: CustomerOverview, into canvas: inout Canvas, x: Int, y: Int, width: Int
  ) {
    let points = overview.subscribersAtMonthEnds
    guard !points.isEmpty else {
      canvas.put(
        "subscribers at month ends: no month has ended yet", x: x, y: y, limit: width,
        style: styled(CellStyle(dim: true)))
      return
    }
    let levels: [String] =
      display.glyphs == .ascii
      ? [" ", ".", ":", "-", "=", "+", "*", "#"] : ["▁", "▂", "▃", "▄", "▅", "▆", "▇", "█"]
    let peak = max(1, points.map(\.count).max() ?? 1)
    let bars = points.map { point in
      levels[min(levels.count - 1, point.count * (levels.count - 1) / peak)]
    }.joined()
    let month = { (instant: Instant) in String(instant.iso8601.prefix(7)) }
    let label = "subscribers at month ends "
    let after =
      " \(month(points[0].end))…\(month(points[points.count - 1].end)) · peak \(peak)"
      + " · now \(points[points.count - 1].count)"
    var column = canvas.put(label, x: x, y: y, limit: width, style: styled(CellStyle(dim: true)))
    column = canvas.put(
      bars, x: column, y: y, limit: max(0, x + width - column),
      style: styled(CellStyle(foreground: .green)))
    canvas.put(after, x: column, y: y, limit: max(0, x + width - column))
  }

  /// The column titles (short ones: the footer says which number sorts by which), the sorted
  /// one marked with its direction.
  private func header(_ view: CustomersView, wide: Bool) -> [String] {
    let titles = ["Customer", "Store", "Product", "Status", "Since", "Ren", "Revenue", "Txns"]
    let (ascending, descending) = display.glyphs == .ascii ? ("^", "v") : ("↑", "↓")
    let shown = CustomersView.Column.allCases.prefix(wide ? titles.count : titles.count - 1)
    return shown.map { column in
      titles[column.rawValue]
        + (column == view.sort ? (view.ascending ? ascending : descending) : "")
    }
  }

  /// A customer's cells; on a narrow screen the date alone says since when, and the count of
  /// transactions (sortable still, with 8) gives its room to the product.
  private func cells(_ summary: CustomerSummary, wide: Bool) -> [String] {
    var cells = CustomerListing.cells(summary)
    if !wide {
      let since = CustomersView.Column.since.rawValue
      cells[since] = String(cells[since].prefix(10))
      cells.removeLast()
    }
    return cells
  }

  /// Each column's width: what its visible cells need, the product column taking what is left.
  private func widths(
    for rows: [CustomerSummary], width: Int, view: CustomersView, wide: Bool
  ) -> [Int] {
    let header = header(view, wide: wide)
    var widths = header.map(TextCells.width)
    for summary in rows {
      for (column, cell) in cells(summary, wide: wide).enumerated() {
        widths[column] = max(widths[column], TextCells.width(cell))
      }
    }
    let product = CustomersView.Column.product.rawValue
    let others = widths.enumerated().filter { $0.offset != product }.map(\.element).reduce(0, +)
    widths[product] = max(8, min(widths[product], width - others - (widths.count - 1)))
    return widths
  }

  private func drawRow(
    _ cells: [String], _ widths: [Int], into canvas: inout Canvas, x: Int, y: Int,
    style: CellStyle, statusColor: CellColor? = nil
  ) {
    var column = x
    let right = canvas.width - 1
    let numeric: Set<Int> = [5, 6, 7]
    for (index, cell) in cells.enumerated() where column < right {
      var cellStyle = style
      if index == CustomersView.Column.status.rawValue, let statusColor {
        cellStyle.foreground = display.color ? statusColor : nil
      }
      let text = TextCells.fit(
        TextCells.truncate(cell, to: widths[index], ellipsis: display.glyphs.ellipsis),
        widths[index], alignRight: numeric.contains(index))
      column = canvas.put(
        text + " ", x: column, y: y, limit: max(0, right - column), style: cellStyle)
    }
  }

  /// The status's color, always beside its word.
  private func color(of status: RenewalState?) -> CellColor? {
    switch status {
    case .subscribed?: .green
    case .inGracePeriod?: .yellow
    case .inBillingRetryPeriod?, .revoked?: .red
    case .expired?, nil: nil
    }
  }

  private func drawFooter(_ view: CustomersView, into canvas: inout Canvas, _ rect: Rect) {
    let position = view.rows.isEmpty ? "0" : "\(view.selected + 1)/\(view.rows.count)"
    if view.isFiltering || !view.filter.text.isEmpty {
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
          CellStyle(foreground: view.filterError == nil ? nil : .red, dim: view.filterError == nil))
      )
      return
    }
    canvas.put(
      "Enter open · 1–8 sort · / filter · t all txns · ? help · Esc close · \(position)", x: rect.x,
      y: rect.y,
      limit: rect.width, style: styled(CellStyle(dim: true)))
  }
}
