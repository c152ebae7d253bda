/// Writes JSON exactly as Xcode writes `.storekit` files.
///
/// Xcode's format: two-space indentation, `"key" : value`, keys sorted case-insensitively,
/// empty arrays and objects split over an empty line (`[\n\n  ]`), raw UTF-8, `/` unescaped and
/// numbers written with the text they were read with.
public enum JSONWriter {
  /// The document as Xcode-formatted UTF-8 bytes, ending with its trailing white space.
  ///
  /// - Complexity: O(*n* log *k*) for *n* values and objects of at most *k* members.
  public static func xcodeFormatted(_ document: JSONDocument) -> [UInt8] {
    var output: [UInt8] = []
    output.reserveCapacity(4096)
    write(document.root, indent: 0, to: &output)
    output.append(contentsOf: document.trailingWhitespace.utf8)
    return output
  }

  /// Orders keys the way Xcode does: case-insensitively, byte order breaking ties.
  public static func xcodeKeyOrder(_ lhs: String, _ rhs: String) -> Bool {
    let left = lhs.lowercased()
    let right = rhs.lowercased()
    return left == right ? lhs < rhs : left < right
  }

  private static func write(_ value: JSONValue, indent: Int, to output: inout [UInt8]) {
    switch value {
    case .object(let object):
      output.append(UInt8(ascii: "{"))
      let members = object.members.sorted { xcodeKeyOrder($0.key, $1.key) }
      if members.isEmpty {
        output.append(contentsOf: [0x0A, 0x0A])
      } else {
        for (position, member) in members.enumerated() {
          output.append(contentsOf: position == 0 ? [0x0A] : [UInt8(ascii: ","), 0x0A])
          spaces(indent + 1, to: &output)
          string(member.key, to: &output)
          output.append(contentsOf: Array(" : ".utf8))
          write(member.value, indent: indent + 1, to: &output)
        }
        output.append(0x0A)
      }
      spaces(indent, to: &output)
      output.append(UInt8(ascii: "}"))
    case .array(let elements):
      output.append(UInt8(ascii: "["))
      if elements.isEmpty {
        output.append(contentsOf: [0x0A, 0x0A])
      } else {
        for (position, element) in elements.enumerated() {
          output.append(contentsOf: position == 0 ? [0x0A] : [UInt8(ascii: ","), 0x0A])
          spaces(indent + 1, to: &output)
          write(element, indent: indent + 1, to: &output)
        }
        output.append(0x0A)
      }
      spaces(indent, to: &output)
      output.append(UInt8(ascii: "]"))
    case .string(let text): string(text, to: &output)
    case .number(let number): output.append(contentsOf: number.text.utf8)
    case .bool(let flag): output.append(contentsOf: (flag ? "true" : "false").utf8)
    case .null: output.append(contentsOf: "null".utf8)
    }
  }

  private static func spaces(_ level: Int, to output: inout [UInt8]) {
    output.append(contentsOf: repeatElement(UInt8(ascii: " "), count: level * 2))
  }

  /// Escapes as Foundation's JSON writer does with unescaped slashes: `\"`, `\\`, the short
  /// forms of common control characters and `\u00XX` for the rest.
  static func string(_ text: String, to output: inout [UInt8]) {
    output.append(UInt8(ascii: "\""))
    for byte in text.utf8 {
      switch byte {
      case UInt8(ascii: "\""): output.append(contentsOf: [0x5C, UInt8(ascii: "\"")])
      case UInt8(ascii: "\\"): output.append(contentsOf: [0x5C, 0x5C])
      case 0x0A: output.append(contentsOf: [0x5C, UInt8(ascii: "n")])
      case 0x0D: output.append(contentsOf: [0x5C, UInt8(ascii: "r")])
      case 0x09: output.append(contentsOf: [0x5C, UInt8(ascii: "t")])
      case 0x08: output.append(contentsOf: [0x5C, UInt8(ascii: "b")])
      case 0x0C: output.append(contentsOf: [0x5C, UInt8(ascii: "f")])
      case 0..<0x20:
        let digits = Array("0123456789abcdef".utf8)
        output.append(contentsOf: Array("\\u00".utf8))
        output.append(digits[Int(byte >> 4)])
        output.append(digits[Int(byte & 0xF)])
      default: output.append(byte)
      }
    }
    output.append(UInt8(ascii: "\""))
  }
}
