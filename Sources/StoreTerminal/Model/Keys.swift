/// A key press or mouse click, as the app sees it.
package enum Key: Hashable, Sendable {
  case character(Character)
  case up, down, left, right, home, end, pageUp, pageDown
  case enter, escape, tab, backTab, backspace, delete
  /// The terminal changed size.
  case resize
  /// Ctrl-L: repaint the whole screen.
  case redraw
  /// Ctrl-U: clear the line being typed.
  case killLine
  /// A button-1 click at a cell.
  case click(x: Int, y: Int)
  /// The mouse wheel turned over a cell.
  case wheel(up: Bool, x: Int, y: Int)

  /// How the help overlay writes the key.
  package var label: String {
    switch self {
    case .character(" "): "space"
    case .character(let character): String(character)
    case .up: "↑"
    case .down: "↓"
    case .left: "←"
    case .right: "→"
    case .home: "Home"
    case .end: "End"
    case .pageUp: "PgUp"
    case .pageDown: "PgDn"
    case .enter: "Enter"
    case .escape: "Esc"
    case .tab: "Tab"
    case .backTab: "S-Tab"
    case .backspace: "Bksp"
    case .delete: "Del"
    case .resize: "resize"
    case .redraw: "Ctrl-L"
    case .killLine: "Ctrl-U"
    case .click: "click"
    case .wheel: "wheel"
    }
  }
}

/// The panes that take focus.
package enum Pane: String, CaseIterable, Sendable {
  case products, transactions, inspector, log

  /// The pane's title.
  package var title: String {
    switch self {
    case .products: "Products"
    case .transactions: "Transactions"
    case .inspector: "Inspector"
    case .log: "Events"
    }
  }
}

/// What a key asks for.
package enum Action: Hashable, Sendable {
  case quit, help, filter, prompt, nextPane, previousPane, cancel
  case toggleClock, nextEvent, stepBack, fasterRate, slowerRate, toggleLog, settings, zoom
  case moveUp, moveDown, pageUp, pageDown, moveTop, moveBottom
  case buy
  case approve, decline, resolve, refund, toggleAutoRenew, expire, forceRenew, priceIncrease
  case extend
  case finish, finishAll, delete, launch, receipt, seats
  case switchDevice, switchCustomer
}

/// One line of the keymap: a key, the pane it works in (`nil`: everywhere), what it does.
package struct KeyBinding: Sendable {
  /// The key.
  package var keys: [Key]
  /// Where it works; `nil` for every pane.
  package var pane: Pane?
  /// What it does.
  package var action: Action
  /// What the help overlay says.
  package var help: String
  /// The word in the key bar, for keys shown there.
  package var short: String?

  init(keys: [Key], pane: Pane?, action: Action, help: String, short: String? = nil) {
    self.keys = keys
    self.pane = pane
    self.action = action
    self.help = help
    self.short = short
  }
}

