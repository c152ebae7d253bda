import Foundation
import StoreUtilities

/// Notifications written as one JSON-lines file in a folder (`notifications.jsonl`: each line
/// the body the App Store POSTs, `{"signedPayload":"…"}`), for a population's hundreds of
/// thousands. The file is written as `NAME.partial` and takes its name only at ``finish()``,
/// so a file by the name is always a whole run's; it never replaces one.
final class NotificationLines: NotificationWriter {
  /// The file's name once finished.
  let path: String
  /// The file's name while it is written.
  var partialPath: String { Self.partial(path) }
  private let descriptor: Int32
  /// What is gathered and not written yet, and whether writing stopped: held while the file is
  /// written (``stopWriting()`` waits for a write under way).
  private let state = Locked(Gathered())
  /// How much is gathered before it is written.
  private static let block = 1 << 20

  private struct Gathered: Sendable {
    var buffer: [UInt8] = []
    var closed = false
  }

  /// The name a file by `path` has while it is written.
  static func partial(_ path: String) -> String { path + ".partial" }

  /// A new file `name` in `directory` (made when missing).
  ///
  /// - Throws: ``DeliveryError`` when the file or its partial one exists, or it cannot be made.
  init(directory: String, name: String) throws(DeliveryError) {
    try NotificationFiles.makeFolder(directory)
    path = directory + "/" + name
    guard !FileManager.default.fileExists(atPath: path) else {
      throw DeliveryError(
        "--notifications \(directory): \(name) exists (another run's): give another folder, "
          + "or remove it")
    }
    descriptor = open(Self.partial(path), O_WRONLY | O_CREAT | O_EXCL | O_CLOEXEC, 0o644)
    guard descriptor >= 0 else {
      let reason = String(cString: strerror(errno))
      throw DeliveryError(
        "--notifications \(directory): cannot make \(name).partial: \(reason)"
          + (errno == EEXIST
            ? " (a run is writing it, or one was killed: remove it when none is running)" : ""))
    }
    state.withLock { $0.buffer.reserveCapacity(Self.block) }
  }

  deinit { close(descriptor) }

  /// Adds one line (written a block at a time); no file name per notification.
  func write(name: String, line: String) throws(DeliveryError) -> String? {
    try state.withLock { gathered in
      Result { () throws(DeliveryError) in
        guard !gathered.closed else {
          throw DeliveryError("\(partialPath) is closed: the run stopped")
        }
        gathered.buffer.append(contentsOf: line.utf8)
        if gathered.buffer.count >= Self.block { try write(&gathered.buffer) }
        return nil
      }
    }.get()
  }

  func stopWriting() { state.withLock { $0.closed = true } }

  /// Writes what is gathered, flushes the file to disk and gives it its name.
  ///
  /// - Throws: ``DeliveryError`` naming the file and the system's reason.
  func finish() throws(DeliveryError) {
    try state.withLock { gathered in
      Result { () throws(DeliveryError) in
        guard !gathered.closed else {
          throw DeliveryError("\(partialPath) is closed: the run stopped")
        }
        try write(&gathered.buffer)
        guard fsync(descriptor) == 0, link(partialPath, path) == 0 else {
          throw DeliveryError(
            "cannot finish the notifications \(path): \(String(cString: strerror(errno)))")
        }
        unlink(partialPath)
      }
    }.get()
  }

  /// Writes `buffer` out and empties it. Called under the lock.
  private func write(_ buffer: inout [UInt8]) throws(DeliveryError) {
    guard !buffer.isEmpty else { return }
    if let failure = buffer.withUnsafeBytes({ NotificationFiles.writeAll(descriptor, $0) }) {
      throw DeliveryError(
        "cannot write the notifications \(partialPath): \(String(cString: strerror(failure)))")
    }
    buffer.removeAll(keepingCapacity: true)
  }
}
