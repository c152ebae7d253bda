import StoreCommands
import StoreSimulation

extension InspectorState {
  /// A key while a dialog or text line is open.
  mutating func handleOverlay(_ key: Key, session: SessionView) -> [InspectorEffect] {
    guard let current = overlay else { return [] }
    switch current {
    case .help(let help): handleHelp(help, key, session: session)
    case .filter(let line): return handleFilter(line, key, session: session)
    case .logSearch(var input, let before):
      switch key {
      case .escape:
        overlay = nil
        log.search(before)
      case .enter: overlay = nil
      default:
        input.edit(key)
        overlay = .logSearch(input, before: before)
        log.search(input.text)
      }
    case .prompt(let input): return handlePrompt(input, key, session: session)
    case .buy(let dialog): return handleBuy(dialog, key, session: session)
    case .confirm(_, let command):
      switch key {
      case .character("y"), .enter:
        overlay = nil
        return [Self.apply(command, success: "\(command) done")]
      case .character("n"), .escape: overlay = nil
      default: break
      }
    case .menu(let menu):
      if key == .escape {
        overlay = nil
      } else if let choice = menu.choice(for: key) {
        overlay = nil
        if let refusal = choice.command.refusal(in: session) {
          complain("\(choice.command): \(refusal.explanation)")
          return []
        }
        return [Self.apply(choice.command, success: "\(choice.command) done")]
      }
    case .settings(let selected):
      return handleSettings(selected, key, session: session)
    case .customers(let view): return handleCustomers(view, key, session: session)
    case .everyTransaction(let view): return handleEveryTransaction(view, key, session: session)
    case .retention(let dialog): return handleRetention(dialog, key)
    }
    return []
  }

  /// A key in the filter line: the table follows each edit; Esc restores the filter in force
  /// before the line opened.
  private mutating func handleFilter(
    _ line: FilterLine, _ key: Key, session: SessionView
  ) -> [InspectorEffect] {
    var line = line
    switch key {
    case .escape:
      // Back to the filter in force before the line opened; Esc again clears it.
      overlay = nil
      table.applyFilter(line.before, session: session)
      if !line.before.isEmpty { say("filter restored: \(line.before) (Esc clears it)") }
      return []
    case .enter:
      overlay = nil
      let text = String(line.input.text.split(separator: " ").joined(separator: " "))
      if !text.isEmpty && filterHistory.last != text { filterHistory.append(text) }
      if table.filterError == nil && !table.filter.isEmpty { say("filter: \(table.filter.text)") }
      return showCustomer(named: table.filterError == nil ? table.filter.customer : nil, session)
    case .character("?"):
      overlay = .help(HelpOverlay(topic: .filter(line)))
      return []
    case .up, .down: line.input.browse(filterHistory, older: key == .up)
    case .tab: line.input = line.input.completed(with: Completions.filter(line.input, session))
    default: line.input.edit(key)
    }
    overlay = .filter(line)
    table.applyFilter(line.input.text, session: session)
    return []
  }

  /// `customer:<name>` kept with Enter: the inspector shows (and acts in) that customer's
  /// store, as the customer key does.
  private mutating func showCustomer(
    named name: String?, _ session: SessionView
  ) -> [InspectorEffect] {
    guard let name, name != session.customer.name else { return [] }
    guard session.customers.contains(where: { $0.name == name }) else {
      let named = session.customers.compactMap(\.name)
      complain(
        "customer:\(name): there is no such customer"
          + (named.isEmpty
            ? " (:customer <name> makes one)" : " (customers: \(named.joined(separator: ", ")))"))
      return []
    }
    return [Self.apply(.customer(name: name, number: nil))]
  }

