import StoreSimulation

/// The inspector's loop: draw, sleep until the next key, the next due event or the next second,
/// handle keys, move the clock, watch the configuration file. No busy waiting.
package enum TerminalLoop {
  /// Runs until the person quits or a signal asks to stop; returns that signal, if any. The
  /// caller restores the terminal on every exit path (`defer`).
  package static func run(
    _ app: inout App, on terminal: some TerminalDevice, clock: some WallClock,
    watching watcher: inout some FileWatching
  ) -> Int32? {
    defer { app.prepareToQuit() }
    while true {
      if let signal = terminal.terminationSignal { return signal }
      let wall = clock.now()
      app.tick(wall: wall)
      app.takeBackground()
      if app.catchUp == nil, let bytes = watcher.changedContents(at: wall) {
        app.configurationFileChanged(to: bytes)
      }
      let size = terminal.size
      app.send(.resized(width: size.width, height: size.height))
      terminal.draw(app.render(width: size.width, height: size.height, wall: wall))
      for key in terminal.readKeys(timeout: app.sleepMilliseconds(wall: wall)) {
        // Ctrl-L: the next frame repaints every cell (the app's state does not change).
        if key == .redraw {
          terminal.repaintAll()
          continue
        }
        app.handle(key, wall: clock.now())
        if app.wantsToQuit { return nil }
      }
    }
  }

  /// A frame that says what is loading (lines, top to bottom), drawn while a journal replays.
  package static func drawLoading(
    _ lines: [String], on terminal: some TerminalDevice, display: DisplayOptions
  ) {
    let size = terminal.size
    var canvas = Canvas(width: size.width, height: size.height, asciiOnly: display.glyphs == .ascii)
    for (row, line) in lines.enumerated() {
      canvas.put(line, x: 1, y: 1 + row, limit: max(0, size.width - 2))
    }
    terminal.draw(canvas)
  }
}
