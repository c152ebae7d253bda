import StoreSimulation

/// The event log pane and the two bottom lines: the key bar and the status bar.
struct BottomLines: ScreenPart {
  let screen: Screen

  /// The event log: the newest events at the bottom.
  func drawLog(into canvas: inout Canvas, _ rect: Rect) {
    var title = "Events"
    if !log.query.isEmpty { title += "  search: \(log.query)" }
    if log.back > 0 { title += "  (\(log.back) back; G newest)" }
    canvas.box(rect, title: title, focused: focus == .log, glyphs: display.glyphs)
    let inner = rect.inner
    for (offset, line) in log.lines(inner.height, prices: prices).enumerated() {
      canvas.put(
        TextCells.truncate(line, to: inner.width, ellipsis: display.glyphs.ellipsis), x: inner.x,
        y: inner.y + offset)
    }
  }

  /// Whether the status line holds the last action's message in `width` cells (a long one does
  /// not; without a message, the usual line is cut as it must be).
  func messageFits(width: Int, now: Instant) -> Bool {
    message == nil || TextCells.width(" " + statusText(now: now).text) <= width
  }

  /// The bottom line (two rows when `rect` has them, for a long message): the clock, the rate,
  /// the switches that matter, pending counts and help — or the message of the last action.
  func drawStatusBar(into canvas: inout Canvas, _ rect: Rect, now: Instant) {
    let (text, style) = statusText(now: now)
    canvas.fill(rect, style: CellStyle(reverse: true))
    let rows = rect.height <= 1 ? [" " + text] : TextCells.wrap(" " + text, width: rect.width)
    for (offset, row) in rows.prefix(max(1, rect.height)).enumerated() {
      let last = offset == max(1, rect.height) - 1
      // The last row is cut if it must be (what does not fit is in the log, v).
      let shown =
        last
        ? TextCells.truncate(
          rows.dropFirst(offset).joined(separator: " "), to: rect.width,
          ellipsis: display.glyphs.ellipsis) : row
      canvas.put(shown, x: rect.x, y: rect.y + offset, style: style)
    }
  }

  /// What the status line says, and how it looks.
  private func statusText(now: Instant) -> (text: String, style: CellStyle) {
    let glyphs = display.glyphs
    let settings = session.settings
    var parts = [
      "\(clock.running ? glyphs.running : glyphs.paused) \(Formatting.clock(now)) UTC\(clock.running ? "" : " paused")",
      settings.timeRate.displayName,
    ]
    if let customer = session.customer.name { parts.append("customer \(customer)") }
    if let viewer = state.viewer { parts.append("\(viewer)'s device") }
    if settings.askToBuyEnabled { parts.append("ask-to-buy on") }
    if settings.interruptedPurchasesEnabled { parts.append("interrupted on") }
    if settings.shouldEnterBillingRetryOnRenewal {
      parts.append("billing retry on" + (settings.billingGracePeriodIsEnabled ? " + grace" : ""))
    }
    if !settings.simulatedErrors.isEmpty || settings.failTransactionsEnabled {
      parts.append("errors simulated")
    }
    let counts = pendingCounts
    if counts.unfinished > 0 { parts.append("\(counts.unfinished) unfinished") }
    if counts.awaitingApproval > 0 { parts.append("\(counts.awaitingApproval) awaiting approval") }
    if counts.withIssues > 0 { parts.append("\(counts.withIssues) with issues") }
    parts.append("? help")
    var text = parts.joined(separator: glyphs.separator)
    var style = CellStyle(reverse: true)
    if let message {
      text =
        parts[0] + glyphs.separator + (message.isError ? "\(glyphs.warning) " : "") + message.text
      style = styled(
        CellStyle(foreground: message.isError ? .red : nil, reverse: true, underline: false))
      style.bold = message.isError
    }
    return (text, style)
  }
}

extension BottomLines {
  /// The key bar: the focused pane's keys, then the global ones, as far as they fit; keys the
  /// state forbids now are dimmed (the help and the status line say why).
  func drawKeyBar(into canvas: inout Canvas, _ rect: Rect) {
    canvas.fill(rect)
    var items: [(key: String, word: String, allowed: Bool)]
    if catchUp != nil {
      items = [("space", "pause", true), ("q", "quit", true)]
    } else {
      items = Keymap.bindings(for: focus).compactMap { binding in
        guard let word = binding.short, binding.action != .help else { return nil }
        let allowed = state.refusal(of: binding.action, session: session) == nil
        return (binding.keys[0].label, word, allowed)
      }
      // With customers, whose store is shown matters first.
      if session.customers.count > 1,
        let index = items.firstIndex(where: { $0.word == "customers" })
      {
        items.insert(items.remove(at: index), at: 0)
      }
    }
    var x = rect.x + 1
    for item in items {
      let width = TextCells.width(item.key) + 1 + TextCells.width(item.word)
      guard x + width <= rect.x + rect.width - 1 else { break }
      let keyStyle = styled(
        item.allowed ? CellStyle(foreground: .cyan, bold: true) : CellStyle(dim: true))
      x = canvas.put(item.key, x: x, y: rect.y, style: keyStyle) + 1
      x = canvas.put(item.word, x: x, y: rect.y, style: CellStyle(dim: !item.allowed)) + 2
    }
  }
}