/// The keymap: one table, shown by `?`. Keys follow lazygit, k9s, htop and tig: `?` help, `/`
/// filter, `:` command, Tab focus, arrows and hjkl, Enter zoom, Esc cancel, q quit.
package enum Keymap {
  /// Every binding.
  package static let bindings: [KeyBinding] = [
    // First: what a newcomer does first, at the front of the key bar in every pane.
    KeyBinding(
      keys: [.character("b")], pane: nil, action: .buy,
      help: "buy the selected product (elsewhere: the selected transaction's)",
      short: "buy"),
    KeyBinding(
      keys: [.character("?")], pane: nil, action: .help, help: "help for this pane", short: "help"),
    KeyBinding(
      keys: [.character("/")], pane: nil, action: .filter,
      help: "filter transactions as you type (in the log: search the log)",
      short: "filter"),
    KeyBinding(
      keys: [.character(":")], pane: nil, action: .prompt, help: "command prompt", short: "command"),
    KeyBinding(
      keys: [.tab, .right, .character("l")], pane: nil, action: .nextPane,
      help: "next pane (screen order: Products, Transactions, Inspector, log)"),
    KeyBinding(
      keys: [.backTab, .left, .character("h")], pane: nil, action: .previousPane,
      help: "previous pane"),
    KeyBinding(keys: [.character("q")], pane: nil, action: .quit, help: "quit", short: "quit"),
    KeyBinding(
      keys: [.escape], pane: nil, action: .cancel, help: "cancel, close, clear the filter"),
    KeyBinding(
      keys: [.character(" ")], pane: nil, action: .toggleClock, help: "pause or resume the clock",
      short: "clock"),
    KeyBinding(
      keys: [.character("n")], pane: nil, action: .nextEvent,
      help: "jump to the next scheduled event", short: "next event"),
    KeyBinding(
      keys: [.character("N")], pane: nil, action: .stepBack,
      help: "step back: the session as it was before the last event (again and again; :undo "
        + "takes back the last command)", short: "back"),
    KeyBinding(
      keys: [.character("+")], pane: nil, action: .fasterRate, help: "faster renewal rate"),
    KeyBinding(
      keys: [.character("-")], pane: nil, action: .slowerRate, help: "slower renewal rate"),
    KeyBinding(
      keys: [.character("v")], pane: nil, action: .toggleLog,
      help: "view or hide the event log", short: "log"),
    KeyBinding(
      keys: [.character("s")], pane: nil, action: .settings, help: "settings (session switches)",
      short: "settings"),
    KeyBinding(
      keys: [.character("L")], pane: nil, action: .launch,
      help: "launch the app (re-deliver unfinished)"),
    KeyBinding(
      keys: [.character("W")], pane: nil, action: .receipt,
      help: "the app refreshes its receipt (call receipt): written to a file in this folder",
      short: "receipt"),
    KeyBinding(
      keys: [.character("m")], pane: nil, action: .switchDevice,
      help: "whose device the inspector shows: the purchaser's, then each family member's "
        + "(:family join <name> adds one)",
      short: "device"),
    KeyBinding(
      keys: [.character("c")], pane: nil, action: .switchCustomer,
      help: "customers: every customer with their status, product and revenue, sortable and "
        + "filtered; Enter opens one (the inspector shows and acts in their store; :customer "
        + "<name> makes one; the filter takes customer:<name>)",
      short: "customers"),
    KeyBinding(keys: [.up, .character("k")], pane: nil, action: .moveUp, help: "up"),
    KeyBinding(keys: [.down, .character("j")], pane: nil, action: .moveDown, help: "down"),
    KeyBinding(keys: [.pageUp], pane: nil, action: .pageUp, help: "page up"),
    KeyBinding(keys: [.pageDown], pane: nil, action: .pageDown, help: "page down"),
    KeyBinding(keys: [.home, .character("g")], pane: nil, action: .moveTop, help: "first"),
    KeyBinding(keys: [.end, .character("G")], pane: nil, action: .moveBottom, help: "last"),
    KeyBinding(keys: [.enter], pane: nil, action: .zoom, help: "zoom the inspector in or out"),
    KeyBinding(
      keys: [.character("a")], pane: .transactions, action: .approve, help: "approve Ask to Buy",
      short: "approve"),
    KeyBinding(
      keys: [.character("D")], pane: .transactions, action: .decline, help: "decline Ask to Buy",
      short: "decline"),
    KeyBinding(
      keys: [.character("r")], pane: .transactions, action: .resolve,
      help: "resolve an issue (interrupted, billing)", short: "resolve"),
    KeyBinding(
      keys: [.character("R")], pane: .transactions, action: .refund,
      help: "refund, refund request, decline or reverse (asks)", short: "refund…"),
    KeyBinding(
      keys: [.character("E")], pane: .transactions, action: .extend,
      help: "extend the renewal date (asks the days)", short: "extend…"),
    KeyBinding(
      keys: [.character("o")], pane: .transactions, action: .toggleAutoRenew,
      help: "auto-renew off (its retention message first, when set up) or on", short: "auto-renew"),
    KeyBinding(
      keys: [.character("e")], pane: .transactions, action: .expire,
      help: "expire the subscription now", short: "expire"),
    KeyBinding(
      keys: [.character("u")], pane: .transactions, action: .forceRenew,
      help: "renew the subscription now", short: "renew"),
    KeyBinding(
      keys: [.character("p")], pane: .transactions, action: .priceIncrease,
      help: "price increase: request, consent, decline", short: "price…"),
    KeyBinding(
      keys: [.character("f")], pane: .transactions, action: .finish, help: "finish the transaction",
      short: "finish"),
    KeyBinding(
      keys: [.character("F")], pane: .transactions, action: .finishAll,
      help: "finish all transactions", short: "finish all"),
    KeyBinding(
      keys: [.character("S")], pane: .transactions, action: .seats,
      help: "a multiseat subscription's seats: one more, one fewer at the renewal, a seat "
        + "refunded, members invited and removed (Apple-hosted)"),
    KeyBinding(
      keys: [.character("x")], pane: .transactions, action: .delete, help: "delete (asks first)",
      short: "delete…"),
  ]

  /// The action of a key in a pane: the pane's own binding first, then the global one.
  package static func action(for key: Key, in pane: Pane) -> Action? {
    bindings.first { $0.pane == pane && $0.keys.contains(key) }?.action
      ?? bindings.first { $0.pane == nil && $0.keys.contains(key) }?.action
  }

  /// The bindings that work in a pane, its own first.
  package static func bindings(for pane: Pane) -> [KeyBinding] {
    bindings.filter { $0.pane == pane } + bindings.filter { $0.pane == nil }
  }
}
