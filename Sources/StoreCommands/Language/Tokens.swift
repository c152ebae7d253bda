/// Splitting a line into words: white space separates, `"…"` quotes a word that holds spaces
/// (with `\"` and `\\` inside), and `#` outside quotes starts a comment.
enum Tokens {
  /// The words of `line`.
  static func split(_ line: String) throws(CommandError) -> [String] {
    var words: [String] = []
    var current = ""
    var inWord = false
    var quoted = false
    var escaping = false
    for character in line {
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
    if inWord { words.append(current) }
    return words
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
