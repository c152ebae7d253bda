import Dispatch
import Foundation
import StoreCommands
import StoreDelivery
import StorePopulation
import StoreUtilities

/// What a `simulate` run writes, and how a file by its name is always a whole run's: the
/// journal and the JSON-lines notifications are written under `NAME.partial` and named at the
/// end; numbered notification files carry a `simulate.partial` note in their folder until the
/// end. A stop the process hears (Ctrl-C, `kill`, a closed terminal) removes what the run
/// wrote; a stop it cannot hear (`kill -9`, a crash) leaves the `.partial` names, which every
/// reader says are unfinished.
struct SimulateOutput {
  /// The journal the run names at its end.
  let journal: String?
  /// The notifications' folder.
  let folder: String?
  /// The JSON-lines file's name in ``folder``; `nil` for numbered files.
  let linesName: String?

  /// The note a folder of numbered files holds while a run writes it.
  static let noteName = "simulate.partial"

  /// The JSON-lines file a run or a shard writes: `notifications.jsonl`,
  /// `notifications-shard-2-of-4.jsonl`.
  static func linesName(shard: String?) -> String {
    guard let shard, let parsed = Shard(parsing: shard), parsed.count > 1 else {
      return "notifications.jsonl"
    }
    return "notifications-shard-\(parsed.index)-of-\(parsed.count).jsonl"
  }

  /// The journal's name while it is written.
  var partialJournal: String? { journal.map { $0 + Journal.unfinishedSuffix } }

  /// What stands in the way of the run: a journal or notifications by its names (a finished
  /// run's, or a stopped one's `.partial`), numbered files in the folder; `nil` when clear.
  func obstacle() -> String? {
    let manager = FileManager.default
    if let journal, manager.fileExists(atPath: journal) {
      return "--journal \(journal) exists; simulate makes a new session (choose another path)"
    }
    if let partial = partialJournal, manager.fileExists(atPath: partial) {
      return "\(partial) exists: a simulate run is writing it, or one was stopped before its "
        + "end; remove it when none is running"
    }
    guard let folder else { return nil }
    if let linesName {
      for name in [linesName, linesName + Journal.unfinishedSuffix]
      where manager.fileExists(atPath: folder + "/" + name) {
        return "--notifications \(folder) already holds \(name) (another run's, or a stopped "
          + "one's): give another folder, or remove it"
      }
      return nil
    }
    let held = NotificationOutbox.numberedFiles(in: folder)
    guard held.isEmpty else {
      return "--notifications \(folder) already holds \(held.count) notification files (up "
        + "to number \(held.max()!)): a simulate run writes all of its own, so give it an "
        + "empty folder (or remove those files)"
    }
    return nil
  }

  /// Marks the numbered files' folder as being written (the JSON-lines file and the journal
  /// carry their own `.partial` names), then has a stop the process hears close `outbox`'s
  /// files, remove what the run wrote and exit with 128 + the signal's number.
  func begin(_ outbox: NotificationOutbox?) throws(CommandError) {
    if let folder, linesName == nil {
      let note =
        "storekeeper simulate (process \(getpid())) is writing this folder's notification "
        + "files, or was stopped before its end: until this note goes, they are not a whole "
        + "run's.\n"
      guard FileManager.default.createFile(atPath: notePath!, contents: Data(note.utf8)) else {
        throw CommandError("--notifications \(folder): cannot write \(Self.noteName)")
      }
    }
    Self.onStop { [self] signal in
      outbox?.closeFiles()
      removeWritten()
      let said =
        "simulate: stopped before its end (signal \(signal)); removed what it wrote, so "
        + "nothing is left that reads as a whole run\n"
      _ = said.withCString { Foundation.write(2, $0, strlen($0)) }
      _exit(128 + signal)
    }
  }

  /// Names the journal (the journal is committed) and the notifications (`outbox` is
  /// drained): a file by its name is now a whole run's.
  func finish(_ outbox: NotificationOutbox?) throws {
    try outbox?.finishFiles()
    if let journal, let partial = partialJournal {
      guard link(partial, journal) == 0 else {
        throw CommandError(
          "cannot name the journal \(journal) (it stays as \(partial)): "
            + String(cString: strerror(errno)))
      }
      unlink(partial)
    }
    if let notePath { unlink(notePath) }
  }

  private var notePath: String? {
    guard let folder, linesName == nil else { return nil }
    return folder + "/" + Self.noteName
  }

  /// Removes the run's unfinished files: its partial journal and JSON-lines file, or the
  /// numbered files it wrote (the folder held none when it began) and the note.
  private func removeWritten() {
    if let partialJournal { unlink(partialJournal) }
    guard let folder else { return }
    if let linesName {
      unlink(folder + "/" + linesName + Journal.unfinishedSuffix)
      return
    }
    let names = (try? FileManager.default.contentsOfDirectory(atPath: folder)) ?? []
    for name in names where name.hasSuffix(".json") && name.first?.isNumber == true {
      unlink(folder + "/" + name)
    }
    if let notePath { unlink(notePath) }
  }

  /// Runs `stop` (on another thread) when SIGINT, SIGTERM or SIGHUP arrives.
  private static func onStop(_ stop: @escaping @Sendable (Int32) -> Void) {
    for number in [SIGINT, SIGTERM, SIGHUP] {
      signal(number, SIG_IGN)
      let source = DispatchSource.makeSignalSource(signal: number, queue: .global())
      source.setEventHandler { stop(number) }
      source.resume()
      sources.append(source)
    }
  }

  /// The signal sources, kept for the process's life.
  nonisolated(unsafe) private static var sources: [any DispatchSourceSignal] = []
}
