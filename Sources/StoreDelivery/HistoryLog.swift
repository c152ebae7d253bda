import Foundation

/// The signed payloads an outbox sent, on disk: appended to one file of the temporary folder
/// (unlinked at once, so it goes when the process does) and read back by position, so that an
/// outbox's memory does not grow with the payloads it keeps. Appends gather in a buffer
/// written a block at a time (a payload still in it is read from it). When no such file can be
/// made, or written, the payloads stay in memory.
///
/// `@unchecked Sendable`: everything is under `lock` except positional reads (`pread`) of what
/// was written, which touch nothing else.
final class HistoryLog: @unchecked Sendable {
  /// Where one payload is.
  struct Span: Sendable {
    var offset: Int64
    var length: Int32
  }

  private let descriptor: Int32
  /// Where the file ends: the buffer's bytes come after it.
  private var written: Int64 = 0
  private var buffer: [UInt8] = []
  /// How big the buffer gets before it is written.
  private static let block = 1 << 20
  private let lock = NSLock()
  private var kept: [String] = []
  /// Whether the file failed: everything from then on is kept in memory.
  private var failed = false

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
    failed = made < 0
  }

  deinit { if descriptor >= 0 { close(descriptor) } }

  /// Keeps a payload; where it is.
  func append(_ payload: String) -> Span {
    lock.withLock {
      if !failed, buffer.count >= Self.block, !writeBuffer() { failed = true }
      guard !failed else {
        kept.append(payload)
        return Span(offset: -Int64(kept.count), length: 0)
      }
      let offset = written + Int64(buffer.count)
      buffer.append(contentsOf: payload.utf8)
      return Span(offset: offset, length: Int32(buffer.count) - Int32(offset - written))
    }
  }

  /// The payload at `span`.
  func read(_ span: Span) -> String {
    if span.offset < 0 { return lock.withLock { kept[Int(-span.offset) - 1] } }
    let buffered = lock.withLock { () -> String? in
      guard span.offset >= written else { return nil }
      let start = Int(span.offset - written)
      return String(decoding: buffer[start..<start + Int(span.length)], as: UTF8.self)
    }
    if let buffered { return buffered }
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

  /// Writes the buffer at the file's end; whether it could. Called under `lock`.
  private func writeBuffer() -> Bool {
    var done = 0
    while done < buffer.count {
      let count = buffer.withUnsafeBytes {
        pwrite(descriptor, $0.baseAddress! + done, $0.count - done, off_t(written) + off_t(done))
      }
      if count < 0 && errno == EINTR { continue }
      guard count > 0 else { return false }
      done += count
    }
    written += Int64(buffer.count)
    buffer.removeAll(keepingCapacity: true)
    return true
  }
}
