import Foundation

/// A session's memory on disk: a header, then one line per accepted command, clock advance or
/// configuration change. Appended, never rewritten; flushed to disk before anything it records
/// is reported; replayed to rebuild the session exactly.
///
/// One writer at a time: opening for writing takes an exclusive lock on the file.
public final class Journal {
  /// The file.
  public let path: String
  /// The header.
  public let header: JournalHeader
  /// The records read when the journal was opened, in order.
  public private(set) var records: [JournalRecord]
  /// What opening it found worth telling (a torn last line moved aside).
  public private(set) var notices: [String]

  private let descriptor: Int32
  private var pending: [UInt8] = []
  private let writable: Bool

  private init(
    path: String, header: JournalHeader, records: [JournalRecord], notices: [String],
    descriptor: Int32, writable: Bool
  ) {
    self.path = path
    self.header = header
    self.records = records
    self.notices = notices
    self.descriptor = descriptor
    self.writable = writable
  }

  deinit { if descriptor >= 0 { close(descriptor) } }

  /// Creates a journal at `path` (mode 0600), which must not exist, and takes its lock.
  public static func create(at path: String, header: JournalHeader) throws(CommandError) -> Journal
  {
    let descriptor = Foundation.open(path, O_RDWR | O_CREAT | O_EXCL | O_APPEND | O_CLOEXEC, 0o600)
    guard descriptor >= 0 else {
      throw CommandError("cannot create the journal \(path): \(String(cString: strerror(errno)))")
    }
    let journal = Journal(
      path: path, header: header, records: [], notices: [], descriptor: descriptor, writable: true)
    try lock(descriptor, path)
    journal.pending = header.line
    try journal.commit()
    return journal
  }

  /// Opens an existing journal. For writing, it takes the lock and moves a torn last line (the
  /// process died mid-write) to a sidecar file; read-only, a torn line is only skipped.
  ///
  /// - Throws: ``CommandError`` naming the line of any other corruption, a journal from a newer
  ///   storekeeper, or a journal another storekeeper holds.
  public static func open(at path: String, forWriting: Bool) throws(CommandError) -> Journal {
    let flags = (forWriting ? O_RDWR | O_APPEND : O_RDONLY) | O_CLOEXEC
    let descriptor = Foundation.open(path, flags)
    guard descriptor >= 0 else {
      throw CommandError("cannot open the journal \(path): \(String(cString: strerror(errno)))")
    }
    var handedOver = false
    defer { if !handedOver { close(descriptor) } }
    if forWriting { try lock(descriptor, path) }
    guard let data = FileManager.default.contents(atPath: path) else {
      throw CommandError("cannot read the journal \(path)")
    }
    let bytes = [UInt8](data)
    var lines: [ArraySlice<UInt8>] = []
    var lineStart = 0
    for index in bytes.indices where bytes[index] == 0x0A {
      lines.append(bytes[lineStart..<index])
      lineStart = index + 1
    }
    var notices: [String] = []
    if lineStart < bytes.count {
      // The last write was cut off before its newline.
      notices.append(
        try setAside(
          bytes[lineStart...], of: path, keeping: lineStart, writable: forWriting,
          descriptor: descriptor))
    }
    guard let first = lines.first else {
      throw CommandError("\(path) is empty; it is not a Storekeeper journal")
    }
    let header: JournalHeader
    do throws(CommandError) {
      header = try JournalHeader(parsing: first)
    } catch {
      throw CommandError("\(path):1: \(error.message)")
    }
    var records: [JournalRecord] = []
    records.reserveCapacity(lines.count)
    var dates = DateCache()
    for (offset, line) in lines.enumerated().dropFirst() {
      if let record = JournalRecord(parsing: line, dates: &dates) {
        records.append(record)
        continue
      }
      if offset == lines.count - 1 {
        notices.append(
          try setAside(
            bytes[line.startIndex...], of: path, keeping: line.startIndex, writable: forWriting,
            descriptor: descriptor))
        continue
      }
      throw CommandError("\(path):\(offset + 1): not a journal record; the journal is damaged here")
    }
    handedOver = true
    return Journal(
      path: path, header: header, records: records, notices: notices, descriptor: descriptor,
      writable: forWriting)
  }

  /// Moves a torn tail to `PATH.torn` (or `.torn.N`) and cuts the journal back to its last
  /// whole line. Read-only, only reports it.
  private static func setAside(
    _ tail: ArraySlice<UInt8>, of path: String, keeping length: Int, writable: Bool,
    descriptor: Int32
  ) throws(CommandError) -> String {
    guard writable else {
      return "\(path): the last line is incomplete (\(tail.count) bytes) and was skipped"
    }
    var sidecar = path + ".torn"
    var counter = 1
    while FileManager.default.fileExists(atPath: sidecar) {
      sidecar = path + ".torn.\(counter)"
      counter += 1
    }
    guard
      FileManager.default.createFile(
        atPath: sidecar, contents: Data(tail), attributes: [.posixPermissions: 0o600])
    else { throw CommandError("cannot write \(sidecar) to keep the torn last line of \(path)") }
    guard ftruncate(descriptor, off_t(length)) == 0, fsync(descriptor) == 0 else {
      throw CommandError(
        "cannot cut the torn last line off \(path): \(String(cString: strerror(errno)))")
    }
    return "\(path): the last line was cut off mid-write (\(tail.count) bytes); moved to \(sidecar)"
  }

  private static func lock(_ descriptor: Int32, _ path: String) throws(CommandError) {
    guard flock(descriptor, LOCK_EX | LOCK_NB) == 0 else {
      throw CommandError(
        "\(path) is in use by another storekeeper; close it, or pick another journal with --journal"
      )
    }
  }

  /// The configuration the session runs on: the last one a record saved, else the header's.
  public var latestConfiguration: [UInt8] {
    records.reversed().lazy.compactMap { record -> [UInt8]? in
      if case .configuration(_, let saved) = record { saved } else { nil }
    }.first ?? header.configuration
  }

  /// Queues a record; it reaches the disk with the next ``commit()``.
  public func append(_ record: JournalRecord) {
    precondition(writable, "the journal was opened read-only")
    pending.append(contentsOf: record.line)
    records.append(record)
  }

  /// Whether records wait to be written.
  public var hasPending: Bool { !pending.isEmpty }

  /// Writes the queued records and flushes them to disk (`fsync`).
  public func commit() throws(CommandError) {
    guard !pending.isEmpty else { return }
    var written = 0
    while written < pending.count {
      let result = pending.withUnsafeBytes {
        write(descriptor, $0.baseAddress! + written, $0.count - written)
      }
      if result < 0 {
        if errno == EINTR { continue }
        throw CommandError("cannot write the journal \(path): \(String(cString: strerror(errno)))")
      }
      written += result
    }
    guard fsync(descriptor) == 0 else {
      throw CommandError("cannot flush the journal \(path): \(String(cString: strerror(errno)))")
    }
    pending.removeAll(keepingCapacity: true)
  }
}
