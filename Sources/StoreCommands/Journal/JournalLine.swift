/// The integrity check every journal line carries from format 2 on: the line's JSON object ends
/// with `,"check":"XXXXXXXX"}`, eight lowercase hex digits of the CRC-32 (IEEE, zlib's) of every
/// byte before that member. A flipped digit anywhere in the line no longer matches.
public enum JournalLine {
  /// `,"check":"`
  private static let marker = Array(#","check":""#.utf8)
  /// The marker, eight hex digits, `"}`.
  private static let suffixLength = marker.count + 8 + 2

  /// Seals a JSON object (`{…}`, one line) with its check; the result ends with a newline.
  public static func sealed(_ object: [UInt8]) -> [UInt8] {
    var line = object
    line.removeLast()  // "}"
    let sum = CRC32.checksum(line[...])
    line.append(contentsOf: marker)
    for shift in stride(from: 28, through: 0, by: -4) {
      line.append(hexDigits[Int((sum >> UInt32(shift)) & 0xF)])
    }
    line.append(contentsOf: [UInt8(ascii: "\""), UInt8(ascii: "}"), 0x0A])
    return line
  }

  /// What reading a line's check found.
  enum Verdict: Equatable {
    /// The check matches; the object's members end before `end` (its closing brace excluded).
    case verified(end: Int)
    /// The line has no check (format 1).
    case unchecked
    /// The line has a check that does not match its contents.
    case mismatch
  }

  /// Reads the check at the end of a line (without its newline).
  static func verdict(_ line: ArraySlice<UInt8>) -> Verdict {
    guard line.count > suffixLength,
      line[line.endIndex - 2] == UInt8(ascii: "\""), line[line.endIndex - 1] == UInt8(ascii: "}")
    else { return .unchecked }
    let markerStart = line.endIndex - suffixLength
    guard line[markerStart..<markerStart + marker.count].elementsEqual(marker) else {
      return .unchecked
    }
    var stated: UInt32 = 0
    for byte in line[(markerStart + marker.count)..<(line.endIndex - 2)] {
      guard let digit = hexValue(byte) else { return .mismatch }
      stated = stated << 4 | digit
    }
    return CRC32.checksum(line[line.startIndex..<markerStart]) == stated
      ? .verified(end: markerStart) : .mismatch
  }

  private static let hexDigits = Array("0123456789abcdef".utf8)

  private static func hexValue(_ byte: UInt8) -> UInt32? {
    switch byte {
    case UInt8(ascii: "0")...UInt8(ascii: "9"): UInt32(byte - UInt8(ascii: "0"))
    case UInt8(ascii: "a")...UInt8(ascii: "f"): UInt32(byte - UInt8(ascii: "a") + 10)
    default: nil
    }
  }
}

/// CRC-32 (IEEE 802.3, the polynomial of zlib and PNG), a byte at a time from a table.
enum CRC32 {
  private static let table: [UInt32] = (0..<256).map { index in
    var value = UInt32(index)
    for _ in 0..<8 { value = value & 1 == 1 ? 0xEDB8_8320 ^ (value >> 1) : value >> 1 }
    return value
  }

  /// The checksum of `bytes`.
  static func checksum(_ bytes: ArraySlice<UInt8>) -> UInt32 {
    var crc: UInt32 = 0xFFFF_FFFF
    table.withUnsafeBufferPointer { table in
      bytes.withUnsafeBufferPointer { buffer in
        for byte in buffer { crc = table[Int((crc ^ UInt32(byte)) & 0xFF)] ^ (crc >> 8) }
      }
    }
    return crc ^ 0xFFFF_FFFF
  }
}
