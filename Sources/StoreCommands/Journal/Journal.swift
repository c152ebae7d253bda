import Foundation

/// A session's memory on disk: a header, then one line per accepted command, clock advance or
/// configuration change, each sealed with a check. Appended, never rewritten; flushed to disk
/// before anything it records is reported; replayed to rebuild the session exactly.
///
/// One writer at a time: opening for writing takes an exclusive lock on the file. A journal is
/// created whole (written and flushed under a temporary name, then named), so a journal that
/// exists always has its header.
public final class Journal {
  /// The file.
  public let path: String
  /// What the file opens with: the configuration's digest, start and settings.
  public let header: JournalHeader
  /// The records read when the journal was opened, in order.
  public private(set) var records: [JournalRecord]
  /// What opening it found worth telling (a torn last line moved aside, a header that never
  /// reached the disk).
  public internal(set) var notices: [String]

  let descriptor: Int32
  let files: JournalFiles
  private var pending: [UInt8] = []
  private let writable: Bool
  /// The file's length after the last successful commit: a failed one is cut back to it.
  private var committedLength: Int

  init(
    path: String, header: JournalHeader, records: [JournalRecord], notices: [String],
    descriptor: Int32, writable: Bool, files: JournalFiles, length: Int
  ) {
    self.committedLength = length
    self.path = path
    self.header = header
    self.records = records
    self.notices = notices
    self.descriptor = descriptor
    self.writable = writable
    self.files = files
  }

  deinit { if descriptor >= 0 { close(descriptor) } }

  /// Reads a journal without changing it or taking its lock.
  ///
  /// - Returns: `nil` when there is no journal at `path`, or when the file holds no complete
  ///   header (its creation was cut off, so nothing from it was ever shown; `report` hears it).
  /// - Throws: ``CommandError`` when the file cannot be read, or naming the line of damage.
  public static func read(
    at path: String, report: (String) -> Void = { _ in }
  ) throws(CommandError) -> Journal? {
    guard let descriptor = try openIfPresent(path, O_RDONLY) else { return nil }
    defer { close(descriptor) }
    return try read(contents: try readAll(descriptor, path), path: path, report: report)
  }

  /// Opens an existing journal file; `nil` when there is none.
  static func openIfPresent(_ path: String, _ flags: Int32) throws(CommandError) -> Int32? {
    let descriptor = Foundation.open(path, flags | O_CLOEXEC)
    guard descriptor >= 0 else {
      if errno == ENOENT { return nil }
      throw CommandError("cannot open the journal \(path): \(systemError())")
    }
    return descriptor
  }

  /// Reads a journal's bytes (as ``read(at:report:)`` reads its file); `path` names it in
  /// messages.
  public static func read(
    contents bytes: [UInt8], path: String, report: (String) -> Void = { _ in }
  ) throws(CommandError) -> Journal? {
    let contents = try JournalContents(bytes, path: path)
    guard let header = contents.header else {
      report(
        "\(path) holds no complete header (\(bytes.count) bytes; its creation was cut off); "
          + "nothing from it was ever shown, so it is read as a new session")
      return nil
    }
    var notices = unfinishedNotice(path).map { [$0] } ?? []
    if let torn = contents.tornTailStart {
      notices.append(
        "\(path): the last line is incomplete (\(bytes.count - torn) bytes) and was skipped")
    }
    return Journal(
      path: path, header: header, records: contents.records, notices: notices, descriptor: -1,
      writable: false, files: .system, length: bytes.count)
  }

  /// The suffix of a journal still being written whole (`simulate`'s, named when it ends).
  public static let unfinishedSuffix = ".partial"

  /// What to say of a journal whose name says it was never finished: a population stopped
  /// before its end (killed: a stop it hears removes it).
  static func unfinishedNotice(_ path: String) -> String? {
    guard path.hasSuffix(unfinishedSuffix) else { return nil }
    return "\(path) is unfinished: a simulate run stopped before its end wrote it, so it holds "
      + "only the customers and months it reached (a finished run's journal has no "
      + "\(unfinishedSuffix))"
  }

  static func lock(_ descriptor: Int32, _ path: String) throws(CommandError) {
    guard flock(descriptor, LOCK_EX | LOCK_NB) == 0 else {
      throw CommandError(
        "\(path) is in use by another storekeeper; close it, or pick another journal with --journal"
      )
    }
  }

