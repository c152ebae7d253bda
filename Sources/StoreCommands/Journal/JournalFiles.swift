import Foundation
import StoreUtilities

/// The file-system calls a journal makes, in one place, so that a test can stop a writer before
/// any of them (``FaultPlan``) and check that what it left behind still opens.
///
/// Every call that changes the disk is one *step*. Without a plan the calls go straight to the
/// system.
public struct JournalFiles: Sendable {
  /// Where to stop, if anywhere (tests only).
  package let faults: FaultPlan?

  /// The system's calls, stopping where `faults` says (tests only).
  package init(faults: FaultPlan? = nil) { self.faults = faults }

  /// The system's calls, with no faults.
  public static let system = JournalFiles()

  /// This process's calls, read from its environment once (a crash test counts the steps of
  /// every journal the process touches).
  public static let forThisProcess = fromEnvironment()

  /// The system's calls. In a test build (debug, `STOREKEEPER_TEST_HOOKS`) they are killed at
  /// the step named by `STOREKEEPER_TEST_KILL_AT_FILE_STEP` when that variable is set, for the
  /// end-to-end crash tests; a release build has no such switch.
  public static func fromEnvironment(
    _ environment: [String: String] = ProcessInfo.processInfo.environment
  ) -> JournalFiles {
    #if STOREKEEPER_TEST_HOOKS
      guard let text = environment["STOREKEEPER_TEST_KILL_AT_FILE_STEP"], let step = Int(text)
      else { return .system }
      return JournalFiles(faults: FaultPlan(stopAt: step, stop: .killingTheProcess))
    #else
      return .system
    #endif
  }

  private func step(_ name: String) throws(CommandError) {
    try faults?.reach(name)
  }

  private func failure(_ what: String, _ path: String) -> CommandError {
    CommandError("cannot \(what) \(path): \(String(cString: strerror(errno)))")
  }

  /// Creates and opens `folder/.NAME.creating-XXXXXXXX` (mode 0600, appending, closed on exec
  /// from the start, so a child started meanwhile never holds it) beside `path`.
  func createTemporary(beside path: String) throws(CommandError) -> (String, Int32) {
    try step("create a temporary file")
    let url = URL(fileURLWithPath: path)
    let prefix =
      url.deletingLastPathComponent().path
      + "/.\(url.lastPathComponent)\(Self.temporaryMarker)"
    while true {
      let temporary = prefix + String(UInt32.random(in: 0...UInt32.max), radix: 16)
      let descriptor = open(
        temporary, O_RDWR | O_CREAT | O_EXCL | O_APPEND | O_CLOEXEC, 0o600)
      if descriptor >= 0 { return (temporary, descriptor) }
      guard errno == EEXIST else { throw failure("create a journal beside", path) }
    }
  }

  /// What names a temporary file of a journal being created.
  static let temporaryMarker = ".creating-"

  /// Writes all of `bytes` at the end of the file. A stop here writes half of them first.
  func write(_ bytes: [UInt8], to descriptor: Int32, path: String) throws(CommandError) {
    var written = 0
    if let faults, faults.isNext {
      _ = bytes.withUnsafeBytes { Foundation.write(descriptor, $0.baseAddress!, bytes.count / 2) }
    }
    try step("write")
    while written < bytes.count {
      let result = bytes.withUnsafeBytes {
        Foundation.write(descriptor, $0.baseAddress! + written, $0.count - written)
      }
      if result < 0 {
        if errno == EINTR { continue }
        throw failure("write the journal", path)
      }
      written += result
    }
  }

  /// Flushes a file to disk.
  func sync(_ descriptor: Int32, path: String) throws(CommandError) {
    try step("fsync")
    guard fsync(descriptor) == 0 else { throw failure("flush the journal", path) }
  }

