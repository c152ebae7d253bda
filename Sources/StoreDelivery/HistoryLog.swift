import Foundation
import StoreUtilities

/// The signed payloads an outbox sent, on disk: appended to one file of the temporary folder
/// (unlinked at once, so it goes when the process does) and read back by position, so that an
/// outbox's memory does not grow with the payloads it keeps. Appends gather in a buffer
/// written a block at a time (a payload still in it is read from it). When no such file can be
/// made, or written, the payloads stay in memory.
///
/// Everything is under one lock except positional reads (`pread`) of what was written, which
/// touch nothing else.
final class HistoryLog: Sendable {
  /// Where one payload is.
  struct Span: Sendable {
    var offset: Int64
    var length: Int32
  }

  /// What the appends change.
  private struct Written {
    /// Where the file ends: the buffer's bytes come after it.
    var end: Int64 = 0
    var buffer: [UInt8] = []
    var kept: [String] = []
    /// Whether the file failed: everything from then on is kept in memory.
    var failed: Bool

    /// Writes the buffer at the file's end; whether it could.
    mutating func flush(to descriptor: Int32) -> Bool {
      var done = 0
      while done < buffer.count {
        let count = buffer.withUnsafeBytes {
          pwrite(descriptor, $0.baseAddress! + done, $0.count - done, off_t(end) + off_t(done))
        }
        if count < 0 && errno == EINTR { continue }
        guard count > 0 else { return false }
        done += count
      }
      end += Int64(buffer.count)
      buffer.removeAll(keepingCapacity: true)
      return true
    }
  }

  private let descriptor: Int32
  private let state: Locked<Written>
  /// How big the buffer gets before it is written.
  private static let block = 1 << 20

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
    state = Locked(Written(failed: made < 0))
  }

  deinit { if descriptor >= 0 { close(descriptor) } }

  /// Keeps a payload; where it is.
  func append(_ payload: String) -> Span {
    let descriptor = descriptor
    return state.withLock { state in
      if !state.failed, state.buffer.count >= Self.block, !state.flush(to: descriptor) {
        state.failed = true
      }
      guard !state.failed else {
        state.kept.append(payload)
        return Span(offset: -Int64(state.kept.count), length: 0)
      }
      let offset = state.end + Int64(state.buffer.count)
      state.buffer.append(contentsOf: payload.utf8)
      return Span(offset: offset, length: Int32(state.buffer.count) - Int32(offset - state.end))
    }
  }

  /// The payload at `span`.
  func read(_ span: Span) -> String {
    if span.offset < 0 { return state.withLock { $0.kept[Int(-span.offset) - 1] } }
    let buffered = state.withLock { state -> String? in
      guard span.offset >= state.end else { return nil }
      let start = Int(span.offset - state.end)
      return String(decoding: state.buffer[start..<start + Int(span.length)], as: UTF8.self)
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
}
