import StoreCommands
import StoreSimulation

/// Dialogs, text lines and the catch-up box, drawn over the panes.
struct OverlayView: ScreenPart {
  let screen: Screen

  /// The open overlay, drawn over the panes: a text line at the bottom, or a centered box.
  func drawOverlay(into canvas: inout Canvas, _ layout: Layout) {
    guard let overlay else { return }
    switch overlay {
    case .filter(let input):
      let hint =
        filterError.map { "  \(display.glyphs.warning) \($0)" }
        ?? "  (Enter keep, Esc close, Tab complete)"
      drawInputLine(
        into: &canvas, layout.statusBar, prefix: "/", input: input, hint: hint,
        isError: filterError != nil)
    case .prompt(let input):
      let words = input.text.split(separator: " ")
      let hint =
        words.isEmpty
        ? "  " + Command.verbs.joined(separator: " ") : "  (Enter run, Tab complete, ↑↓ history)"
      drawInputLine(
        into: &canvas, layout.statusBar, prefix: ":", input: input, hint: hint, isError: false)
    case .help:
      var lines: [(String, String)] = [("", "Keys in \(focus.title) (and everywhere):")]
      var dimmed = Set<Int>()
      for binding in Keymap.bindings(for: focus) {
        var help = binding.help
        if let why = state.refusal(of: binding.action, session: session) {
          dimmed.insert(lines.count)
          help += " — not now: \(why)"
        }
        lines.append((binding.keys.map(\.label).joined(separator: " "), help))
      }
      drawBox(
        into: &canvas, layout, title: "Help · \(focus.title)", lines: lines,
        footer: "dimmed keys cannot act now · any key closes", dimmed: dimmed)
    case .buy(let dialog):
      let product = session.catalog.products[dialog.product]
      let marker = { (field: Int) in dialog.field == field ? self.display.glyphs.selected : " " }
      let lines = [
        ("", product.productID),
        ("\(marker(0)) Quantity", product.type == .consumable ? "\(dialog.quantity)  (←/→)" : "1"),
        ("\(marker(1)) Offer", dialog.offers[dialog.offerIndex].label),
        (
          "\(marker(2)) From",
          dialog.origin == .app ? "the app (purchase())" : "outside the app (Transaction.updates)"
        ),
        ("\(marker(3)) Date", BuyDialog.backDates[dialog.backDate].label),
        ("\(marker(4)) Renewal", renewalLabel(dialog, product)),
      ]
      drawBox(
        into: &canvas, layout, title: "Buy", lines: lines,
        footer: "↑↓ field · ←→ change · Enter buy · Esc cancel")
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
    }
  }

  private func renewalLabel(_ dialog: BuyDialog, _ product: CatalogProduct) -> String {
    guard product.type == .autoRenewableSubscription, dialog.backDate > 0 else { return "-" }
    return dialog.renewal == .automatic
      ? "automatically renew (until now)" : "don't renew (one period)"
  }

  private func drawInputLine(
    into canvas: inout Canvas, _ rect: Rect, prefix: String, input: TextInput, hint: String,
    isError: Bool
  ) {
    canvas.fill(rect)
    let end = canvas.put(prefix + input.text, x: rect.x, y: rect.y, limit: rect.width)
    let cursorX = rect.x + TextCells.width(prefix + String(input.text.prefix(input.cursor)))
    if cursorX < rect.width {
      canvas.restyle(Rect(x: cursorX, y: rect.y, width: 1, height: 1)) { $0.reverse = true }
    }
    canvas.put(
      hint, x: end + 1, y: rect.y, limit: max(0, rect.width - end - 1),
      style: styled(CellStyle(foreground: isError ? .red : nil, dim: !isError)))
  }

  func drawBox(
    into canvas: inout Canvas, _ layout: Layout, title: String, lines: [(String, String)],
    footer: String, selected: Int? = nil, dimmed: Set<Int> = []
  ) {
    let labelWidth = min(30, lines.map { TextCells.width($0.0) }.max() ?? 0)
    let textWidth = lines.map { TextCells.width($0.1) }.max() ?? 0
    let width = min(
      layout.width - 2,
      max(TextCells.width(footer) + 4, labelWidth + textWidth + 5, TextCells.width(title) + 6))
    let height = min(layout.height - 2, lines.count + 3)
    let rect = Rect(
      x: (layout.width - width) / 2, y: max(0, (layout.height - 1 - height) / 2), width: width,
      height: height)
    canvas.fill(rect)
    canvas.box(rect, title: title, focused: true, glyphs: display.glyphs)
    let inner = rect.inner
    let visibleCount = inner.height - 1
    let first = selected.map { max(0, $0 - visibleCount + 1) } ?? 0
    for (offset, line) in lines.dropFirst(first).prefix(visibleCount).enumerated() {
      let y = inner.y + offset
      let dim = dimmed.contains(first + offset)
      canvas.put(
        line.0, x: inner.x + 1, y: y, limit: labelWidth, style: CellStyle(bold: !dim, dim: dim))
      canvas.put(
        line.1, x: inner.x + 2 + labelWidth, y: y, limit: inner.width - labelWidth - 2,
        style: CellStyle(dim: dim))
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
