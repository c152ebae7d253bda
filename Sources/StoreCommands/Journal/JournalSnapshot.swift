import Foundation
import StoreConfiguration
import StoreSimulation

/// A journal's transactions without replaying it: a ``LedgerSnapshot`` kept beside the journal
/// (``path(forJournal:)``), stamped with the length and a 64-bit fingerprint of the journal
/// bytes it was made from.
///
/// The journal stays the truth. A snapshot is used only while the journal holds exactly the
/// bytes it was made from and its own check and contents hold; otherwise the journal is
/// replayed and the snapshot made again. It is written after that replay (under a temporary
/// name, then renamed), only for a journal read cleanly; failing to write it changes nothing
/// but the next read's speed.
public enum JournalSnapshot {
  /// Where a journal's snapshot lives: beside it, `<journal>.snapshot`.
  public static func path(forJournal journal: String) -> String { journal + ".snapshot" }

  /// A journal's transactions and where they came from.
  public struct Listing {
    /// Every customer's transactions now: the session's own first, then the named customers'
    /// in the order they were made.
    public let ledgers: [LedgerSnapshot]
    /// The session's own customer's transactions now.
    public var ledger: LedgerSnapshot { ledgers[0] }
    /// The configuration the session runs on (the journal's latest).
    public let configuration: [UInt8]
    /// How they were read.
    public let source: Source
  }

  /// How a ``Listing`` was read.
  public enum Source: Equatable, Sendable {
    /// From a snapshot that matched the journal.
    case snapshot
    /// By replaying the journal; `wroteSnapshot` tells whether a snapshot was saved for next
    /// time.
    case replay(wroteSnapshot: Bool)
  }

  /// The transactions of the journal at `journalPath`, from its snapshot when that matches,
  /// else replayed (and the snapshot saved again).
  ///
  /// - Returns: `nil` when there is no journal, or it holds no complete header (`report` hears
  ///   it).
  /// - Throws: ``CommandError`` when the journal cannot be read or replayed.
  public static func listing(
    ofJournal journalPath: String, report: (String) -> Void
  ) throws(CommandError) -> Listing? {
    guard let descriptor = try Journal.openIfPresent(journalPath, O_RDONLY) else { return nil }
    defer { close(descriptor) }
    let snapshotPath = path(forJournal: journalPath)
    // The journal is read whole only when the snapshot cannot answer: to check one, its bytes
    // stream through the fingerprint a megabyte at a time.
    var status = stat()
    if fstat(descriptor, &status) == 0, let stamp = stamp(ofSnapshot: snapshotPath),
      stamp.length == Int(status.st_size),
      fingerprint(descriptor, length: stamp.length) == stamp.fingerprint,
      let (ledgers, configuration) = read(snapshotPath, stamp: stamp)
    {
      return Listing(ledgers: ledgers, configuration: configuration, source: .snapshot)
    }
    let bytes = try Journal.readAll(descriptor, journalPath)
    let stamp = Stamp(length: bytes.count, fingerprint: fingerprint(bytes[...]))
    guard let (ledgers, configurations, clean) = try replay(bytes, journalPath, report) else {
      return nil
    }
    let wrote =
      clean && write(ledgers, configurations: configurations, stamp: stamp, to: snapshotPath)
    return Listing(
      ledgers: ledgers, configuration: configurations.last!,
      source: .replay(wroteSnapshot: wrote))
  }

  /// The session a journal holds, replayed (what a snapshot cannot answer: a family member's
  /// view); `nil` when there is no journal or it holds no complete header.
  ///
  /// - Throws: ``CommandError`` when the journal cannot be read or replayed.
  public static func replayedSession(
    ofJournal journalPath: String, report: (String) -> Void
  ) throws(CommandError) -> Session? {
    guard let descriptor = try Journal.openIfPresent(journalPath, O_RDONLY) else { return nil }
    defer { close(descriptor) }
    let bytes = try Journal.readAll(descriptor, journalPath)
    guard let journal = try Journal.read(contents: bytes, path: journalPath, report: report) else {
      return nil
    }
    journal.notices.forEach(report)
    return try JournaledSession(replaying: journal, keepsHistory: false).session
  }

  /// The transactions of a journal's bytes, its configurations, and whether it read cleanly;
  /// `nil` without a header. The bytes, the records and the session are let go on return.
  private static func replay(
    _ bytes: consuming [UInt8], _ path: String, _ report: (String) -> Void
  ) throws(CommandError) -> ([LedgerSnapshot], [[UInt8]], clean: Bool)? {
    guard let journal = try Journal.read(contents: bytes, path: path, report: report) else {
      return nil
    }
    _ = consume bytes
    journal.notices.forEach(report)
    let configurations = journal.configurations
    // The replay's records and timeline are let go before the snapshot is made: the peak is
    // the larger of the two, not their sum.
    let session = try JournaledSession(replaying: journal, keepsHistory: false).session
    // Every customer's, whoever the journal last acted as.
    let ledgers = session.customers.map { session.view(of: Account(customer: $0)).ledgerSnapshot() }
    return (ledgers, configurations, journal.notices.isEmpty)
  }

