import Foundation
import StoreSimulation

/// The inspector's loop: draw, sleep until the next key, the next due event or the next second,
/// handle keys, move the clock, watch the configuration file. No busy waiting.
public enum TerminalLoop {
  /// Runs until the person quits or a signal asks to stop; returns that signal, if any. The
  /// caller restores the terminal on every exit path (`defer`).
  public static func run(
    _ app: inout App, on terminal: NcursesTerminal, configurationPath: String,
    wallClock: () -> Instant
  ) -> Int32? {
    var watch = FileWatch(path: configurationPath)
    defer { app.prepareToQuit() }
    while true {
      if let signal = terminal.terminationSignal { return signal }
      let wall = wallClock()
      app.tick(wall: wall)
      app.takeBackgroundLines()
      if app.catchUp == nil, let bytes = watch.changedContents() {
        app.configurationFileChanged(to: bytes)
      }
      let size = terminal.size
      app.terminalSize = size
      terminal.draw(app.render(width: size.width, height: size.height, wall: wall))
      let keys = terminal.readKeys(timeout: app.sleepMilliseconds(wall: wall))
      for key in keys {
        app.handle(key, wall: wallClock())
        if app.wantsToQuit { return nil }
      }
    }
  }

  /// A frame that says what is loading (lines, top to bottom), drawn while a journal replays.
  public static func drawLoading(
    _ lines: [String], on terminal: NcursesTerminal, display: DisplayOptions
  ) {
    let size = terminal.size
    var canvas = Canvas(width: size.width, height: size.height, asciiOnly: display.glyphs == .ascii)
    for (row, line) in lines.enumerated() {
      canvas.put(line, x: 1, y: 1 + row, limit: max(0, size.width - 2))
    }
    terminal.draw(canvas)
  }
}

/// Notices when a file's contents change, by looking at its size and modification time at most
/// once a second.
struct FileWatch {
  let path: String
  private var stamp: (Date, Int)?
  private var lastLook = Date.distantPast

  init(path: String) {
    self.path = path
    stamp = Self.stamp(of: path)
  }

  private static func stamp(of path: String) -> (Date, Int)? {
    guard let attributes = try? FileManager.default.attributesOfItem(atPath: path),
      let date = attributes[.modificationDate] as? Date, let size = attributes[.size] as? Int
    else { return nil }
    return (date, size)
  }

  /// The new contents when the file changed since the last look.
  mutating func changedContents() -> [UInt8]? {
    let now = Date()
    guard now.timeIntervalSince(lastLook) >= 1 else { return nil }
    lastLook = now
    let current = Self.stamp(of: path)
    guard let current, current.0 != stamp?.0 || current.1 != stamp?.1 else { return nil }
    stamp = current
    return FileManager.default.contents(atPath: path).map { [UInt8]($0) }
  }
}
