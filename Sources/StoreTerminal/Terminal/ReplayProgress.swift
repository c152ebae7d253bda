import Foundation

/// The loading frame while a journal replays: records done, and whether the person asked to
/// stop (q, Ctrl-C or another terminating signal).
package final class ReplayProgress {
  let path: String
  let terminal: NcursesTerminal
  let display: DisplayOptions
  private var lastFrame = Date.distantPast
  /// Set when the person stopped the replay: the signal, or nil inside for q.
  package private(set) var stop: Int32??

  /// Progress of replaying `path`, drawn on `terminal`.
  package init(path: String, terminal: NcursesTerminal, display: DisplayOptions) {
    self.path = path
    self.terminal = terminal
    self.display = display
  }

  /// Draws a frame now and then and looks at the keys; `false` to stop the replay.
  package func show(done: Int, of total: Int) -> Bool {
    guard done % 4096 == 0 || done == total else { return true }
    let now = Date()
    guard now.timeIntervalSince(lastFrame) >= 0.1 else { return true }
    lastFrame = now
    if let signal = terminal.terminationSignal {
      stop = .some(signal)
      return false
    }
    if terminal.readKeys(timeout: 0).contains(where: { $0 == .character("q") }) {
      stop = .some(nil)
      return false
    }
    let percent = total == 0 ? 100 : done * 100 / total
    TerminalLoop.drawLoading(
      [
        "Loading \(path) …", "Replaying \(done) of \(total) records (\(percent)%)",
        "q or Ctrl-C stops (nothing is changed)",
      ], on: terminal, display: display)
    return true
  }
}