  // MARK: - The file

  /// The file's first bytes; a new layout gets a new number.
  private static let magic = Array("storekeeper ledger snapshot 6\n".utf8)

  /// What a snapshot was made from: the journal's length and fingerprint.
  struct Stamp: Equatable {
    var length: Int
    var fingerprint: UInt64
  }

  /// The layout: ``magic``, the stamp (length, fingerprint), the fingerprint of everything after
  /// it, the configurations (count, then each length-prefixed), then the customers (count, then
  /// each one's number, name and ``LedgerSnapshot``'s bytes, each length-prefixed).
  private static func write(
    _ ledgers: [LedgerSnapshot], configurations: [[UInt8]], stamp: Stamp, to path: String
  ) -> Bool {
    var configurationBytes = integerBytes(UInt32(configurations.count))
    for configuration in configurations {
      configurationBytes += integerBytes(UInt32(configuration.count)) + configuration
    }
    configurationBytes += integerBytes(UInt32(ledgers.count))
    var check = Fingerprint()
    configurationBytes.withUnsafeBytes { check.add($0) }
    let heads = ledgers.map { ledger in
      let name = Array((ledger.owner.customer.name ?? "").utf8)
      return integerBytes(UInt32(ledger.owner.customer.number)) + integerBytes(UInt32(name.count))
        + name + integerBytes(UInt64(ledger.encodedCount))
    }
    for (head, ledger) in zip(heads, ledgers) {
      head.withUnsafeBytes { check.add($0) }
      ledger.encoded { check.add($0) }
    }
    let head =
      magic + integerBytes(UInt64(stamp.length)) + integerBytes(stamp.fingerprint)
      + integerBytes(check.value) + configurationBytes
    let temporary = path + ".tmp-\(getpid())"
    let descriptor = open(temporary, O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0o600)
    guard descriptor >= 0 else { return false }
    var written = head.withUnsafeBytes { writeAll($0, descriptor) }
    for (head, ledger) in zip(heads, ledgers) {
      written = written && head.withUnsafeBytes { writeAll($0, descriptor) }
      ledger.encoded { piece in written = written && writeAll(piece, descriptor) }
    }
    close(descriptor)
    guard written, rename(temporary, path) == 0 else {
      unlink(temporary)
      return false
    }
    return true
  }

  /// The stamp a snapshot file starts with; `nil` when there is none.
  private static func stamp(ofSnapshot path: String) -> Stamp? {
    guard let descriptor = try? Journal.openIfPresent(path, O_RDONLY) else { return nil }
    defer { close(descriptor) }
    var head = [UInt8](repeating: 0, count: magic.count + 16)
    guard pread(descriptor, &head, head.count, 0) == head.count,
      head[..<magic.count].elementsEqual(magic)
    else { return nil }
    return Stamp(
      length: Int(integer(head, magic.count)), fingerprint: integer(head, magic.count + 8))
  }

  /// The fingerprint of a file's first `length` bytes, read a megabyte at a time; `nil` when
  /// it holds fewer.
  private static func fingerprint(_ descriptor: Int32, length: Int) -> UInt64? {
    var fingerprint = Fingerprint()
    var chunk = [UInt8](repeating: 0, count: 1 << 20)
    var offset = 0
    while offset < length {
      let count = chunk.withUnsafeMutableBytes {
        pread(descriptor, $0.baseAddress!, min($0.count, length - offset), off_t(offset))
      }
      if count < 0 && errno == EINTR { continue }
      guard count > 0 else { return nil }
      chunk.withUnsafeBytes { fingerprint.add(UnsafeRawBufferPointer(rebasing: $0[..<count])) }
      offset += count
    }
    return fingerprint.value
  }

  /// The snapshot at `path` with its latest configuration, when it was made from a journal
  /// with `stamp` and everything in it checks; `nil` otherwise.
  private static func read(_ path: String, stamp: Stamp) -> ([LedgerSnapshot], [UInt8])? {
    guard let descriptor = try? Journal.openIfPresent(path, O_RDONLY) else { return nil }
    defer { close(descriptor) }
    guard let bytes = try? Journal.readAll(descriptor, path) else { return nil }
    let bodyStart = magic.count + 24
    guard bytes.count >= bodyStart + 4, bytes[..<magic.count].elementsEqual(magic),
      Stamp(length: Int(integer(bytes, magic.count)), fingerprint: integer(bytes, magic.count + 8))
        == stamp,
      integer(bytes, magic.count + 16) == fingerprint(bytes[bodyStart...])
    else { return nil }
    var offset = bodyStart + 4
    var catalog: Catalog?
    var latest: [UInt8] = []
    for _ in 0..<UInt32(truncatingIfNeeded: integer(bytes, bodyStart, size: 4)) {
      guard bytes.count - offset >= 4 else { return nil }
      let length = Int(integer(bytes, offset, size: 4))
      offset += 4
      guard bytes.count - offset >= length else { return nil }
      latest = Array(bytes[offset..<offset + length])
      offset += length
      guard let configuration = StoreKitConfiguration.load(latest).usableConfiguration else {
        return nil
      }
      catalog = Catalog(configuration, keepingIndicesOf: catalog)
    }
    guard let catalog, let ledgers = ledgers(bytes, from: offset, catalog: catalog) else {
      return nil
    }
    return (ledgers, latest)
  }

