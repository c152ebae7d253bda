import StoreCommands
import StoreSimulation

/// Dialogs, text lines and the catch-up box, drawn over the panes.
struct OverlayView: ScreenPart {
  let screen: Screen

  /// The open overlay, drawn over the panes: a text line at the bottom, or a centered box.
  func drawOverlay(into canvas: inout Canvas, _ layout: Layout) {
    guard let overlay else { return }
    switch overlay {
    case .filter(let line):
      let hint =
        filterError.map { "  \(display.glyphs.warning) \($0)" }
        ?? completionHint(line.input)
        ?? "  (Enter keep, Esc back, Tab complete, ↑↓ history, ? syntax)"
      drawInputLine(
        into: &canvas, layout.statusBar, prefix: "/", input: line.input, hint: hint,
        isError: filterError != nil)
    case .logSearch(let input, _):
      drawInputLine(
        into: &canvas, layout.statusBar, prefix: "log /", input: input,
        hint: "  (Enter keep, Esc back)", isError: false)
    case .prompt(let input):
      let words = input.text.split(separator: " ")
      let hint =
        completionHint(input)
        ?? (words.isEmpty
          ? "  (? the commands) " + Command.verbs.joined(separator: " ")
          : "  (Enter run, Tab complete, ↑↓ history)")
      drawInputLine(
        into: &canvas, layout.statusBar, prefix: ":", input: input, hint: hint, isError: false)
    case .help(let help):
      let lines = help.lines(state, session, width: layout.width)
      let shown = max(1, min(layout.height - 2, lines.count + 3) - 3)
      let top = max(0, min(help.top, lines.count - shown))
      let search = help.query.text.isEmpty ? "type to search" : "search: \(help.query.text)"
      let position =
        lines.count > shown
        ? " · \(top + 1)–\(min(lines.count, top + shown)) of \(lines.count)" : ""
      drawBox(
        into: &canvas, layout, title: help.title,
        lines: lines.map { ($0.label, $0.text) },
        footer: "\(search) · ↑↓ PgUp PgDn scroll · Esc close\(position)",
        dimmed: Set(lines.indices.filter { lines[$0].dimmed }), top: top)
    case .buy(let dialog): drawBuy(dialog, into: &canvas, layout)
    case .confirm(let question, _):
      drawBox(
        into: &canvas, layout, title: "Confirm", lines: [("", question)], footer: "y yes · n no")
    case .menu(let menu):
      let refusals = menu.choices.map { $0.command.refusal(in: session) }
      let lines = zip(menu.choices, refusals).map { choice, refusal in
        (choice.key.label, choice.label + (refusal.map { " (\($0.explanation))" } ?? ""))
      }
      drawBox(
        into: &canvas, layout, title: menu.title, lines: lines, footer: menu.footer,
        dimmed: Set(refusals.indices.filter { refusals[$0] != nil }))
    case .settings(let selected):
      let items = SettingsPanel.items(session)
      let lines = items.enumerated().map { index, item in
        ((index == selected ? display.glyphs.selected + " " : "  ") + item.label, item.value)
      }
      drawBox(
        into: &canvas, layout, title: "Settings", lines: lines,
        footer: "↑↓ choose · Enter change · w write to the .storekit file · Esc close",
        selected: selected + 0)
    case .customers(let view):
      CustomersPane(screen: screen).draw(view, into: &canvas, layout)
    case .everyTransaction(let view):
      EveryTransactionPane(screen: screen).draw(view, into: &canvas, layout)
    case .retention(let dialog):
      drawBox(
        into: &canvas, layout, title: dialog.title, lines: dialog.lines.map { ($0.label, $0.text) },
        footer: dialog.footer)
    }
  }

  /// The buy dialog: the product, quantity, offer, origin, date, renewal and signature fields.
  private func drawBuy(_ dialog: BuyDialog, into canvas: inout Canvas, _ layout: Layout) {
    let product = session.catalog.products[dialog.product]
    if let kind = dialog.commerce {
      drawBox(
        into: &canvas, layout, title: "Buy",
        lines: [
          ("", product.productID),
          (
            "",
            "a generic Advanced Commerce product of "
              + (kind == .subscription ? "subscriptions" : "one-time charges")
          ),
          ("", "its items and prices come from a request your server signs:"),
          ("", "storekeeper advanced-commerce-request <config> <request.json>"),
        ],
        footer: "Enter paste a signed request · f load one from a file · Esc cancel")
      return
    }
    let marker = { (field: Int) in dialog.field == field ? self.display.glyphs.selected : " " }
    var lines = [
      ("", product.productID),
      quantityLine(dialog, product, marker: marker(0)),
      ("\(marker(1)) Offer", dialog.offers[dialog.offerIndex].label),
      (
        "\(marker(2)) From",
        dialog.origin == .app ? "the app (purchase())" : "outside the app (Transaction.updates)"
      ),
      ("\(marker(3)) Date", BuyDialog.backDates[dialog.backDate].label),
      ("\(marker(4)) Renewal", renewalLabel(dialog, product)),
    ]
    if dialog.isPromotional {
      lines.append(("\(marker(5)) Signature", dialog.signature.label))
    }
    drawBox(
      into: &canvas, layout, title: "Buy", lines: lines,
      footer: "↑↓ field · ←→ change · Enter buy · Esc cancel")
  }

  /// The quantity field: a consumable's count, a subscription's seats (1: not multiseat); one
  /// label, so the fields stay aligned.
  private func quantityLine(
    _ dialog: BuyDialog, _ product: CatalogProduct, marker: String
  ) -> (String, String) {
    switch product.type {
    case .consumable: ("\(marker) Quantity", "\(dialog.quantity)  (←/→)")
    case .autoRenewableSubscription:
      (
        "\(marker) Quantity",
        dialog.quantity == 1
          ? "1  (→: seats, a multiseat purchase)"
          : "\(dialog.quantity) seats: multiseat (seats=\(dialog.quantity))"
      )
    case .nonConsumable, .nonRenewingSubscription: ("\(marker) Quantity", "1")
    }
  }

