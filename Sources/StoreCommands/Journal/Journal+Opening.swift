import Foundation

extension Journal {
  /// Opens the journal at `path` for writing and takes its lock; creates it with `header` when
  /// there is none. A file that holds no complete header (its creation was cut off, so nothing
  /// from it was ever shown) is started anew, and said so in ``notices``; a torn last line (the
  /// process died mid-write) is moved to `PATH.torn`.
  ///
  /// - Throws: ``CommandError`` when another storekeeper holds the journal, when it cannot be
  ///   read or created, or naming the line of damage.
  public static func openOrCreate(
    at path: String, header: JournalHeader, files: JournalFiles = .system
  ) throws(CommandError) -> Journal {
    // Each turn either settles or sees the file change under it (created, moved aside or
    // replaced by another storekeeper at that moment), which cannot go on for long.
    for _ in 0..<8 {
      guard let descriptor = try openIfPresent(path, O_RDWR | O_APPEND) else {
        if let created = try create(at: path, header: header, files: files, replacing: false) {
          created.removeStaleTemporaries()
          return created
        }
        continue  // another storekeeper created it first: open theirs
      }
      var handedOver = false
      defer { if !handedOver { close(descriptor) } }
      try lock(descriptor, path)
      guard isNamed(path, descriptor) else { continue }
      let bytes = try readAll(descriptor, path)
      let contents = try JournalContents(bytes, path: path)
      guard let existing = contents.header else {
        var notices = [
          "\(path) held no complete header (\(bytes.count) bytes; its creation was cut off); "
            + "nothing from it was ever shown, so it starts anew"
        ]
        if !bytes.isEmpty {
          notices.append(try keepAside(bytes[...], of: path, files: files))
        }
        guard let created = try create(at: path, header: header, files: files, replacing: true)
        else { continue }
        created.notices = notices
        created.removeStaleTemporaries()
        return created
      }
      var notices = unfinishedNotice(path).map { [$0] } ?? []
      var length = bytes.count
      if let torn = contents.tornTailStart {
        notices.append(try keepAside(bytes[torn...], of: path, files: files))
        try files.truncate(descriptor, to: torn, path: path)
        try files.sync(descriptor, path: path)
        length = torn
      }
      handedOver = true
      let journal = Journal(
        path: path, header: existing, records: contents.records, notices: notices,
        descriptor: descriptor, writable: true, files: files, length: length)
      journal.removeStaleTemporaries()
      return journal
    }
    throw CommandError("\(path) keeps changing while storekeeper opens it; try again")
  }

  /// Makes a journal whole under a temporary name (locked, header written and flushed), then
  /// names it `path`: after a `link` that fails when `path` exists (`nil` then), or `replacing`
  /// by a rename.
  private static func create(
    at path: String, header: JournalHeader, files: JournalFiles, replacing: Bool
  ) throws(CommandError) -> Journal? {
    let (temporary, descriptor) = try files.createTemporary(beside: path)
    var handedOver = false
    defer {
      if !handedOver {
        close(descriptor)
        try? files.unlink(temporary)
      }
    }
    try lock(descriptor, temporary)
    let line = header.line
    try files.write(line, to: descriptor, path: temporary)
    try files.sync(descriptor, path: temporary)
    if replacing {
      try files.rename(temporary, path)
    } else {
      guard try files.link(temporary, path) else { return nil }
      try files.unlink(temporary)
    }
    try files.syncFolder(of: path)
    handedOver = true
    return Journal(
      path: path, header: header, records: [], notices: [], descriptor: descriptor,
      writable: true, files: files, length: line.count)
  }

  /// Moves the journal at `path` aside (`NAME.1.journal`, `NAME.2.journal` …, never replacing
  /// one) so that a new one can start, after taking its lock; the old one is kept.
  ///
  /// - Returns: where it went, or `nil` when there was none.
  /// - Throws: ``CommandError`` when another storekeeper holds it, or it cannot be moved.
  public static func setAside(
    _ path: String, files: JournalFiles = .system
  ) throws(CommandError) -> String? {
    guard let descriptor = try openIfPresent(path, O_RDWR) else { return nil }
    defer { close(descriptor) }
    try lock(descriptor, path)
    let base = path.hasSuffix(".journal") ? String(path.dropLast(8)) : path
    var counter = 1
    while !(try files.link(path, "\(base).\(counter).journal")) { counter += 1 }
    try files.unlink(path)
    try files.syncFolder(of: path)
    return "\(base).\(counter).journal"
  }

  /// Writes bytes that cannot be replayed to `PATH.torn` (or `.torn.N`) so nothing is thrown
  /// away; returns the notice.
  private static func keepAside(
    _ tail: ArraySlice<UInt8>, of path: String, files: JournalFiles
  ) throws(CommandError) -> String {
    var sidecar = path + ".torn"
    var counter = 1
    while access(sidecar, F_OK) == 0 {
      sidecar = path + ".torn.\(counter)"
      counter += 1
    }
    try files.writeWhole(Array(tail), to: sidecar)
    return "\(path): the last line was cut off mid-write (\(tail.count) bytes); moved to \(sidecar)"
  }

  /// Whether `path` still names the file open at `descriptor` (it may have been moved aside or
  /// replaced between opening and locking).
  private static func isNamed(_ path: String, _ descriptor: Int32) -> Bool {
    var open = stat()
    var named = stat()
    guard fstat(descriptor, &open) == 0, stat(path, &named) == 0 else { return false }
    return open.st_dev == named.st_dev && open.st_ino == named.st_ino
  }

  /// Removes temporary files left beside the journal by creations that were cut off: another
  /// name of this journal, or a file no storekeeper holds.
  func removeStaleTemporaries() {
    let url = URL(fileURLWithPath: path)
    let folder = url.deletingLastPathComponent().path
    let prefix = ".\(url.lastPathComponent)\(JournalFiles.temporaryMarker)"
    guard let names = try? FileManager.default.contentsOfDirectory(atPath: folder) else { return }
    var own = stat()
    guard fstat(descriptor, &own) == 0 else { return }
    for name in names where name.hasPrefix(prefix) {
      let candidate = folder + "/" + name
      var found = stat()
      guard lstat(candidate, &found) == 0 else { continue }
      if found.st_dev == own.st_dev && found.st_ino == own.st_ino {
        try? files.unlink(candidate)
        continue
      }
      let other = Foundation.open(candidate, O_RDONLY | O_CLOEXEC)
      guard other >= 0 else { continue }
      if flock(other, LOCK_EX | LOCK_NB) == 0 { try? files.unlink(candidate) }
      close(other)
    }
  }
}
