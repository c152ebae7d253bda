/// Splitting a line into words: white space separates, `"…"` quotes a word that holds spaces
/// (with `\"` and `\\` inside), and `#` outside quotes starts a comment. A JSON object or array
/// is a word as written, spaces and quotes included: one starting a word (`{"header": "Stay"}`)
/// or a `key=` value (`answer={"message": {…}}`) runs to its closing brace or bracket.
enum Tokens {
  /// Where a JSON value being read stands: how deep, and whether in one of its strings.
  private struct JSONScan {
    var depth = 0
    var inString = false
    var escaping = false

    /// Takes the next character; whether the value is still open after it.
    mutating func take(_ character: Character) -> Bool {
      if inString {
        if escaping {
          escaping = false
        } else if character == "\\" {
          escaping = true
        } else if character == "\"" {
          inString = false
        }
        return true
      }
      switch character {
      case "\"": inString = true
      case "{", "[": depth += 1
      case "}", "]": depth -= 1
      default: break
      }
      return depth > 0
    }
  }

  /// Whether a JSON value may start here: at a word's start, or right after its `key=`.
  private static func startsJSON(_ character: Character, after current: String) -> Bool {
    guard character == "{" || character == "[" else { return false }
    guard !current.isEmpty else { return true }
    return current.last == "=" && current.dropLast().allSatisfy { $0.isLetter || $0 == "-" }
  }

  /// The words of `line`.
  static func split(_ line: String) throws(CommandError) -> [String] {
    if let words = splitPlainASCII(line) { return words }
    var words: [String] = []
    var current = ""
    var inWord = false
    var quoted = false
    var escaping = false
    var json: JSONScan?
    for character in line {
      if var scan = json {
        current.append(character)
        json = scan.take(character) ? scan : nil
        continue
      }
      if !quoted, startsJSON(character, after: current) {
        var scan = JSONScan()
        _ = scan.take(character)
        json = scan
        current.append(character)
        inWord = true
        continue
      }
      if quoted {
        if escaping {
          current.append(character)
          escaping = false
        } else if character == "\\" {
          escaping = true
        } else if character == "\"" {
          quoted = false
        } else {
          current.append(character)
        }
        continue
      }
      if character == "#" { break }
      if character.isWhitespace {
        if inWord {
          words.append(current)
          current = ""
          inWord = false
        }
        continue
      }
      inWord = true
      if character == "\"" { quoted = true } else { current.append(character) }
    }
    if quoted { throw CommandError("a quote is not closed") }
    if json != nil { throw CommandError("a JSON value is not closed: \(current.prefix(60))") }
    if inWord { words.append(current) }
    return words
  }

  /// The common case, read byte by byte: ASCII with no quotes, comments or tabs.
  private static func splitPlainASCII(_ line: String) -> [String]? {
    let utf8 = line.utf8
    return utf8.withContiguousStorageIfAvailable { bytes -> [String]? in
      var words: [String] = []
      var start = -1
      for index in bytes.indices {
        let byte = bytes[index]
        if byte >= 0x80 || byte == UInt8(ascii: "\"") || byte == UInt8(ascii: "#")
          || byte == UInt8(ascii: "{") || byte == UInt8(ascii: "[") || (byte < 0x20 && byte != 0x20)
        {
          return nil
        }
        if byte == 0x20 {
          if start >= 0 {
            words.append(
              String(decoding: UnsafeBufferPointer(rebasing: bytes[start..<index]), as: UTF8.self))
            start = -1
          }
        } else if start < 0 {
          start = index
        }
      }
      if start >= 0 {
        words.append(
          String(decoding: UnsafeBufferPointer(rebasing: bytes[start...]), as: UTF8.self))
      }
      return words
    } ?? nil
  }

  /// A word as it must be written to read back the same: quoted when it is empty or holds
  /// white space, quotes, backslashes or `#`.
  static func quote(_ word: String) -> String {
    // `key=value`: only the value is quoted, as people write it.
    if let equals = word.firstIndex(of: "="), equals != word.startIndex,
      word[..<equals].allSatisfy({ $0.isLetter || $0 == "-" })
    {
      let value = String(word[word.index(after: equals)...])
      if let colon = value.firstIndex(of: ":"), value[..<colon].allSatisfy(\.isLetter) {
        return word[...equals] + value[...colon]
          + quoteWhole(String(value[value.index(after: colon)...]))
      }
      return word[...equals] + quoteWhole(value)
    }
    return quoteWhole(word)
  }

  private static func quoteWhole(_ word: String) -> String {
    let plain =
      !word.isEmpty
      && word.utf8.allSatisfy {
        $0 > 0x20 && $0 < 0x80 && $0 != UInt8(ascii: "\"") && $0 != UInt8(ascii: "\\")
          && $0 != UInt8(ascii: "#")
      }
    if plain { return word }
    let needsQuotes =
      word.isEmpty
      || word.contains { $0.isWhitespace || $0 == "\"" || $0 == "\\" || $0 == "#" }
    guard needsQuotes else { return word }
    var result = "\""
    for character in word {
      if character == "\"" || character == "\\" { result.append("\\") }
      result.append(character)
    }
    return result + "\""
  }
}

extension Command {
  /// The lines of a script (a file, a request's body): split at each line feed, a carriage
  /// return before it dropped, so that CRLF and LF scripts read alike; a last line without its
  /// line feed is a line too. Bytes that are not UTF-8 read as U+FFFD.
  public static func scriptLines(_ bytes: [UInt8]) -> [String] {
    var lines: [String] = []
    var start = 0
    while start < bytes.count {
      let end = bytes[start...].firstIndex(of: 0x0A) ?? bytes.count
      var last = end
      if last > start && bytes[last - 1] == 0x0D { last -= 1 }
      lines.append(String(decoding: bytes[start..<last], as: UTF8.self))
      start = end + 1
    }
    return lines
  }
}