  /// Flushes a folder's entries (a new or renamed name) to disk.
  func syncFolder(of path: String) throws(CommandError) {
    try step("fsync the folder")
    let folder = URL(fileURLWithPath: path).deletingLastPathComponent().path
    let descriptor = open(folder, O_RDONLY | O_CLOEXEC)
    guard descriptor >= 0 else { throw failure("open the folder", folder) }
    defer { close(descriptor) }
    // Some file systems cannot flush a folder (EINVAL); their renames are durable anyway.
    guard fsync(descriptor) == 0 || errno == EINVAL else {
      throw failure("flush the folder", folder)
    }
  }

  /// Gives `source`'s file the name `target` too; `false` when `target` exists.
  func link(_ source: String, _ target: String) throws(CommandError) -> Bool {
    try step("link")
    if Foundation.link(source, target) == 0 { return true }
    if errno == EEXIST { return false }
    // File systems without hard links: a rename, after making sure nothing is replaced.
    guard errno == EPERM || errno == ENOTSUP || errno == EOPNOTSUPP || errno == EMLINK else {
      throw failure("name the journal", target)
    }
    if access(target, F_OK) == 0 { return false }
    guard Foundation.rename(source, target) == 0 else { throw failure("name the journal", target) }
    return true
  }

  /// Renames `source` to `target`, replacing it.
  func rename(_ source: String, _ target: String) throws(CommandError) {
    try step("rename")
    guard Foundation.rename(source, target) == 0 else {
      throw failure("rename the journal to", target)
    }
  }

  /// Removes a name (missing is fine).
  func unlink(_ path: String) throws(CommandError) {
    try step("unlink")
    guard Foundation.unlink(path) == 0 || errno == ENOENT else { throw failure("remove", path) }
  }

  /// Cuts a file to `length` bytes.
  func truncate(_ descriptor: Int32, to length: Int, path: String) throws(CommandError) {
    try step("truncate")
    guard ftruncate(descriptor, off_t(length)) == 0 else {
      throw failure("cut the torn last line off", path)
    }
  }

  /// Writes a new file whole (the sidecar of a torn line), flushed.
  func writeWhole(_ bytes: [UInt8], to path: String) throws(CommandError) {
    try step("create a sidecar file")
    let descriptor = open(path, O_WRONLY | O_CREAT | O_EXCL | O_CLOEXEC, 0o600)
    guard descriptor >= 0 else { throw failure("create", path) }
    defer { close(descriptor) }
    try write(bytes, to: descriptor, path: path)
    try sync(descriptor, path: path)
  }
}

/// Where a test stops a journal writer: before its `stopAt`-th file-system step (counting from
/// 1). After the stop every further step fails, as if the process had died there.
package final class FaultPlan: Sendable {
  /// How the writer stops.
  package enum Stop: Sendable {
    /// The step throws, and so does every later one (in-process tests).
    case throwing
    /// The process kills itself with SIGKILL (end-to-end tests).
    case killingTheProcess
  }

  /// The step to stop before.
  package let stopAt: Int
  /// How to stop.
  package let stop: Stop
  /// The steps reached so far (locked: the journal is used from one thread, but the plan is
  /// shared by value).
  private let reached = Locked(0)

  /// A plan that stops before step `stopAt` (1 is the first).
  package init(stopAt: Int, stop: Stop = .throwing) {
    self.stopAt = stopAt
    self.stop = stop
  }

  /// How many steps were reached (including the one stopped at).
  package var steps: Int { reached.value }

  /// Whether the plan stopped the writer.
  package var hasStopped: Bool { reached.value >= stopAt }

  /// Whether the next step is the one to stop at.
  var isNext: Bool { reached.value + 1 == stopAt }

  func reach(_ name: String) throws(CommandError) {
    let count = reached.withLock {
      $0 += 1
      return $0
    }
    guard count >= stopAt else { return }
    if stop == .killingTheProcess { kill(getpid(), SIGKILL) }
    throw CommandError("stopped before step \(stopAt) (\(name)) by a fault plan")
  }
}
