extension JSONWriter {
  /// The value on one line with keys in their given order, for JSON lines and machine-readable
  /// output. Control characters, DEL and C1 controls are escaped as `\u00XX` so that the output
  /// is safe to print on a terminal.
  public static func compact(_ value: JSONValue) -> String {
    withCompact(value) { String(decoding: $0, as: UTF8.self) }
  }

  /// Calls `body` with the compact form of `value`, written once into a buffer of its own (a
  /// payload about to be signed need not become a string first).
  public static func withCompact<Result>(
    _ value: JSONValue, _ body: (UnsafeBufferPointer<UInt8>) throws -> Result
  ) rethrows -> Result {
    var writer = ByteWriter(capacity: 1024)
    compact(value, to: &writer)
    return try writer.withBytes(body)
  }

  /// Appends the compact form of `value` to a writer.
  package static func compact(_ value: JSONValue, to output: inout ByteWriter) {
    switch value {
    case .object(let object):
      output.append(UInt8(ascii: "{"))
      for (position, member) in object.members.enumerated() {
        if position > 0 { output.append(UInt8(ascii: ",")) }
        safeString(member.key, to: &output)
        output.append(UInt8(ascii: ":"))
        compact(member.value, to: &output)
      }
      output.append(UInt8(ascii: "}"))
    case .array(let elements):
      output.append(UInt8(ascii: "["))
      for (position, element) in elements.enumerated() {
        if position > 0 { output.append(UInt8(ascii: ",")) }
        compact(element, to: &output)
      }
      output.append(UInt8(ascii: "]"))
    case .string(let text): safeString(text, to: &output)
    case .number(let number): output.append(number.text)
    case .bool(let flag): output.append(flag ? "true" : "false")
    case .null: output.append("null")
    }
  }

  /// A JSON string with every scalar a terminal could act on escaped (controls, DEL, C1
  /// controls and bidirectional controls as `\u00XX`).
  public static func safeString(_ text: String, to output: inout [UInt8]) {
    var text = text
    text.withUTF8 { bytes in
      var writer = ByteWriter(capacity: bytes.count + 16)
      safeString(utf8: bytes, to: &writer)
      writer.withBytes { output.append(contentsOf: $0) }
    }
  }

  /// ``safeString(_:to:)`` into a writer.
  package static func safeString(_ text: String, to output: inout ByteWriter) {
    if text.utf8.withContiguousStorageIfAvailable({ safeString(utf8: $0, to: &output) }) == nil {
      Array(text.utf8).withUnsafeBufferPointer { safeString(utf8: $0, to: &output) }
    }
  }

  /// ``safeString(_:to:)`` over valid UTF-8, worked out on the bytes: runs of plain text are
  /// copied at once.
  package static func safeString(
    utf8 bytes: UnsafeBufferPointer<UInt8>, to output: inout ByteWriter
  ) {
    output.append(UInt8(ascii: "\""))
    var copied = 0
    var index = 0
    let count = bytes.count
    while index < count {
      index = plainRun(in: bytes, from: index)
      guard index < count else { break }
      let byte = bytes[index]
      if byte >= 0x20 && byte < 0x7F && byte != 0x22 && byte != 0x5C {
        index += 1
        continue
      }
      var length = 1
      var scalar = UInt32(byte)
      if byte >= 0x80 {
        // Only C1 controls (C2 80–9F) and U+202A–202E, U+2066–2069 (E2 80 AA–AE, E2 81 A6–A9)
        // are unsafe beyond ASCII.
        if byte == 0xC2, index + 1 < count, bytes[index + 1] <= 0x9F {
          length = 2
          scalar = UInt32(bytes[index + 1])
        } else if byte == 0xE2, index + 2 < count,
          (bytes[index + 1] == 0x80 && (0xAA...0xAE).contains(bytes[index + 2]))
            || (bytes[index + 1] == 0x81 && (0xA6...0xA9).contains(bytes[index + 2]))
        {
          length = 3
          scalar = 0x2000 | UInt32(bytes[index + 1] & 0x3F) << 6 | UInt32(bytes[index + 2] & 0x3F)
        } else {
          index += 1
          continue
        }
      }
      output.append(UnsafeBufferPointer(rebasing: bytes[copied..<index]))
      appendEscape(scalar, to: &output)
      index += length
      copied = index
    }
    output.append(UnsafeBufferPointer(rebasing: bytes[copied..<count]))
    output.append(UInt8(ascii: "\""))
  }

  /// Where the run of plain printable ASCII (no `"` or `\\`) starting at `index` ends, eight
  /// bytes at a time: a word is plain when no byte is below 0x20, at or above 0x7F, `"` or `\\`
  /// (the tests may flag a plain word, never miss one that is not; the byte loop decides).
  @inline(__always)
  private static func plainRun(in bytes: UnsafeBufferPointer<UInt8>, from index: Int) -> Int {
    let ones: UInt64 = 0x0101_0101_0101_0101
    let highs: UInt64 = 0x8080_8080_8080_8080
    var index = index
    guard let base = bytes.baseAddress else { return index }
    while index + 8 <= bytes.count {
      let word = UnsafeRawPointer(base + index).loadUnaligned(as: UInt64.self)
      let quote = word ^ (ones &* 0x22)
      let backslash = word ^ (ones &* 0x5C)
      let below = (word &- ones &* 0x20) & ~word
      let above = (word &+ ones) | word
      let zeroQuote = (quote &- ones) & ~quote
      let zeroBackslash = (backslash &- ones) & ~backslash
      guard (below | above | zeroQuote | zeroBackslash) & highs == 0 else { break }
      index += 8
    }
    return index
  }

  private static func appendEscape(_ scalar: UInt32, to output: inout ByteWriter) {
    output.append(0x5C)
    switch scalar {
    case 0x22: output.append(UInt8(ascii: "\""))
    case 0x5C: output.append(0x5C)
    case 0x0A: output.append(UInt8(ascii: "n"))
    case 0x0D: output.append(UInt8(ascii: "r"))
    case 0x09: output.append(UInt8(ascii: "t"))
    case 0x08: output.append(UInt8(ascii: "b"))
    case 0x0C: output.append(UInt8(ascii: "f"))
    default:
      let digits: StaticString = "0123456789abcdef"
      output.append(UInt8(ascii: "u"))
      for shift: UInt32 in [12, 8, 4, 0] {
        output.append(digits.utf8Start[Int(scalar >> shift & 0xF)])
      }
    }
  }
}
