import StoreSimulation

/// A frame of the inspector, drawn from its state and the session; views only read.
struct Screen: ScreenPart {
  let state: InspectorState
  let session: SessionView
  let hooks: InspectorHooks
  /// Prices in the session's locale.
  let prices: PriceFormat

  init(state: InspectorState, session: SessionView, hooks: InspectorHooks) {
    self.state = state
    self.session = session
    self.hooks = hooks
    prices = PriceFormat(locale: session.settings.locale)
  }

  var screen: Screen { self }
}

/// A part of the screen: what every view reads, by the names the state uses.
protocol ScreenPart {
  var screen: Screen { get }
}

extension ScreenPart {
  var state: InspectorState { screen.state }
  var session: SessionView { screen.session }
  var hooks: InspectorHooks { screen.hooks }
  var prices: PriceFormat { screen.prices }
  var display: DisplayOptions { state.display }
  var focus: Pane { state.focus }
  var overlay: Overlay? { state.overlay }
  var message: StatusMessage? { state.message }
  var showsLog: Bool { state.showsLog }
  var zoomed: Bool { state.zoomed }
  var clock: ClockState { state.clock }
  var wall: Instant { state.wall }
  var catchUp: CatchUp? { state.catchUp }
  var inspectorTop: Int { state.inspectorTop }
  var products: ProductList { state.products }
  var log: EventLog { state.log }
  var rows: ChunkedArray<LedgerRow> { state.table.rows }
  var visible: NewestFirst { state.table.visible }
  var selectedIndex: Int? { state.table.selectedIndex }
  var selectedRow: LedgerRow? { state.table.selectedRow }
  var selectedProduct: Int? { state.products.selectedProduct }
  var filter: TransactionFilter { state.table.filter }
  var filterError: String? { state.table.filterError }
  var pendingCounts: PendingCounts { state.table.pendingCounts }
  var entitledProducts: Set<String> { state.table.entitledProducts }

  /// The subscription status of a product's group, if it has one.
  func groupStatus(of product: CatalogProduct) -> SubscriptionStatus? {
    product.groupIndex.flatMap { session.status(forGroup: session.catalog.groups[$0].id) }
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
    case .failed, .refunded, .revoked, .retry, .declined: .red
    case .upgraded, .expired: nil
    }
  }
}

extension Screen {
  /// The whole screen for a terminal size: panes, status bar and any open overlay.
  package func render(width: Int, height: Int, wall: Instant) -> Canvas {
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
      case .products: ProductListView(screen: self).drawProducts(into: &canvas, rect)
      case .transactions: TransactionTableView(screen: self).drawTransactions(into: &canvas, rect)
      case .inspector: InspectorPane(screen: self).drawInspector(into: &canvas, rect, now: now)
      case .log: BottomLines(screen: self).drawLog(into: &canvas, rect)
      }
    }
    let bottom = BottomLines(screen: self)
    // A message too long for the status line takes the key bar's row too, while it shows.
    if let keyBar = layout.keyBar, !bottom.messageFits(width: layout.statusBar.width, now: now) {
      bottom.drawStatusBar(
        into: &canvas,
        Rect(x: keyBar.x, y: keyBar.y, width: keyBar.width, height: 2), now: now)
    } else {
      bottom.drawStatusBar(into: &canvas, layout.statusBar, now: now)
      if let keyBar = layout.keyBar { bottom.drawKeyBar(into: &canvas, keyBar) }
    }
    if let catchUp {
      OverlayView(screen: self).drawCatchUp(catchUp, into: &canvas, layout)
    } else {
      OverlayView(screen: self).drawOverlay(into: &canvas, layout)
    }
    return canvas
  }
}
