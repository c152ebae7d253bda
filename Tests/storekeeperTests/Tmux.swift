import Foundation
import StoreTestSupport
import Testing

/// Runs a tool with `posix_spawn` and waits for it; returns its status and standard output.
/// (Starting tmux through Foundation's Process hangs on Linux: the server inherits the descriptor
/// Process watches.)
@discardableResult
func spawn(_ arguments: [String]) -> (status: Int32, output: String) {
  let outputPath = NSTemporaryDirectory() + "spawn-\(UUID().uuidString)"
  var actions = posix_spawn_file_actions_t()
  posix_spawn_file_actions_init(&actions)
  defer { posix_spawn_file_actions_destroy(&actions) }
  posix_spawn_file_actions_addopen(&actions, 0, "/dev/null", O_RDONLY, 0)
  posix_spawn_file_actions_addopen(&actions, 1, outputPath, O_WRONLY | O_CREAT | O_TRUNC, 0o600)
  posix_spawn_file_actions_addopen(&actions, 2, "/dev/null", O_WRONLY, 0)
  // Children start with default signal handling and nothing blocked, whatever the test runner set.
  var attributes = posix_spawnattr_t()
  posix_spawnattr_init(&attributes)
  defer { posix_spawnattr_destroy(&attributes) }
  var empty = sigset_t()
  sigemptyset(&empty)
  posix_spawnattr_setsigmask(&attributes, &empty)
  var defaults = sigset_t()
  sigfillset(&defaults)
  posix_spawnattr_setsigdefault(&attributes, &defaults)
  posix_spawnattr_setflags(&attributes, Int16(POSIX_SPAWN_SETSIGMASK | POSIX_SPAWN_SETSIGDEF))
  var pid: pid_t = 0
  let argv = arguments.map { strdup($0) } + [nil]
  defer { for pointer in argv { free(pointer) } }
  let result = posix_spawnp(&pid, arguments[0], &actions, &attributes, argv, environ)
  guard result == 0 else { return (-1, "") }
  var status: Int32 = 0
  waitpid(pid, &status, 0)
  let output = (try? String(contentsOfFile: outputPath, encoding: .utf8)) ?? ""
  try? FileManager.default.removeItem(atPath: outputPath)
  return ((status >> 8) & 0xFF, output)
}

/// A private tmux server running the real binary in a pane of a given size.
final class TmuxSession {
  let socket = "sk-test-\(UUID().uuidString.prefix(8))"
  let state: URL
  /// Whether the state folder is this session's own (removed with it) or shared with a later
  /// session (kept).
  private let ownsState: Bool

  /// Starts `storekeeper ARGUMENTS` in a shell that, when it ends, prints its exit status and
  /// the terminal's mode, then waits (so the pane can be read).
  init(
    _ arguments: [String], width: Int = 100, height: Int = 30, environment: String = "",
    state: URL? = nil
  ) throws {
    self.state = try state ?? temporaryFolder()
    ownsState = state == nil
    let binary = productsDirectory.appendingPathComponent("storekeeper").path
    let quoted = arguments.map { "'\($0)'" }.joined(separator: " ")
    let script =
      "cd '\(packageRoot.path)' && XDG_STATE_HOME='\(self.state.path)' LANG=C.UTF-8 "
      + "TERM=xterm-256color \(environment) '\(binary)' \(quoted); echo \"EXIT=$?\"; "
      + "stty -a | tr '\\n' ' '; echo; echo STTY-DONE; sleep 120"
    spawn([
      "tmux", "-L", socket, "-f", "/dev/null", "new-session", "-d", "-x", "\(width)", "-y",
      "\(height)",
      "bash", "-c", script,
    ])
  }

  deinit {
    spawn(["tmux", "-L", socket, "kill-server"])
    if ownsState { try? FileManager.default.removeItem(at: state) }
  }

  /// Sends keys by tmux's names (`Enter`, `BTab`, `C-c`) or as literal text with `literal`.
  func send(_ keys: String..., literal: Bool = false) {
    for key in keys {
      spawn(["tmux", "-L", socket, "send-keys", "-t", "0"] + (literal ? ["-l"] : []) + [key])
    }
  }

  /// Types text literally.
  func type(_ text: String) { send(text, literal: true) }

  /// The pane's text.
  func capture() -> String {
    spawn(["tmux", "-L", socket, "capture-pane", "-p", "-t", "0"]).output
  }

  /// Runs command-language lines at the `:` prompt, one after another.
  func command(_ lines: String...) {
    for line in lines {
      send(":")
      type(line)
      send("Enter")
    }
  }

  /// The screen once it shows `text` and has settled (two captures alike: tmux may capture a
  /// frame half drawn, its title new and its rows old); a screen that never shows it within
  /// `timeout` seconds is a test failure (so a wait cannot pass by timing out).
  @discardableResult
  func waitFor(
    _ text: String, timeout: Double = 5, sourceLocation: SourceLocation = #_sourceLocation
  ) -> String {
    let deadline = Date().addingTimeInterval(timeout)
    var screen = capture()
    var settling = 0
    while Date() < deadline {
      if screen.contains(text) {
        // A screen that keeps changing (a running clock) is taken after a few looks.
        usleep(30_000)
        let again = capture()
        settling += 1
        if again == screen { break }
        screen = again
        if settling >= 5 && screen.contains(text) { break }
        continue
      }
      usleep(50_000)
      screen = capture()
    }
    if !screen.contains(text) {
      Issue.record(
        "the screen never showed \"\(text)\":\n\(screen)", sourceLocation: sourceLocation)
    }
    return screen
  }

  /// Sends `j` until `text` shows (at most `limit` times); the screen.
  @discardableResult
  func scroll(
    until text: String, limit: Int = 120, sourceLocation: SourceLocation = #_sourceLocation
  ) -> String {
    for _ in 0..<limit {
      let screen = capture()
      if screen.contains(text) { return screen }
      send("j")
      usleep(20_000)
    }
    return waitFor(text, sourceLocation: sourceLocation)
  }

  /// Resizes the window.
  func resize(width: Int, height: Int) {
    spawn(["tmux", "-L", socket, "resize-window", "-t", "0", "-x", "\(width)", "-y", "\(height)"])
  }

  /// The storekeeper process running in the pane, by its command line.
  func signal(_ number: Int32) {
    let pane = spawn(["tmux", "-L", socket, "list-panes", "-t", "0", "-F", "#{pane_pid}"]).output
    guard let shell = Int32(pane.trimmingCharacters(in: .whitespacesAndNewlines)) else { return }
    let children = spawn(["pgrep", "-P", "\(shell)"]).output.split(separator: "\n").compactMap {
      Int32($0)
    }
    for child in children { kill(child, number) }
  }
}

let tmuxIsAvailable = spawn(["tmux", "-V"]).status == 0
