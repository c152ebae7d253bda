extension JSONWriter {
  /// The value on one line with keys in their given order, for JSON lines and machine-readable
  /// output. Control characters, DEL and C1 controls are escaped as `\u00XX` so that the output
  /// is safe to print on a terminal.
  public static func compact(_ value: JSONValue) -> String {
    var output: [UInt8] = []
    compact(value, to: &output)
    return String(decoding: output, as: UTF8.self)
  }

  /// Appends the compact form of `value` to `output`.
  public static func compact(_ value: JSONValue, to output: inout [UInt8]) {
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
    case .number(let number): output.append(contentsOf: number.text.utf8)
    case .bool(let flag): output.append(contentsOf: (flag ? "true" : "false").utf8)
    case .null: output.append(contentsOf: "null".utf8)
    }
  }

  /// A JSON string with every scalar a terminal could act on escaped.
  public static func safeString(_ text: String, to output: inout [UInt8]) {
    guard text.unicodeScalars.contains(where: { $0.value >= 0x7F && $0.isUnsafeForTerminal })
    else {
      string(text, to: &output)
      return
    }
    output.append(UInt8(ascii: "\""))
    for scalar in text.unicodeScalars {
      if scalar.value >= 0x7F && scalar.isUnsafeForTerminal {
        let hex = String(scalar.value, radix: 16)
        output.append(
          contentsOf: Array("\\u\(String(repeating: "0", count: 4 - hex.count))\(hex)".utf8))
      } else {
        var piece: [UInt8] = []
        string(String(scalar), to: &piece)
        output.append(contentsOf: piece.dropFirst().dropLast())
      }
    }
    output.append(UInt8(ascii: "\""))
  }
}