  /// The whole file: as many bytes as it holds when opened, read into one array (no copies on
  /// the way), then whatever a writer appended meanwhile.
  static func readAll(_ descriptor: Int32, _ path: String) throws(CommandError) -> [UInt8] {
    var status = stat()
    let expected = fstat(descriptor, &status) == 0 ? max(Int(status.st_size), 0) : 0
    var failure: Int32 = 0
    var bytes = [UInt8](unsafeUninitializedCapacity: expected) { buffer, count in
      count = 0
      while count < expected {
        let read = pread(
          descriptor, buffer.baseAddress! + count, expected - count, off_t(count))
        if read < 0 && errno == EINTR { continue }
        if read <= 0 {
          failure = read < 0 ? errno : 0
          return
        }
        count += read
      }
    }
    if failure != 0 {
      errno = failure
      throw CommandError("cannot read the journal \(path): \(systemError())")
    }
    var chunk = [UInt8](repeating: 0, count: 1 << 16)
    while true {
      let count = chunk.withUnsafeMutableBytes {
        pread(descriptor, $0.baseAddress!, $0.count, off_t(bytes.count))
      }
      if count < 0 {
        if errno == EINTR { continue }
        throw CommandError("cannot read the journal \(path): \(systemError())")
      }
      if count == 0 { return bytes }
      bytes.append(contentsOf: chunk[0..<count])
    }
  }

  static func systemError() -> String { String(cString: strerror(errno)) }

  /// The configuration the session runs on: the last one its timeline saved, else the
  /// header's.
  public var latestConfiguration: [UInt8] { configurations.last! }

  /// Every configuration the session ran on, in order: the header's, then each one a record of
  /// its timeline saved (their catalogs fold into the session's, which keeps product indices).
  public var configurations: [[UInt8]] {
    let entries = (try? Self.timeline(of: records, path: path).entries) ?? records
    return [header.configuration]
      + entries.compactMap { record -> [UInt8]? in
        if case .configuration(_, let saved) = record { saved } else { nil }
      }
  }

  /// The records that make the session, in order, with their line numbers: each step back
  /// (``JournalRecord/rewind(at:entries:to:)``) keeps the entries before its point and adds
  /// the move of the clock to its instant; nothing else changes.
  ///
  /// - Throws: ``CommandError`` naming the line of a step back to a point that was never
  ///   there.
  public static func timeline(
    of records: [JournalRecord], path: String
  ) throws(CommandError) -> (entries: [JournalRecord], lines: [Int]) {
    var entries: [JournalRecord] = []
    var lines: [Int] = []
    entries.reserveCapacity(records.count)
    lines.reserveCapacity(records.count)
    for (index, record) in records.enumerated() {
      guard case .rewind(_, let count, let to) = record else {
        entries.append(record)
        lines.append(index + 2)
        continue
      }
      guard count <= entries.count else {
        throw CommandError(
          "\(path):\(index + 2): a step back to entry \(count), of \(entries.count). "
            + JournalContents.recovery(path, line: index + 2))
      }
      entries.removeSubrange(count...)
      lines.removeSubrange(count...)
      entries.append(.advance(to: to))
      lines.append(index + 2)
    }
    return (entries, lines)
  }

  /// Lets go of the records read at opening and keeps none appended after, for a reader done
  /// with them (a listing replays them once and keeps only the session) or a writer that never
  /// reads them back (a population).
  func forgetRecords() {
    records = []
    keepsRecords = false
  }

  /// Whether appended records are kept in memory (``records``) as well as written.
  private var keepsRecords = true

  /// Queues a record; it reaches the disk with the next ``commit()``.
  public func append(_ record: JournalRecord) {
    precondition(writable, "the journal was opened read-only")
    pending.append(contentsOf: record.line)
    if keepsRecords { records.append(record) }
  }

  /// Whether records wait to be written.
  public var hasPending: Bool { !pending.isEmpty }

  /// Whether so much waits to be written that it is committed whoever waits for it (a
  /// population's hundreds of thousands of commands keep a megabyte in memory, not the journal).
  public var isPendingFull: Bool { pending.count >= 1 << 20 }

  /// Writes the queued records and flushes them to disk (`fsync`).
  ///
  /// - Throws: ``CommandError`` naming the journal and the system's reason. The records stay
  ///   queued and the file is cut back to its last committed length, so a later commit (once
  ///   the disk has room again) writes them whole.
  public func commit() throws(CommandError) {
    guard !pending.isEmpty else { return }
    do throws(CommandError) {
      try files.write(pending, to: descriptor, path: path)
      try files.sync(descriptor, path: path)
    } catch {
      if !(files.faults?.hasStopped ?? false) { ftruncate(descriptor, off_t(committedLength)) }
      throw error
    }
    committedLength += pending.count
    pending.removeAll(keepingCapacity: true)
  }
}
