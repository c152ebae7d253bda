import StoreCommands
import StoreSimulation

/// The help box: the focused pane's keys, or (from the filter line) the filter's syntax with
/// examples. It scrolls (↑↓, PgUp/PgDn, Home/End, the wheel) and narrows to the lines holding
/// what is typed.
package struct HelpOverlay: Equatable, Sendable {
  /// What the help is about.
  package enum Topic: Equatable, Sendable {
    /// The keys of a pane (and the global ones).
    case keys(Pane)
    /// The filter language; closing goes back to the filter line being edited.
    case filter(FilterLine)
    /// The command language (from the verb table); closing goes back to the prompt.
    case commands(TextInput)
    /// The customers view's keys; closing goes back to the view.
    case customers(CustomersView)
  }

  /// One line: a key or field, what it does, whether it is dimmed (it cannot act now).
  package struct Line: Equatable, Sendable {
    package var label: String
    package var text: String
    package var dimmed = false
  }

  /// What the help is about.
  package var topic: Topic
  /// What is typed to narrow the lines.
  package var query = TextInput()
  /// The first line shown.
  package var top = 0

  /// The help's title: `Help · Transactions`, `Help · filter`.
  package var title: String {
    switch topic {
    case .keys(let pane): "Help · \(pane.title)"
    case .filter: "Help · filter"
    case .commands: "Help · commands"
    case .customers: "Help · customers"
    }
  }

  /// The lines as the box shows them: narrowed by the query, long texts wrapped to a
  /// terminal `width` columns wide (by default the last frame's; scrolling counts these).
  package func lines(_ state: InspectorState, _ session: SessionView, width: Int? = nil) -> [Line] {
    let lines = matchingLines(state, session)
    let labelWidth = min(30, lines.map { TextCells.width($0.label) }.max() ?? 0)
    let width = max(20, (width ?? state.terminalSize.width) - 2 - labelWidth - 5)
    return lines.flatMap { line in
      TextCells.wrap(line.text, width: width).enumerated().map { index, part in
        Line(label: index == 0 ? line.label : "", text: part, dimmed: line.dimmed)
      }
    }
  }

  /// The lines, narrowed by the query (a case-insensitive match in the label or the text).
  private func matchingLines(_ state: InspectorState, _ session: SessionView) -> [Line] {
    let all: [Line]
    switch topic {
    case .keys(let pane):
      let legend =
        pane == .products
        ? [
          Line(
            label: "tags",
            text: "[intro,promo,code,win-back]: the offers a product has; [IPCW] when cramped")
        ] : []
      all =
        [Line(label: "", text: "Keys in \(pane.title) (and everywhere):")] + legend
        + Self.marks(state.display.glyphs)
        + Keymap.bindings(for: pane).map { binding in
          let why = state.refusal(of: binding.action, session: session)
          return Line(
            label: binding.keys.map(\.label).joined(separator: " "),
            text: binding.help + (why.map { " — not now: \($0)" } ?? ""), dimmed: why != nil)
        }
    case .filter: all = Self.filterSyntax
    case .commands: all = Self.commandSyntax
    case .customers: all = CustomersView.keys.map { Line(label: $0.0, text: $0.1) }
    }
    let wanted = query.text.lowercased()
    guard !wanted.isEmpty else { return all }
    return all.filter {
      $0.label.lowercased().contains(wanted) || $0.text.lowercased().contains(wanted)
    }
  }

  /// What the marks on the screen mean, and the key that repaints it.
  static func marks(_ glyphs: Glyphs) -> [Line] {
    [
      Line(
        label: glyphs.warning,
        text: "in the table: a transaction the app has not finished; in a message: an error"),
      Line(label: glyphs.changed, text: "what the last step (n, N, a command) changed"),
      Line(label: glyphs.owned, text: "a product the customer is entitled to now"),
      Line(label: "Ctrl-L", text: "repaint the whole screen"),
    ]
  }

  /// Moves the first shown line by `delta`, within the lines there are.
  mutating func scroll(by delta: Int, lineCount: Int) {
    top = max(0, min(max(0, lineCount - 1), top + max(-100_000, min(100_000, delta))))
  }

  /// The command language, verb by verb, as the verb table describes it.
  static let commandSyntax: [Line] =
    [Line(label: "", text: "One command a line; \"…\" quotes spaces; Tab completes every word.")]
    + Verb.all.map { Line(label: $0.name, text: "\($0.synopsis) — \($0.summary)") }

  /// The filter language, field by field, with examples.
  static let filterSyntax: [Line] = [
    Line(label: "", text: "Terms are ANDed; a comma ORs values; ! negates; \"…\" quotes spaces."),
    Line(label: "word", text: "a bare word matches id, product, type or state: monthly, 7, grace"),
    Line(label: "", text: "a bare date word the purchase date: today, yesterday, 7d, 11-25"),
    Line(label: "product:", text: "product IDs containing it: product:socialfeed,donuts"),
    Line(
      label: "state:",
      text: "purchased renewed pending declined interrupted failed refunded upgraded expired "
        + "grace retry priceIncrease; a prefix is enough: state:ret, state:gr"),
    Line(
      label: "type:",
      text: "consumable nonConsumable nonRenewable autoRenewable (or subscription): type:auto"),
    Line(
      label: "offer:", text: "a kind (intro promo code winback) or an offer id: offer:intro"),
    Line(label: "id:", text: "an id or a range: id:7, id:10..20"),
    Line(label: "original:", text: "the original id (a subscription's renewals): original:3"),
    Line(
      label: "on:", text: "purchased on a day, month, year or minute (UTC): on:11-23, on:2026-11"),
    Line(label: "", text: "the table's forms: on:\"11-23 14:05\", on:\"2025-11-23 14:05\""),
    Line(label: "", text: "relative to the session's clock: on:today, on:yesterday, on:this-month"),
    Line(label: "after:", text: "purchased from then on: after:7d (the last 7 days), after:12h"),
    Line(label: "before:", text: "purchased before: before:2026-11-01, before:today"),
    Line(label: "date:", text: "a range, both ends included: date:11-01..11-15"),
    Line(label: "Tab", text: "completes fields and their values (products, states, offers, dates)"),
    Line(label: "↑ ↓", text: "earlier filters"),
    Line(
      label: "Ctrl-U",
      text: "clears the line (the filter in force opens selected: typing replaces it)"),
    Line(label: "Enter", text: "keep the filter; Esc puts back the one before, Esc again clears"),
  ]
}

/// The `/` line being edited, and the filter that was active before it opened (Esc puts it
/// back).
package struct FilterLine: Equatable, Sendable {
  /// The text being typed.
  package var input: TextInput
  /// The filter in force when the line opened.
  package var before: String
}
