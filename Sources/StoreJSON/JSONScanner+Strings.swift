/// Strings: escapes, surrogate pairs, and what a string may not hold.
extension JSONScanner {
  mutating func string() throws(ScanFailure) -> String {
    let quote = index
    index += 1
    let start = index
    // Fast path: no escapes.
    while index < bytes.count {
      let byte = bytes[index]
      if byte == UInt8(ascii: "\"") {
        let result = text(start..<index)
        index += 1
        return result
      }
      if byte == UInt8(ascii: "\\") { break }
      if byte < 0x20 {
        throw ScanFailure(
          message: "a control character (0x\(hex(byte))) inside a string must be escaped",
          offset: index)
      }
      index += 1
    }
    var scalars = String.UnicodeScalarView()
    scalars.append(contentsOf: text(start..<index).unicodeScalars)
    var utf8: [UInt8] = []
    func flush() {
      if !utf8.isEmpty {
        scalars.append(contentsOf: String(decoding: utf8, as: UTF8.self).unicodeScalars)
        utf8.removeAll(keepingCapacity: true)
      }
    }
    while index < bytes.count {
      let byte = bytes[index]
      switch byte {
      case UInt8(ascii: "\""):
        index += 1
        flush()
        return String(scalars)
      case UInt8(ascii: "\\"):
        flush()
        scalars.append(try escape())
      case 0..<0x20:
        throw ScanFailure(
          message: "a control character (0x\(hex(byte))) inside a string must be escaped",
          offset: index)
      default:
        utf8.append(byte)
        index += 1
      }
    }
    throw ScanFailure(message: "the string is not closed: expected '\"'", offset: quote)
  }

  mutating func escape() throws(ScanFailure) -> Unicode.Scalar {
    let start = index
    index += 1
    guard index < bytes.count else {
      throw ScanFailure(message: "the escape sequence is cut off", offset: start)
    }
    let byte = bytes[index]
    index += 1
    switch byte {
    case UInt8(ascii: "\""): return "\""
    case UInt8(ascii: "\\"): return "\\"
    case UInt8(ascii: "/"): return "/"
    case UInt8(ascii: "b"): return "\u{08}"
    case UInt8(ascii: "f"): return "\u{0C}"
    case UInt8(ascii: "n"): return "\n"
    case UInt8(ascii: "r"): return "\r"
    case UInt8(ascii: "t"): return "\t"
    case UInt8(ascii: "u"):
      let high = try hexQuad(escapeStart: start)
      if (0xD800..<0xDC00).contains(high) {
        let lowStart = index
        guard index + 1 < bytes.count, bytes[index] == UInt8(ascii: "\\"),
          bytes[index + 1] == UInt8(ascii: "u")
        else {
          throw ScanFailure(message: "a lone high surrogate \\u\(hex4(high))", offset: start)
        }
        index += 2
        let low = try hexQuad(escapeStart: lowStart)
        guard (0xDC00..<0xE000).contains(low) else {
          throw ScanFailure(message: "a high surrogate without its low half", offset: start)
        }
        return Unicode.Scalar(0x10000 + ((high - 0xD800) << 10) + (low - 0xDC00))!
      }
      guard let scalar = Unicode.Scalar(high) else {
        throw ScanFailure(message: "a lone low surrogate \\u\(hex4(high))", offset: start)
      }
      return scalar
    default:
      throw ScanFailure(
        message: "an unknown escape sequence \\\(describeByte(at: index - 1))", offset: start)
    }
  }

  mutating func hexQuad(escapeStart: Int) throws(ScanFailure) -> UInt32 {
    var value: UInt32 = 0
    for _ in 0..<4 {
      guard index < bytes.count, let digit = hexDigitValue(bytes[index]) else {
        throw ScanFailure(message: "\\u must be followed by four hex digits", offset: escapeStart)
      }
      value = value << 4 | UInt32(digit)
      index += 1
    }
    return value
  }
}

private func hexDigitValue(_ byte: UInt8) -> UInt8? {
  switch byte {
  case UInt8(ascii: "0")...UInt8(ascii: "9"): byte - UInt8(ascii: "0")
  case UInt8(ascii: "a")...UInt8(ascii: "f"): byte - UInt8(ascii: "a") + 10
  case UInt8(ascii: "A")...UInt8(ascii: "F"): byte - UInt8(ascii: "A") + 10
  default: nil
  }
}

func hex(_ byte: UInt8) -> String {
  let digits = Array("0123456789ABCDEF")
  return String([digits[Int(byte >> 4)], digits[Int(byte & 0xF)]])
}

func hex4(_ value: UInt32) -> String {
  hex(UInt8(value >> 8)) + hex(UInt8(value & 0xFF))
}
