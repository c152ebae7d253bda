import Foundation
import StoreUtilities

/// Where an outbox writes each notification's body as it is added.
protocol NotificationWriter: AnyObject {
  /// Writes one notification (`line`: its body, newline included); the file it went to when
  /// that is worth keeping per notification.
  func write(name: String, line: String) throws(DeliveryError) -> String?
  /// Everything written reaches its final name (a run's end).
  func finish() throws(DeliveryError)
  /// Nothing is written once this returns (a write under way ends first): a stopped run
  /// removes what it wrote.
  func stopWriting()
}

/// Notifications written as numbered files in a folder (`0001-SUBSCRIBED-INITIAL_BUY.json`,
/// at least four digits), numbering on from the highest number already there.
final class NotificationFiles: NotificationWriter {
  let directory: String
  /// The last number written, and whether writing stopped: held while a file is written
  /// (``stopWriting()`` waits for a write under way).
  private let state: Locked<(counter: Int, closed: Bool)>

  /// Files in `directory`, made when missing.
  ///
  /// - Throws: ``DeliveryError`` when it is a file, or cannot be made.
  init(directory: String) throws(DeliveryError) {
    self.directory = directory
    try Self.makeFolder(directory)
    state = Locked((Self.numbers(in: directory).max() ?? 0, false))
  }

  /// Each file is whole once written.
  func finish() {}

  func stopWriting() { state.withLock { $0.closed = true } }

  /// Makes `directory` when it is missing.
  ///
  /// - Throws: ``DeliveryError`` when it is a file, or cannot be made.
  static func makeFolder(_ directory: String) throws(DeliveryError) {
    var isFolder: ObjCBool = false
    if FileManager.default.fileExists(atPath: directory, isDirectory: &isFolder) {
      guard isFolder.boolValue else {
        throw DeliveryError("--notifications \(directory): it is a file, not a folder")
      }
      return
    }
    do {
      try FileManager.default.createDirectory(
        atPath: directory, withIntermediateDirectories: true)
    } catch {
      let reason = (error as NSError).localizedFailureReason ?? "\(error.localizedDescription)"
      throw DeliveryError("--notifications \(directory): cannot create the folder: \(reason)")
    }
  }

  /// The numbers of the notification files already in `directory` (`14399-DID_RENEW.json` is
  /// 14399: the whole number before the first `-`, however many digits it has).
  static func numbers(in directory: String) -> [Int] {
    let existing = (try? FileManager.default.contentsOfDirectory(atPath: directory)) ?? []
    return existing.compactMap { name in
      guard name.hasSuffix(".json"), let dash = name.firstIndex(of: "-") else { return nil }
      return Int(name[..<dash])
    }
  }

  /// Writes the next file (`line`: its text, newline included); its name.
  ///
  /// - Throws: ``DeliveryError`` naming the file and the system's reason.
  func write(name: String, line: String) throws(DeliveryError) -> String? {
    try state.withLock { state in
      Result { () throws(DeliveryError) in
        guard !state.closed else {
          throw DeliveryError("the notification files are closed: the run stopped")
        }
        while true {
          state.counter += 1
          if let file = try write(line, number: state.counter, name: name) { return file }
        }
      }
    }.get()
  }

  /// Writes file number `number`; `nil` when another writer took the number. Called under the
  /// lock.
  private func write(_ line: String, number: Int, name: String) throws(DeliveryError) -> String? {
    let digits = String(number)
    let file = String(repeating: "0", count: max(0, 4 - digits.count)) + digits + "-\(name).json"
    let path = directory + "/" + file
    let descriptor = open(path, O_WRONLY | O_CREAT | O_EXCL | O_CLOEXEC, 0o644)
    if descriptor < 0 && errno == EEXIST { return nil }
    guard descriptor >= 0 else {
      throw DeliveryError(
        "cannot write the notification \(path): \(String(cString: strerror(errno)))")
    }
    var text = line
    var failure = text.withUTF8 { Self.writeAll(descriptor, UnsafeRawBufferPointer($0)) }
    if close(descriptor) != 0 && failure == nil { failure = errno }
    if let failure {
      unlink(path)
      throw DeliveryError(
        "cannot write the notification \(path): \(String(cString: strerror(failure)))")
    }
    return file
  }

  /// Writes all of `bytes` to `descriptor`; the system's error number when it could not.
  static func writeAll(_ descriptor: Int32, _ bytes: UnsafeRawBufferPointer) -> Int32? {
    var written = 0
    while written < bytes.count {
      let result = Foundation.write(descriptor, bytes.baseAddress! + written, bytes.count - written)
      if result < 0 {
        if errno == EINTR { continue }
        return errno
      }
      written += result
    }
    return nil
  }
}
