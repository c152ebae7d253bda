import Foundation
import StoreSimulation

/// A screen that takes frames and gives keys: ncurses in the binary, an in-memory one in tests.
package protocol TerminalDevice: AnyObject {
  /// The size in cells.
  var size: (width: Int, height: Int) { get }
  /// A terminating signal that arrived (SIGINT, SIGTERM, SIGHUP), if any.
  var terminationSignal: Int32? { get }
  /// Shows a frame.
  func draw(_ canvas: Canvas)
  /// The keys pressed within `timeout` milliseconds (none when it passes).
  func readKeys(timeout: Int) -> [Key]
  /// Makes the next frame repaint every cell, whatever the screen is believed to show (Ctrl-L,
  /// after another program wrote over it).
  func repaintAll()
}

extension TerminalDevice {
  /// An in-memory screen has nothing to repaint.
  package func repaintAll() {}
}

/// Where the inspector reads the time of day (the engine never does).
package protocol WallClock {
  /// The instant now.
  func now() -> Instant
}

/// Something that notices when the configuration file changes.
package protocol FileWatching {
  /// The file's new contents when it changed since the last look at `wall`.
  mutating func changedContents(at wall: Instant) -> [UInt8]?
}

/// The system's clock.
package struct SystemClock: WallClock {
  /// The system's clock.
  package init() {}

  /// The instant now, to the millisecond.
  package func now() -> Instant {
    Instant(milliseconds: Int64((Date().timeIntervalSince1970 * 1000).rounded(.down)))
  }
}

/// Notices when a file's contents change, by looking at its size and modification time at most
/// once a second.
package struct FileWatch: FileWatching {
  let path: String
  private var stamp: (Date, Int)?
  private var lastLook = Int64.min

  /// Watches the file at `path` from its present state.
  package init(path: String) {
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
  package mutating func changedContents(at wall: Instant) -> [UInt8]? {
    guard
      wall.milliseconds.subtractingReportingOverflow(lastLook).partialValue >= 1000
        || lastLook == .min
    else { return nil }
    lastLook = wall.milliseconds
    let current = Self.stamp(of: path)
    guard let current, current.0 != stamp?.0 || current.1 != stamp?.1 else { return nil }
    stamp = current
    return FileManager.default.contents(atPath: path).map { [UInt8]($0) }
  }
}
