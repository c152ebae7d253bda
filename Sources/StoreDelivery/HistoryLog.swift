import Foundation

/// The signed payloads an outbox sent, on disk: appended to one file of the temporary folder
/// (unlinked at once, so it goes when the process does) and read back by position, so that an
/// outbox's memory does not grow with the payloads it keeps. When no such file can be made,
/// they stay in memory.
///
/// `@unchecked Sendable`: appends happen under the outbox's lock; reads are positional
/// (`pread`) and touch nothing else, and the memory fallback is used under `lock`.
final class HistoryLog: @unchecked Sendable {
  /// Where one payload is.
  struct Span: Sendable {
    var offset: Int64
    var length: Int32
  }

  private let descriptor: Int32
  private var end: Int64 = 0
  private let lock = NSLock()
  private var kept: [String] = []

  init() {
    let folder = FileManager.default.temporaryDirectory.path
    var template = Array("\(folder)/storekeeper-history-XXXXXX".utf8CString)
    let made = template.withUnsafeMutableBufferPointer { mkstemp($0.baseAddress!) }
    if made >= 0 {
      let path = String(
        decoding: template.prefix { $0 != 0 }.map { UInt8(bitPattern: $0) }, as: UTF8.self)
      unlink(path)
    }
    descriptor = made
  }

  deinit { if descriptor >= 0 { close(descriptor) } }

  /// Keeps a payload; where it is.
  func append(_ payload: String) -> Span {
    let bytes = Array(payload.utf8)
    if descriptor >= 0, write(bytes, at: end) {
      defer { end += Int64(bytes.count) }
      return Span(offset: end, length: Int32(bytes.count))
    }
    return lock.withLock {
      kept.append(payload)
      return Span(offset: -Int64(kept.count), length: 0)
    }
  }

  /// The payload at `span`.
  func read(_ span: Span) -> String {
    if span.offset < 0 { return lock.withLock { kept[Int(-span.offset) - 1] } }
    var bytes = [UInt8](repeating: 0, count: Int(span.length))
    var done = 0
    while done < bytes.count {
      let count = bytes.withUnsafeMutableBytes {
        pread(descriptor, $0.baseAddress! + done, $0.count - done, off_t(span.offset) + off_t(done))
      }
      if count < 0 && errno == EINTR { continue }
      guard count > 0 else { break }
      done += count
    }
    return String(decoding: bytes[..<done], as: UTF8.self)
  }

  private func write(_ bytes: [UInt8], at offset: Int64) -> Bool {
    var done = 0
    while done < bytes.count {
      let count = bytes.withUnsafeBytes {
        pwrite(descriptor, $0.baseAddress! + done, $0.count - done, off_t(offset) + off_t(done))
      }
      if count < 0 && errno == EINTR { continue }
      guard count > 0 else { return false }
      done += count
    }
    return true
  }
}