  private func renewalLabel(_ dialog: BuyDialog, _ product: CatalogProduct) -> String {
    guard product.type == .autoRenewableSubscription, dialog.backDate > 0 else { return "-" }
    return dialog.renewal == .automatic
      ? "automatically renew (until now)" : "don't renew (one period)"
  }

  /// The candidates Tab found for the word being typed, shown after the text.
  private func completionHint(_ input: TextInput) -> String? {
    input.candidates.isEmpty ? nil : "  " + input.candidates.joined(separator: "  ")
  }

  private func drawInputLine(
    into canvas: inout Canvas, _ rect: Rect, prefix: String, input: TextInput, hint: String,
    isError: Bool
  ) {
    canvas.fill(rect)
    let start = canvas.put(prefix, x: rect.x, y: rect.y, limit: rect.width)
    // The text in force, selected: typing replaces it.
    let end = canvas.put(
      input.text, x: start, y: rect.y, limit: max(0, rect.x + rect.width - start),
      style: CellStyle(reverse: input.replacesOnType))
    let cursorX = rect.x + TextCells.width(prefix + String(input.text.prefix(input.cursor)))
    if cursorX < rect.width {
      canvas.restyle(Rect(x: cursorX, y: rect.y, width: 1, height: 1)) { $0.reverse = true }
    }
    canvas.put(
      hint, x: end + 1, y: rect.y, limit: max(0, rect.width - end - 1),
      style: styled(CellStyle(foreground: isError ? .red : nil, dim: !isError)))
  }

  /// A centered box of label and text lines with a footer. A text wider than the box wraps
  /// onto lines of its own under the label, except in a box that scrolls by `top` (whose lines
  /// are laid out for the width already).
  func drawBox(
    into canvas: inout Canvas, _ layout: Layout, title: String, lines: [(String, String)],
    footer: String, selected: Int? = nil, dimmed: Set<Int> = [], top: Int? = nil
  ) {
    // Room for a settings label with its marker (`▸ Error: Offer Code Redeem Sheet`).
    let labelWidth = min(34, lines.map { TextCells.width($0.0) }.max() ?? 0)
    let textWidth = lines.map { TextCells.width($0.1) }.max() ?? 0
    let width = min(
      layout.width - 2,
      max(TextCells.width(footer) + 4, labelWidth + textWidth + 5, TextCells.width(title) + 6))
    let textLimit = width - 2 - labelWidth - 2
    // Each line's rows: its label and text, then what wrapped, with the line they belong to.
    var rows: [(label: String, text: String, line: Int)] = []
    for (index, line) in lines.enumerated() {
      let pieces = top == nil ? TextCells.wrap(line.1, width: max(1, textLimit)) : [line.1]
      for (piece, text) in pieces.enumerated() {
        rows.append((piece == 0 ? line.0 : "", text, index))
      }
    }
    let height = min(layout.height - 2, rows.count + 3)
    let rect = Rect(
      x: (layout.width - width) / 2, y: max(0, (layout.height - 1 - height) / 2), width: width,
      height: height)
    canvas.fill(rect)
    canvas.box(rect, title: title, focused: true, glyphs: display.glyphs, marksFocus: false)
    let inner = rect.inner
    let visibleCount = inner.height - 1
    let lastRowOfSelected = selected.flatMap { line in rows.lastIndex { $0.line == line } }
    let first = top ?? lastRowOfSelected.map { max(0, $0 - visibleCount + 1) } ?? 0
    for (offset, row) in rows.dropFirst(first).prefix(visibleCount).enumerated() {
      let y = inner.y + offset
      let dim = dimmed.contains(row.line)
      canvas.put(
        row.label, x: inner.x + 1, y: y, limit: labelWidth, style: CellStyle(bold: !dim, dim: dim))
      canvas.put(
        row.text, x: inner.x + 2 + labelWidth, y: y, limit: textLimit, style: CellStyle(dim: dim))
    }
    canvas.put(
      footer, x: inner.x + 1, y: inner.y + inner.height - 1, limit: inner.width - 1,
      style: CellStyle(dim: true))
  }

  /// The progress of a catch-up: where the clock got, what it made, how long is left.
  func drawCatchUp(_ progress: CatchUp, into canvas: inout Canvas, _ layout: Layout) {
    let span = max(1, progress.target.milliseconds - progress.from.milliseconds)
    let done = session.now.milliseconds - progress.from.milliseconds
    let fraction = min(1, max(0, Double(done) / Double(span)))
    let elapsed = Double(wall.milliseconds - progress.startedAt.milliseconds) / 1000
    var estimate = "estimating the time left"
    if fraction > 0.01 && elapsed > 0.2 {
      let left = elapsed / fraction * (1 - fraction)
      estimate = left < 1 ? "less than a second left" : "about \(Int(left.rounded())) s left"
    }
    let lines: [(String, String)] = [
      ("", "Renewals that fell due while the session was closed happen now."),
      ("Reached", "\(Formatting.clock(session.now)) (\(Int(fraction * 100))%)"),
      ("Until", Formatting.clock(progress.target)),
      ("Made", "\(progress.renewals) renewals, \(progress.events) events"),
      ("", estimate),
    ]
    drawBox(
      into: &canvas, layout, title: "Catching up", lines: lines,
      footer: "space: pause here\(display.glyphs.separator)q: quit (what is done is kept)")
  }
}