  /// Every customer's ledger from `offset` to the end of `bytes`; `nil` when anything does not
  /// hold.
  private static func ledgers(
    _ bytes: [UInt8], from start: Int, catalog: Catalog
  ) -> [LedgerSnapshot]? {
    guard bytes.count - start >= 4 else { return nil }
    let count = Int(integer(bytes, start, size: 4))
    var offset = start + 4
    var ledgers: [LedgerSnapshot] = []
    for _ in 0..<count {
      guard bytes.count - offset >= 8 else { return nil }
      let number = Int(integer(bytes, offset, size: 4))
      let nameLength = Int(integer(bytes, offset + 4, size: 4))
      offset += 8
      guard bytes.count - offset >= nameLength + 8 else { return nil }
      let name = String(decoding: bytes[offset..<offset + nameLength], as: UTF8.self)
      let length = Int(integer(bytes, offset + nameLength, size: 8))
      offset += nameLength + 8
      guard length >= 0, bytes.count - offset >= length,
        let ledger = LedgerSnapshot(
          decoding: bytes, from: offset, to: offset + length, catalog: catalog,
          owner: Account(customer: number == 0 ? .own : Customer(name: name, number: number)))
      else { return nil }
      ledgers.append(ledger)
      offset += length
    }
    return offset == bytes.count && !ledgers.isEmpty ? ledgers : nil
  }

  private static func writeAll(_ raw: UnsafeRawBufferPointer, _ descriptor: Int32) -> Bool {
    var offset = 0
    while offset < raw.count {
      let count = Foundation.write(descriptor, raw.baseAddress! + offset, raw.count - offset)
      if count < 0 && errno == EINTR { continue }
      guard count > 0 else { return false }
      offset += count
    }
    return true
  }

  private static func integerBytes<T: FixedWidthInteger>(_ value: T) -> [UInt8] {
    withUnsafeBytes(of: value.littleEndian) { Array($0) }
  }

  /// The little-endian integer of `size` bytes at `offset` (the caller checked the length).
  private static func integer(_ bytes: [UInt8], _ offset: Int, size: Int = 8) -> UInt64 {
    (0..<size).reduce(0) { $0 | UInt64(bytes[offset + $1]) << (8 * $1) }
  }

  /// The fingerprint of `bytes` (``Fingerprint``).
  static func fingerprint(_ bytes: ArraySlice<UInt8>) -> UInt64 {
    var fingerprint = Fingerprint()
    bytes.withUnsafeBytes { fingerprint.add($0) }
    return fingerprint.value
  }
}

/// A fast 64-bit fingerprint: four multiply-mix lanes over 8-byte words, so tens of megabytes
/// take milliseconds. It tells a changed journal from the one a snapshot was made from; it is no
/// defence against someone forging both.
struct Fingerprint {
  private var lanes: (UInt64, UInt64, UInt64, UInt64) = (1, 2, 3, 4)
  /// Bytes of a block not yet whole.
  private var partial: [UInt8] = []
  private var count = 0

  /// Adds bytes, in pieces of any length.
  mutating func add(_ raw: UnsafeRawBufferPointer) {
    count += raw.count
    var offset = 0
    if !partial.isEmpty {
      offset = min(32 - partial.count, raw.count)
      partial.append(contentsOf: raw[..<offset])
      guard partial.count == 32 else { return }
      partial.withUnsafeBytes { addBlocks($0) }
      partial.removeAll(keepingCapacity: true)
    }
    let whole = (raw.count - offset) / 32 * 32
    addBlocks(UnsafeRawBufferPointer(rebasing: raw[offset..<offset + whole]))
    partial.append(contentsOf: raw[(offset + whole)...])
  }

  /// The fingerprint of everything added.
  var value: UInt64 {
    let tail = partial.enumerated().reduce(UInt64(0)) { tail, item in
      Self.mix(tail, UInt64(item.element) << (8 * UInt64(item.offset % 8)))
    }
    return [lanes.0, lanes.1, lanes.2, lanes.3, tail].reduce(UInt64(count), Self.mix)
  }

  private mutating func addBlocks(_ raw: UnsafeRawBufferPointer) {
    func word(_ at: Int) -> UInt64 {
      UInt64(littleEndian: raw.loadUnaligned(fromByteOffset: at, as: UInt64.self))
    }
    var offset = 0
    while offset < raw.count {
      lanes.0 = Self.mix(lanes.0, word(offset))
      lanes.1 = Self.mix(lanes.1, word(offset + 8))
      lanes.2 = Self.mix(lanes.2, word(offset + 16))
      lanes.3 = Self.mix(lanes.3, word(offset + 24))
      offset += 32
    }
  }

  private static func mix(_ lane: UInt64, _ word: UInt64) -> UInt64 {
    let product = (lane ^ word) &* 0x9E37_79B9_7F4A_7C15
    return product ^ (product >> 29)
  }
}
