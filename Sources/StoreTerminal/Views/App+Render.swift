import StoreSimulation

extension App {
  /// The whole screen for a terminal size: panes, status bar and any open overlay.
  public func render(width: Int, height: Int, wall: Instant) -> Canvas {
    var canvas = Canvas(width: width, height: height, asciiOnly: display.glyphs == .ascii)
    let layout = Layout(width: width, height: height, showsLog: showsLog, zoomed: zoomed)
    guard !layout.isTooSmall else {
      let lines = [
        "Terminal too small: \(width)×\(height).",
        "Storekeeper needs",
        "at least \(Layout.minimum.width)×\(Layout.minimum.height).",
      ]
      for (offset, line) in lines.enumerated() where offset < height {
        canvas.put(line, x: 0, y: offset, limit: width)
      }
      return canvas
    }
    let now = clock.simulated(at: wall, current: session.now)
    for (pane, rect) in layout.panes {
      switch pane {
      case .products: drawProducts(into: &canvas, rect)
      case .transactions: drawTransactions(into: &canvas, rect)
      case .inspector: drawInspector(into: &canvas, rect, now: now)
      case .log: drawLog(into: &canvas, rect)
      }
    }
    drawStatusBar(into: &canvas, layout.statusBar, now: now)
    if let catchUp {
      drawCatchUp(catchUp, into: &canvas, layout)
    } else {
      drawOverlay(into: &canvas, layout)
    }
    return canvas
  }

  /// A style with its color dropped when colors are off.
  func styled(_ style: CellStyle) -> CellStyle {
    guard !display.color else { return style }
    var plain = style
    plain.foreground = nil
    plain.background = nil
    return plain
  }

  /// The color a transaction state shows in (always beside its word).
  func color(of state: LedgerState) -> CellColor? {
    switch state {
    case .purchased, .renewed: .green
    case .pending, .grace, .priceIncrease, .interrupted: .yellow
    case .failed, .refunded, .retry, .declined: .red
    case .upgraded, .expired: nil
    }
  }
}
