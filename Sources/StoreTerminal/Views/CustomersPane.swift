import StoreConfiguration
import StoreSimulation

/// The customers view, drawn over the panes: the overview line, the chart of subscribers at
/// each month's end, the sorted list and its footer.
struct CustomersPane: ScreenPart {
  let screen: Screen

  /// Draws `view` over every pane (the status and key bars stay).
  func draw(_ view: CustomersView, into canvas: inout Canvas, _ layout: Layout) {
    let inner = drawListBox("Customers", into: &canvas, layout)
    guard inner.height >= 5, inner.width >= 20 else { return }
    canvas.put(overviewText(view), x: inner.x, y: inner.y, limit: inner.width)
    drawChart(view.overview, into: &canvas, x: inner.x, y: inner.y + 1, width: inner.width)
    let listTop = inner.y + 2
    let listHeight = inner.height - 3
    // The selected row stays on screen: the list scrolls as the selection leaves it.
    let first = max(0, view.selected - (listHeight - 2))
    let visible = view.page(from: first, count: listHeight - 1)
    let wide = inner.width >= 100
    let header = header(view, wide: wide)
    let lines = visible.map { cells($0, wide: wide) }
    let columns = listWidths(
      header: header, lines: lines, flexible: CustomersView.Column.product.rawValue,
      width: inner.width)
    // Renewals, revenue and the count of transactions.
    let numeric: Set<Int> = [5, 6, 7]
    drawListRow(
      header, columns, into: &canvas, x: inner.x, y: listTop,
      style: styled(CellStyle(bold: true, underline: true)), rightAligned: numeric)
    for (offset, summary) in visible.enumerated() {
      let style = CellStyle(reverse: first + offset == view.selected)
      let statusColor = display.color ? color(of: summary.status) : nil
      drawListRow(
        lines[offset], columns, into: &canvas, x: inner.x, y: listTop + 1 + offset, style: style,
        rightAligned: numeric
      ) { column in
        guard column == CustomersView.Column.status.rawValue, let statusColor else { return nil }
        var colored = style
        colored.foreground = statusColor
        return colored
      }
    }
    if visible.isEmpty {
      canvas.put(
        "no customer matches the filter", x: inner.x, y: listTop + 1, limit: inner.width,
        style: styled(CellStyle(dim: true)))
    }
    drawListFooter(
      filter: view.filter, isFiltering: view.isFiltering, error: view.filterError,
      position: view.rowCount == 0 ? "0" : "\(view.selected + 1)/\(view.rowCount)",
      keys: "Enter open · 1–8 sort · / filter · t all txns · ? help · Esc close",
      into: &canvas, Rect(x: inner.x, y: inner.y + inner.height - 1, width: inner.width, height: 1))
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
      // Now is the overview line's count (subscribed or in a grace period), not a month's end.
      + " · now \(overview.subscribers)"
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

  /// The status's color, always beside its word.
  private func color(of status: RenewalState?) -> CellColor? {
    switch status {
    case .subscribed?: .green
    case .inGracePeriod?: .yellow
    case .inBillingRetryPeriod?, .revoked?: .red
    case .expired?, nil: nil
    }
  }
}
