import StoreCommands
import StoreSimulation

extension InspectorState {
  /// A key press (or click) at a wall-clock instant.
  mutating func handle(_ key: Key, wall: Instant, session: SessionView) -> [InspectorEffect] {
    if key == .resize { return [] }
    if case .click(let x, let y) = key {
      click(x: x, y: y)
      return []
    }
    if case .wheel(let up, let x, let y) = key {
      wheel(up: up, x: x, y: y, session: session)
      return []
    }
    live.wall = wall
    message = nil
    if catchUp != nil { return handleDuringCatchUp(key, session: session) }
    if overlay != nil { return handleOverlay(key, session: session) }
    guard let action = Keymap.action(for: key, in: focus) else {
      complain("\(key.label) does nothing in \(focus.title); ? lists the keys")
      return []
    }
    return perform(action, session: session)
  }

  private mutating func perform(_ action: Action, session: SessionView) -> [InspectorEffect] {
    switch action {
    case .quit:
      wantsToQuit = true
      return []
    case .help: overlay = .help(HelpOverlay(topic: .keys(focus)))
    case .filter where focus == .log:
      overlay = .logSearch(TextInput(log.query, selected: true), before: log.query)
    case .filter:
      overlay = .filter(
        FilterLine(input: TextInput(table.filter.text, selected: true), before: table.filter.text))
    case .prompt: overlay = .prompt(TextInput())
    case .nextPane: cycleFocus(by: 1)
    case .previousPane: cycleFocus(by: -1)
    case .cancel:
      if zoomed {
        zoomed = false
      } else if !table.filter.isEmpty {
        table.applyFilter("", session: session)
        say("filter cleared")
      } else if returnsToCustomers {
        openCustomers(session)
      }
    case .toggleClock: return toggleClock(session: session)
    case .fasterRate: return changeRate(by: 1, session: session)
    case .slowerRate: return changeRate(by: -1, session: session)
    case .toggleLog:
      showsLog.toggle()
      if !showsLog && focus == .log { focus = .transactions }
    case .settings: overlay = .settings(0)
    case .switchDevice:
      // The purchaser, then every member who was ever in the family (a member who left keeps
      // what they were given, revoked).
      let names = [nil] + session.everyFamilyMember.map { Optional($0.name) }
      guard names.count > 1 else {
        complain("nobody is in the family: :family join <name> adds a member")
        return []
      }
      let next = names[((names.firstIndex(of: viewer) ?? 0) + 1) % names.count]
      return [.switchDevice(next)]
    case .switchCustomer: openCustomers(session)
    case .zoom:
      zoomed.toggle()
      inspectorTop = 0
    case .moveUp: move(by: -1)
    case .moveDown: move(by: 1)
    case .pageUp: move(by: -10)
    case .pageDown: move(by: 10)
    case .moveTop: move(by: Int.min / 2)
    case .moveBottom: move(by: Int.max / 2)
    default: return act(action, session: session)
    }
    return []
  }

  /// What a key that reaches the engine does: its command, a menu or dialog to choose one, or
  /// the engine's reason it cannot apply now.
  private mutating func act(_ action: Action, session: SessionView) -> [InspectorEffect] {
    guard let target = target(of: action, session: session) else { return [] }
    if let why = target.refusal(in: session) {
      complain(why)
      return []
    }
    switch target {
    case .command(let request): return [.apply(request)]
    case .menu(let menu): overlay = .menu(menu)
    case .confirm(let question, let command): overlay = .confirm(question, command)
    case .buyDialog(let product): overlay = .buy(BuyDialog(product: product, in: session))
    case .refused: break
    }
    return []
  }

  /// While catching up only quitting and pausing mean something.
  private mutating func handleDuringCatchUp(_ key: Key, session: SessionView) -> [InspectorEffect] {
    switch Keymap.action(for: key, in: focus) {
    case .quit:
      wantsToQuit = true
      return []
    case .toggleClock: return toggleClock(session: session)
    default:
      complain("catching up: space pauses here, q quits (what is done is kept)")
      return []
    }
  }

  private mutating func cycleFocus(by delta: Int) {
    let panes: [Pane] = showsLog ? Pane.allCases : [.products, .transactions, .inspector]
    let index = panes.firstIndex(of: focus) ?? 0
    focus = panes[(index + delta + panes.count) % panes.count]
  }

  private mutating func move(by delta: Int) {
    // Zoomed, the inspector is all there is: the arrows scroll it.
    switch zoomed ? .inspector : focus {
    case .products: products.move(by: delta)
    case .transactions:
      table.move(by: delta)
      inspectorTop = 0
    case .inspector: inspectorTop = max(0, inspectorTop + max(-1000, min(1000, delta)))
    case .log: log.scroll(by: -delta)
    }
  }

  /// The wheel scrolls what is under the pointer (the help box when it is open), three lines a
  /// notch, without moving the focus.
  private mutating func wheel(up: Bool, x: Int, y: Int, session: SessionView) {
    let delta = up ? -3 : 3
    if case .help(var help) = overlay {
      help.scroll(by: delta, lineCount: help.lines(self, session).count)
      overlay = .help(help)
      return
    }
    guard overlay == nil else { return }
    let layout = Layout(
      width: terminalSize.width, height: terminalSize.height, showsLog: showsLog, zoomed: zoomed)
    guard let pane = layout.panes.first(where: { $0.1.contains(x: x, y: y) })?.0 else { return }
    let focused = focus
    focus = pane
    move(by: delta)
    focus = focused
  }

  private mutating func click(x: Int, y: Int) {
    guard overlay == nil else { return }
    let layout = Layout(
      width: terminalSize.width, height: terminalSize.height, showsLog: showsLog, zoomed: zoomed)
    for (pane, rect) in layout.panes where rect.contains(x: x, y: y) {
      focus = pane
      let row = y - rect.y - 1
      switch pane {
      case .products:
        products.select(
          entry: scrollTop(selected: products.cursor, height: rect.inner.height) + row)
      case .transactions:
        let tableHeight = rect.inner.height - 1
        let index = scrollTop(selected: table.selectedIndex ?? 0, height: tableHeight) + row - 1
        if row >= 1 { table.select(visibleIndex: index) }
      default: break
      }
    }
  }
}
