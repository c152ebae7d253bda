extension String {
  /// The text with everything a terminal could act on made visible: C0 and C1 control
  /// characters, DEL and bidirectional overrides become `\u{1B}`-style escapes.
  ///
  /// Text from configuration files and journals is untrusted; pass it through this before it
  /// reaches a terminal.
  public var sanitizedForTerminal: String {
    guard unicodeScalars.contains(where: \.isUnsafeForTerminal) else { return self }
    var result = String.UnicodeScalarView()
    for scalar in unicodeScalars {
      if scalar.isUnsafeForTerminal {
        result.append(
          contentsOf: "\\u{\(String(scalar.value, radix: 16, uppercase: true))}".unicodeScalars)
      } else {
        result.append(scalar)
      }
    }
    return String(result)
  }
}

extension Unicode.Scalar {
  /// Control characters, DEL, C1 controls and the bidirectional embedding, override and
  /// isolate characters.
  public var isUnsafeForTerminal: Bool {
    switch value {
    case 0..<0x20, 0x7F...0x9F, 0x202A...0x202E, 0x2066...0x2069: true
    default: false
    }
  }
}
