import CNcurses

/// The one place that talks to ncurses: opens and restores the terminal, draws canvases and reads
/// keys. Everything else draws into a ``Canvas``.
package final class NcursesTerminal: TerminalDevice {
  private let screen: OpaquePointer
  private let useColor: Bool
  private var pairs: [CellStyleKey: Int16] = [:]
  private var isOpen = true

  private struct CellStyleKey: Hashable {
    var foreground: CellColor?
    var background: CellColor?
  }

  /// Why the terminal could not be opened.
  package struct OpenError: Error, CustomStringConvertible {
    /// The reason.
    package var description: String
  }

  /// Takes over the terminal: raw keys, no echo, hidden cursor, mouse clicks, and handlers that
  /// turn SIGINT, SIGTERM and SIGHUP into a clean exit.
  package init(color: Bool) throws {
    TextCells.prepareLocale()
    guard let screen = cn_open_terminal() else {
      throw OpenError(description: "ncurses does not know this terminal type")
    }
    self.screen = screen
    guard cn_terminal_can_address() != 0 else {
      endwin()
      delscreen(screen)
      cn_forget_crash_restore()
      throw OpenError(description: "it cannot move the cursor")
    }
    cbreak()
    noecho()
    nonl()
    keypad(cn_stdscr(), true)
    set_escdelay(25)
    curs_set(0)
    useColor = color && has_colors()
    if useColor {
      start_color()
      use_default_colors()
    }
    _ = cn_enable_mouse()
    _ = cn_install_signal_handlers()
  }

  deinit { end() }

  /// Gives the terminal back as it was. Safe to call twice.
  package func end() {
    guard isOpen else { return }
    isOpen = false
    endwin()
    delscreen(screen)
    cn_forget_crash_restore()
  }

  /// The terminal's size in cells.
  package var size: (width: Int, height: Int) {
    (Int(cn_getmaxx(cn_stdscr())), Int(cn_getmaxy(cn_stdscr())))
  }

  /// The signal that asked the program to stop (SIGINT, SIGTERM, SIGHUP), if one arrived.
  package var terminationSignal: Int32? {
    let signal = cn_pending_termination()
    return signal == 0 ? nil : signal
  }

  /// The next refresh repaints every cell from scratch.
  package func repaintAll() { cn_repaint_all() }

  /// Draws a canvas: each run of cells with one style is one call.
  package func draw(_ canvas: Canvas) {
    erase()
    for y in 0..<canvas.height {
      var x = 0
      while x < canvas.width {
        let style = canvas[x, y].style
        var text = ""
        let start = x
        while x < canvas.width && canvas[x, y].style == style {
          text += canvas[x, y].text
          x += 1
        }
        attrset(Int32(truncatingIfNeeded: attributes(style)))
        let wide = text.unicodeScalars.map { wchar_t(bitPattern: $0.value) } + [0]
        // The bottom-right cell cannot be written without scrolling on some terminals; ncurses
        // reports an error there that is safe to ignore.
        _ = cn_add_text(Int32(y), Int32(start), wide)
      }
    }
    attrset(Int32(truncatingIfNeeded: cn_attr_normal()))
    refresh()
  }

  /// Waits up to `timeout` milliseconds for input (or a signal), then returns every pending key.
  /// Wakes a `readKeys` waiting on another thread (work arrived that the loop must do).
  package static func wake() { cn_wake() }

  package func readKeys(timeout: Int) -> [Key] {
    _ = cn_wait_for_input(Int32(timeout))
    nodelay(cn_stdscr(), true)
    defer { nodelay(cn_stdscr(), false) }
    var keys: [Key] = []
    var isFunction: Int32 = 0
    while keys.count < 256 {
      let value = cn_read_key(&isFunction)
      if value < 0 { break }
      if let key = decode(value, isFunction: isFunction != 0) { keys.append(key) }
    }
    return keys
  }

  private func decode(_ value: Int32, isFunction: Bool) -> Key? {
    if isFunction {
      switch value {
      case cn_key_up(): return .up
      case cn_key_down(): return .down
      case cn_key_left(): return .left
      case cn_key_right(): return .right
      case cn_key_home(): return .home
      case cn_key_end(): return .end
      case cn_key_page_up(): return .pageUp
      case cn_key_page_down(): return .pageDown
      case cn_key_enter(): return .enter
      case cn_key_backspace(): return .backspace
      case cn_key_delete(): return .delete
      case cn_key_back_tab(): return .backTab
      case cn_key_resize(): return .resize
      case cn_key_mouse():
        var y: Int32 = 0
        var x: Int32 = 0
        switch cn_read_mouse(&y, &x) {
        case 1: return .click(x: Int(x), y: Int(y))
        case 2: return .wheel(up: true, x: Int(x), y: Int(y))
        case 3: return .wheel(up: false, x: Int(x), y: Int(y))
        default: return nil
        }
      default: return nil
      }
    }
    switch value {
    case 12: return .redraw  // Ctrl-L
    case 21: return .killLine  // Ctrl-U
    case 9: return .tab
    case 10, 13: return .enter
    case 27: return .escape
    case 8, 127: return .backspace
    default:
      guard let scalar = Unicode.Scalar(UInt32(bitPattern: value)), value >= 32 else { return nil }
      return .character(Character(scalar))
    }
  }

  private func attributes(_ style: CellStyle) -> attr_t {
    var value = cn_attr_normal()
    if style.bold { value |= cn_attr_bold() }
    if style.dim { value |= cn_attr_dim() }
    if style.reverse { value |= cn_attr_reverse() }
    if style.underline { value |= cn_attr_underline() }
    if useColor && (style.foreground != nil || style.background != nil) {
      value |= cn_color_pair(pair(foreground: style.foreground, background: style.background))
    }
    return value
  }

  private func pair(foreground: CellColor?, background: CellColor?) -> Int16 {
    let key = CellStyleKey(foreground: foreground, background: background)
    if let existing = pairs[key] { return existing }
    let number = Int16(pairs.count + 1)
    init_pair(
      number, Int16(foreground.map { Int($0.rawValue) } ?? -1),
      Int16(background.map { Int($0.rawValue) } ?? -1))
    pairs[key] = number
    return number
  }
}
