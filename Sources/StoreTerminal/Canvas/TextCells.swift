#if canImport(Glibc)
  import Glibc
#elseif canImport(Darwin)
  import Darwin
#endif

/// The C library's `wcwidth`, which ncurses measures with, found at run time (Swift's Glibc
/// module does not export it).
private let libraryWidth: @convention(c) (Int32) -> Int32 = {
  #if canImport(Glibc)
    let handle = dlopen(nil, RTLD_NOW)
  #else
    let handle = UnsafeMutableRawPointer(bitPattern: -2)  // RTLD_DEFAULT
  #endif
  guard let symbol = dlsym(handle, "wcwidth") else { return { $0 < 0x7F ? 1 : 1 } }
  return unsafeBitCast(symbol, to: (@convention(c) (Int32) -> Int32).self)
}()

/// Text measured and cut in terminal cells, the way the C library's `wcwidth` (and so ncurses)
/// measures it: CJK characters take two cells, combining marks none.
package enum TextCells {
  /// Selects a UTF-8 character type so that `wcwidth` knows wide characters. Returns whether
  /// one is in force.
  @discardableResult
  package static func prepareLocale() -> Bool {
    for name in ["", "C.UTF-8", "C.utf8", "en_US.UTF-8"] {
      if let result = setlocale(LC_CTYPE, name),
        String(cString: result).lowercased().contains("utf")
      {
        return true
      }
    }
    return false
  }

  /// Plain ASCII for `text`: the symbols the views use become their ASCII forms (`→` `->`,
  /// `·` `-`, `×` `x`, `…` `...`, box lines `-|+`, currency signs their codes), anything else
  /// outside ASCII a `?` per cell.
  package static func ascii(_ text: String) -> String {
    guard text.unicodeScalars.contains(where: { $0.value >= 0x80 }) else { return text }
    var result = ""
    for scalar in text.unicodeScalars {
      if scalar.value < 0x80 {
        result.unicodeScalars.append(scalar)
      } else if let replacement = asciiForms[scalar] {
        result += replacement
      } else if scalar.value == 0x200D || (0xFE00...0xFE0F).contains(scalar.value)
        || libraryWidth(Int32(bitPattern: scalar.value)) == 0
      {
        continue
      } else {
        result += libraryWidth(Int32(bitPattern: scalar.value)) == 2 ? "??" : "?"
      }
    }
    return result
  }

  private static let asciiForms: [Unicode.Scalar: String] = [
    "→": "->", "←": "<-", "↑": "^", "↓": "v", "·": "-", "×": "x", "…": "...", "▶": ">",
    "▸": ">", "■": "=", "●": "*", "◆": "*", "⚠": "!", "✓": "v", "✗": "x", "─": "-", "│": "|",
    "┌": "+", "┐": "+", "└": "+", "┘": "+", "├": "+", "┤": "+", "£": "GBP ", "€": "EUR ",
    "¥": "JPY ", "₩": "KRW ", "₹": "INR ", "“": "\"", "”": "\"", "‘": "'", "’": "'", "–": "-",
    "—": "-", "\u{A0}": " ",
  ]

  /// The cells of one character cluster: its text and width (1 or 2).
  package struct Cluster: Equatable, Sendable {
    /// What to draw in the cell.
    package var text: String
    /// How many cells it takes.
    package var width: Int
  }

  /// The clusters of `text` as a terminal shows them. Control and escape characters are made
  /// visible (`\u{1B}`), joiners and variation selectors are dropped (joined emoji become their
  /// parts, as wide as `wcwidth` says), and unprintable characters become `?`.
  package static func clusters(_ text: String) -> [Cluster] {
    var result: [Cluster] = []
    result.reserveCapacity(text.utf8.count)
    for scalar in text.sanitizedForTerminal.unicodeScalars {
      if scalar.value < 0x80 {
        result.append(Cluster(text: String(Character(scalar)), width: 1))
        continue
      }
      if scalar.value == 0x200D || (0xFE00...0xFE0F).contains(scalar.value) { continue }
      let width = Int(libraryWidth(Int32(bitPattern: scalar.value)))
      if width == 0 {
        if let last = result.indices.last, result[last].text.unicodeScalars.count < 5 {
          result[last].text.unicodeScalars.append(scalar)
        }
        continue
      }
      if width < 0 {
        result.append(Cluster(text: "?", width: 1))
        continue
      }
      result.append(Cluster(text: String(Character(scalar)), width: min(width, 2)))
    }
    return result
  }

  /// How many cells `text` takes.
  package static func width(_ text: String) -> Int {
    if text.utf8.allSatisfy({ $0 >= 0x20 && $0 < 0x7F }) { return text.utf8.count }
    return clusters(text).reduce(0) { $0 + $1.width }
  }

  /// `text` cut to at most `limit` cells, ending with `…` (or `~` in ASCII) when cut. A wide
  /// character is never split.
  package static func truncate(_ text: String, to limit: Int, ellipsis: String = "…") -> String {
    guard limit > 0 else { return "" }
    let all = clusters(text)
    let total = all.reduce(0) { $0 + $1.width }
    if total <= limit { return all.map(\.text).joined() }
    var used = 0
    var result = ""
    for cluster in all {
      if used + cluster.width > limit - 1 { break }
      result += cluster.text
      used += cluster.width
    }
    return result + ellipsis
  }

  /// `text` in lines of at most `width` cells, broken at spaces (a word longer than a line is
  /// split); always at least one line.
  package static func wrap(_ text: String, width: Int) -> [String] {
    guard width > 0, self.width(text) > width else { return [text] }
    var lines: [String] = []
    var line = ""
    var used = 0
    for word in text.split(separator: " ", omittingEmptySubsequences: false) {
      var rest = clusters(String(word))
      var wordWidth = rest.reduce(0) { $0 + $1.width }
      if used > 0 && used + 1 + wordWidth > width {
        lines.append(line)
        (line, used) = ("", 0)
      }
      if used > 0 {
        line += " "
        used += 1
      }
      while wordWidth > width - used {
        var taken = 0
        while let first = rest.first, taken + first.width <= width - used {
          line += first.text
          taken += first.width
          rest.removeFirst()
        }
        if taken == 0 && used == 0 {
          // A cluster wider than the line: it goes alone.
          line += rest.removeFirst().text
        }
        lines.append(line)
        (line, used) = ("", 0)
        wordWidth = rest.reduce(0) { $0 + $1.width }
      }
      line += rest.map(\.text).joined()
      used += wordWidth
    }
    lines.append(line)
    return lines
  }

  /// `text` padded with spaces (or cut) to exactly `width` cells.
  package static func fit(_ text: String, _ width: Int, alignRight: Bool = false) -> String {
    let cut = truncate(text, to: width)
    let padding = String(repeating: " ", count: max(0, width - self.width(cut)))
    return alignRight ? padding + cut : cut + padding
  }
}
