import Foundation

/// What a journal file's bytes hold: a header, the records after it, and a torn tail (bytes after
/// the last newline, left by a write cut off mid-way). Reading is pure: the same bytes give the
/// same contents or the same error.
struct JournalContents {
  /// The header, or `nil` when the file holds no complete first line (its creation was cut off
  /// before the header reached the disk, so nothing from it was ever shown).
  var header: JournalHeader?
  /// The records, in order.
  var records: [JournalRecord] = []
  /// Where the torn tail starts, if there is one.
  var tornTailStart: Int?

  /// Reads `bytes`, the contents of the journal at `path` (named in errors).
  ///
  /// - Throws: ``CommandError`` naming the line of a damaged record (a check that does not
  ///   match, a line that is not a record) with how to keep the records before it; a header
  ///   that is damaged or from a newer storekeeper.
  init(_ bytes: [UInt8], path: String) throws(CommandError) {
    var lineStart = 0
    var lineNumber = 0
    var dates = DateCache()
    var format = 1
    while let newline = bytes[lineStart...].firstIndex(of: 0x0A) {
      let line = bytes[lineStart..<newline]
      lineNumber += 1
      let members: ArraySlice<UInt8>
      switch JournalLine.verdict(line) {
      case .verified(let end): members = line[line.startIndex..<end]
      case .mismatch:
        throw Self.damage(path, line: lineNumber, "its check does not match its contents")
      case .unchecked:
        guard lineNumber == 1 || format < 2 else {
          throw Self.damage(path, line: lineNumber, "it has no check")
        }
        members = line.last == UInt8(ascii: "}") ? line.dropLast() : line
      }
      if lineNumber == 1 {
        do throws(CommandError) {
          header = try JournalHeader(parsing: members)
        } catch {
          throw CommandError("\(path):1: \(error.message)")
        }
        format = header?.format ?? 1
        if format >= 2, case .unchecked = JournalLine.verdict(line) {
          throw Self.damage(path, line: 1, "the header has no check")
        }
      } else if let record = JournalRecord(parsing: members, dates: &dates) {
        records.append(record)
      } else {
        throw Self.damage(path, line: lineNumber, "it is not a journal record")
      }
      lineStart = newline + 1
    }
    if lineStart < bytes.count {
      if header == nil {
        // A first line without its newline: the header itself was cut off.
        tornTailStart = 0
      } else {
        tornTailStart = lineStart
      }
    }
  }

  /// A damaged line, with how to keep what came before it.
  static func damage(_ path: String, line: Int, _ reason: String) -> CommandError {
    guard line > 1 else {
      return CommandError(
        "\(path):1: the journal's header is damaged (\(reason)); nothing in it can be trusted. "
          + "Start a new journal with --fresh (the damaged one is kept beside it).")
    }
    return CommandError(
      "\(path):\(line): the journal is damaged here (\(reason)). \(recovery(path, line: line))")
  }

  /// How to go on from the records before `line`: they are intact, and a shell line keeps them.
  static func recovery(_ path: String, line: Int) -> String {
    let kept = line - 1
    let quoted = "'\(path.replacingOccurrences(of: "'", with: "'\\''"))'"
    let damaged = "'\(path.replacingOccurrences(of: "'", with: "'\\''")).damaged'"
    return "The \(kept - 1) record\(kept - 1 == 1 ? "" : "s") before it are intact; to go on from "
      + "them: mv \(quoted) \(damaged) && head -n \(kept) \(damaged) > \(quoted)"
  }
}
