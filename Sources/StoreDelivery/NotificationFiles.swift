import Foundation

/// Notifications written as numbered files in a folder (`0001-SUBSCRIBED-INITIAL_BUY.json`,
/// at least four digits), numbering on from the highest number already there.
final class NotificationFiles {
  let directory: String
  private var counter = 0

  /// Files in `directory`, made when missing.
  ///
  /// - Throws: ``DeliveryError`` when it is a file, or cannot be made.
  init(directory: String) throws(DeliveryError) {
    self.directory = directory
    var isFolder: ObjCBool = false
    if FileManager.default.fileExists(atPath: directory, isDirectory: &isFolder) {
      guard isFolder.boolValue else {
        throw DeliveryError("--notifications \(directory): it is a file, not a folder")
      }
    } else {
      do {
        try FileManager.default.createDirectory(
          atPath: directory, withIntermediateDirectories: true)
      } catch {
        let reason = (error as NSError).localizedFailureReason ?? "\(error.localizedDescription)"
        throw DeliveryError("--notifications \(directory): cannot create the folder: \(reason)")
      }
    }
    counter = Self.numbers(in: directory).max() ?? 0
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
  func write(name: String, line: String) throws(DeliveryError) -> String {
    while true {
      counter += 1
      let number = String(counter)
      let file = String(repeating: "0", count: max(0, 4 - number.count)) + number + "-\(name).json"
      let path = directory + "/" + file
      let descriptor = open(path, O_WRONLY | O_CREAT | O_EXCL | O_CLOEXEC, 0o644)
      if descriptor < 0 && errno == EEXIST { continue }  // another writer took the number
      guard descriptor >= 0 else {
        throw DeliveryError(
          "cannot write the notification \(path): \(String(cString: strerror(errno)))")
      }
      var text = line
      var written = 0
      var failure: Int32?
      while written < text.utf8.count {
        let result = text.withUTF8 {
          Foundation.write(descriptor, $0.baseAddress! + written, $0.count - written)
        }
        if result < 0 {
          if errno == EINTR { continue }
          failure = errno
          break
        }
        written += result
      }
      if close(descriptor) != 0 && failure == nil { failure = errno }
      if let failure {
        unlink(path)
        throw DeliveryError(
          "cannot write the notification \(path): \(String(cString: strerror(failure)))")
      }
      return file
    }
  }
}