  /// A key at the `:` prompt: Enter runs the line.
  private mutating func handlePrompt(
    _ input: TextInput, _ key: Key, session: SessionView
  ) -> [InspectorEffect] {
    var input = input
    switch key {
    case .escape: overlay = nil
    case .enter:
      overlay = nil
      return run(line: input.text)
    case .up, .down:
      input.browse(history, older: key == .up)
      overlay = .prompt(input)
    case .tab: overlay = .prompt(input.completed(with: Completions.prompt(input, session)))
    case .character("?") where input.text.isEmpty:
      overlay = .help(HelpOverlay(topic: .commands(input)))
    default:
      input.edit(key)
      overlay = .prompt(input)
    }
    return []
  }

  /// A key in the buy dialog.
  private mutating func handleBuy(
    _ dialog: BuyDialog, _ key: Key, session: SessionView
  ) -> [InspectorEffect] {
    let product = session.catalog.products[dialog.product]
    switch dialog.handle(key, type: product.type, now: session.now, productID: product.productID) {
    case .open(let changed): overlay = .buy(changed)
    case .cancelled: overlay = nil
    case .buy(let options):
      overlay = nil
      return [Self.apply(.buy(productID: product.productID, options: options))]
    case .buySigned(let options, let tampered):
      overlay = nil
      return [.buySigned(productID: product.productID, options, tampered: tampered)]
    case .paste(let line):
      overlay = .prompt(TextInput(line))
    }
    return []
  }

  /// Runs a `:` line: a command for the effects runner, or why it does not parse.
  mutating func run(line text: String) -> [InspectorEffect] {
    let line = String(
      text.drop(while: \.isWhitespace).reversed().drop(while: \.isWhitespace).reversed())
    guard !line.isEmpty else { return [] }
    if history.last != line { history.append(line) }
    do throws(CommandError) {
      guard let command = try Command.parse(line) else { return [] }
      // What cannot be taken back in one key asks first, as x does.
      switch command {
      case .clear:
        overlay = .confirm(
          "Clear the session: delete every transaction (\(table.rows.count))?", command)
        return []
      case .reset:
        overlay = .confirm("Reset every setting to the configuration's?", command)
        return []
      default: return [Self.apply(command)]
      }
    } catch {
      complain("\(line): \(error.explanation)")
      return []
    }
  }

  /// Keys in the help box: typing narrows it, the arrows scroll it, Esc clears the search and
  /// then closes (back to the filter line when it came from there).
  private mutating func handleHelp(_ help: HelpOverlay, _ key: Key, session: SessionView) {
    var help = help
    let count = help.lines(self, session).count
    let page = max(1, terminalSize.height - 8)
    switch key {
    case .enter,
      .escape where help.query.text.isEmpty, .character("?") where help.query.text.isEmpty:
      closeHelp(help)
      return
    case .escape:
      help.query = TextInput()
      help.top = 0
    case .up: help.scroll(by: -1, lineCount: count)
    case .down: help.scroll(by: 1, lineCount: count)
    case .pageUp: help.scroll(by: -page, lineCount: count)
    case .pageDown: help.scroll(by: page, lineCount: count)
    case .home: help.top = 0
    case .end: help.scroll(by: count, lineCount: count)
    default:
      help.query.edit(key)
      help.top = 0
    }
    overlay = .help(help)
  }

  private mutating func closeHelp(_ help: HelpOverlay) {
    switch help.topic {
    case .filter(let line): overlay = .filter(line)
    case .commands(let input): overlay = .prompt(input)
    case .customers(let view): overlay = .customers(view)
    case .keys: overlay = nil
    }
  }

  private mutating func handleSettings(
    _ selected: Int, _ key: Key, session: SessionView
  ) -> [InspectorEffect] {
    let items = SettingsPanel.items(session)
    switch key {
    case .escape, .character("s"), .character("q"): overlay = nil
    case .up, .character("k"): overlay = .settings(max(0, selected - 1))
    case .down, .character("j"): overlay = .settings(min(items.count - 1, selected + 1))
    case .enter, .character(" "):
      if let change = items[selected].next { return [Self.apply(.set(change))] }
    case .character("w"):
      var configuration = session.configuration
      configuration.settings = session.settings.applied(to: configuration.settings)
      return [.writeConfiguration(configuration)]
    default: break
    }
    return []
  }
}
