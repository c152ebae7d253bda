import StoreCommands
import StoreConfiguration
import StoreSimulation

extension App {
  /// Handles a key press (or click) at a wall-clock instant.
  public mutating func handle(_ key: Key, wall: Instant) {
    if key == .resize { return }
    if case .click(let x, let y) = key {
      click(x: x, y: y)
      return
    }
    self.wall = wall
    message = nil
    if catchUp != nil {
      handleDuringCatchUp(key)
      return
    }
    if overlay != nil {
      handleOverlay(key, wall: wall)
      return
    }
    guard let action = Keymap.action(for: key, in: focus) else {
      message = ("\(key.label) does nothing in \(focus.title); ? lists the keys", true)
      return
    }
    perform(action, wall: wall)
  }

  private mutating func perform(_ action: Action, wall: Instant) {
    switch action {
    case .quit: wantsToQuit = true
    case .help: overlay = .help
    case .filter:
      var input = TextInput()
      input.set(filter.text)
      overlay = .filter(input)
    case .prompt: overlay = .prompt(TextInput())
    case .nextPane: cycleFocus(by: 1)
    case .previousPane: cycleFocus(by: -1)
    case .cancel:
      if zoomed {
        zoomed = false
      } else if !filter.isEmpty {
        applyFilter("")
        message = ("filter cleared", false)
      }
    case .toggleClock: toggleClock()
    case .nextEvent: jumpToNextEvent()
    case .fasterRate: changeRate(by: 1)
    case .slowerRate: changeRate(by: -1)
    case .toggleLog:
      showsLog.toggle()
      if !showsLog && focus == .log { focus = .transactions }
    case .settings: overlay = .settings(0)
    case .zoom:
      zoomed.toggle()
      inspectorTop = 0
    case .launch: perform(.launch)
    case .moveUp: move(by: -1)
    case .moveDown: move(by: 1)
    case .pageUp: move(by: -10)
    case .pageDown: move(by: 10)
    case .moveTop: move(by: Int.min / 2)
    case .moveBottom: move(by: Int.max / 2)
    case .buy: openBuyDialog()
    default: transactionAction(action)
    }
  }

  /// While catching up only quitting and pausing mean something.
  private mutating func handleDuringCatchUp(_ key: Key) {
    switch Keymap.action(for: key, in: focus) {
    case .quit: wantsToQuit = true
    case .toggleClock: pauseCatchUp()
    default: message = ("catching up: space pauses here, q quits (what is done is kept)", true)
    }
  }

  private mutating func cycleFocus(by delta: Int) {
    let panes: [Pane] = showsLog ? Pane.allCases : [.products, .transactions, .inspector]
    let index = panes.firstIndex(of: focus) ?? 0
    focus = panes[(index + delta + panes.count) % panes.count]
  }

  private mutating func move(by delta: Int) {
    func clamped(_ value: Int, _ count: Int) -> Int { max(0, min(count - 1, value)) }
    // Zoomed, the inspector is all there is: the arrows scroll it.
    switch zoomed ? .inspector : focus {
    case .products:
      let positions = productEntries.indices.filter {
        if case .product = productEntries[$0] { true } else { false }
      }
      guard !positions.isEmpty else { return }
      let current = positions.firstIndex(of: productCursor) ?? 0
      productCursor =
        positions[clamped(current.addingReportingOverflow(delta).partialValue, positions.count)]
    case .transactions:
      guard !visible.isEmpty else { return }
      let current = selectedIndex ?? 0
      select(
        visibleIndex: clamped(current.addingReportingOverflow(delta).partialValue, visible.count))
      inspectorTop = 0
    case .inspector: inspectorTop = max(0, inspectorTop + max(-1000, min(1000, delta)))
    case .log: break
    }
  }

  // MARK: - The configuration file

  /// Reloads the catalog when the file's bytes changed; an invalid edit is reported and the last
  /// good catalog stays.
  public mutating func configurationFileChanged(to bytes: [UInt8]) {
    guard bytes != configurationBytes else { return }
    configurationBytes = bytes
    let result = StoreKitConfiguration.load(bytes)
    guard let configuration = result.usableConfiguration else {
      let first =
        result.diagnostics.first { $0.severity == .error }?.formatted(file: configurationPath) ?? ""
      message = (
        "\(configurationPath) changed but has errors; keeping the last good catalog: \(first)", true
      )
      return
    }
    journaled.reload(configuration, bytes: bytes)
    do throws(CommandError) {
      try journaled.commit()
    } catch {
      message = (error.explanation, true)
    }
    rebuildProducts()
    compiledFilter = filter.compiled(for: session.catalog)
    reloadRows()
    message = ("reloaded \(configurationPath)", false)
  }

  // MARK: - Clicks

  private mutating func click(x: Int, y: Int) {
    guard overlay == nil else { return }
    let layout = Layout(
      width: terminalSize.width, height: terminalSize.height, showsLog: showsLog, zoomed: zoomed)
    for (pane, rect) in layout.panes where rect.contains(x: x, y: y) {
      focus = pane
      let row = y - rect.y - 1
      switch pane {
      case .products:
        let index = scrollTop(selected: productCursor, height: rect.inner.height) + row
        if productEntries.indices.contains(index), case .product = productEntries[index] {
          productCursor = index
        }
      case .transactions:
        let tableHeight = rect.inner.height - 1
        let index = scrollTop(selected: selectedIndex ?? 0, height: tableHeight) + row - 1
        if row >= 1 { select(visibleIndex: index) }
      default: break
      }
    }
  }
}
