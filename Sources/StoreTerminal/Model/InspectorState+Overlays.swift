import StoreCommands
import StoreConfiguration
import StoreSimulation

extension InspectorState {
  /// A key while a dialog or text line is open.
  mutating func handleOverlay(_ key: Key, session: Session) -> [InspectorEffect] {
    guard let current = overlay else { return [] }
    switch current {
    case .help:
      overlay = nil
    case .filter(var input):
      switch key {
      case .escape: overlay = nil
      case .enter:
        overlay = nil
        if table.filterError == nil && !table.filter.isEmpty { say("filter: \(table.filter.text)") }
        return []
      case .tab: input = input.completed(with: Completions.filter(input, session))
      default: input.edit(key)
      }
      if overlay != nil {
        overlay = .filter(input)
        table.applyFilter(input.text, catalog: session.catalog)
      }
    case .prompt(var input):
      switch key {
      case .escape: overlay = nil
      case .enter:
        overlay = nil
        return run(line: input.text)
      case .up, .down:
        input.browse(history, older: key == .up)
        overlay = .prompt(input)
      case .tab: overlay = .prompt(input.completed(with: Completions.prompt(input, session)))
      default:
        input.edit(key)
        overlay = .prompt(input)
      }
    case .buy(let dialog):
      let product = session.catalog.products[dialog.product]
      switch dialog.handle(key, type: product.type, now: session.now) {
      case .open(let changed): overlay = .buy(changed)
      case .cancelled: overlay = nil
      case .buy(let options):
        overlay = nil
        return [Self.apply(.buy(productID: product.productID, options: options))]
      }
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
      return [Self.apply(command)]
    } catch {
      complain("\(line): \(error.explanation)")
      return []
    }
  }

  private mutating func handleSettings(
    _ selected: Int, _ key: Key, session: Session
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
