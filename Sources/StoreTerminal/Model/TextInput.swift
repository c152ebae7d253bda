/// A line of text being typed (the `:` prompt, the `/` filter), with a cursor and history.
package struct TextInput: Equatable, Sendable {
  /// What was typed so far.
  package var text = ""
  /// The cursor, in characters.
  package var cursor = 0
  /// Position in the history while browsing it.
  package var historyIndex: Int?
  /// What the last Tab found for the word being typed when it was not one word (shown in the
  /// prompt line until the next edit).
  package var candidates: [String] = []
  /// Whether the text is the one in force, shown selected: typing replaces it (as a browser's
  /// address bar does), a move or backspace edits it.
  package private(set) var replacesOnType = false

  /// An empty line, or one holding `text` with the cursor at its end; `selected`, typing
  /// replaces it.
  package init(_ text: String = "", selected: Bool = false) {
    set(text)
    replacesOnType = selected && !text.isEmpty
  }

  /// Inserts a character at the cursor.
  mutating func insert(_ character: Character) {
    let index = text.index(text.startIndex, offsetBy: cursor)
    text.insert(character, at: index)
    cursor += 1
  }

  /// Deletes the character before the cursor.
  mutating func backspace() {
    guard cursor > 0 else { return }
    let index = text.index(text.startIndex, offsetBy: cursor - 1)
    text.remove(at: index)
    cursor -= 1
  }

  /// Replaces the text, cursor at the end.
  mutating func set(_ value: String) {
    text = value
    cursor = value.count
  }

  /// Edits the line with a key: characters, backspace, Ctrl-U (clears it), cursor moves. Other
  /// keys do nothing.
  mutating func edit(_ key: Key) {
    candidates = []
    defer { replacesOnType = false }
    switch key {
    case .character(let character):
      if replacesOnType { set("") }
      insert(character)
    case .killLine: set("")
    case .backspace: backspace()
    case .left: cursor = max(0, cursor - 1)
    case .right: cursor = min(text.count, cursor + 1)
    case .home: cursor = 0
    case .end: cursor = text.count
    default: break
    }
  }

  /// The word before the cursor (what Tab completes).
  var wordBeforeCursor: String {
    String(text.prefix(cursor).split(separator: " ", omittingEmptySubsequences: false).last ?? "")
  }

  /// How many words the text before the cursor holds (the one being typed included).
  var wordCountBeforeCursor: Int {
    text.prefix(cursor).split(separator: " ", omittingEmptySubsequences: false).count
  }

  /// Completes the word before the cursor to the longest prefix the candidates share.
  func completed(with words: [String]) -> TextInput {
    let before = String(text.prefix(cursor))
    let word = wordBeforeCursor
    let matches = words.filter { $0.hasPrefix(word) && $0 != word }
    guard var common = matches.first else { return self }
    for candidate in matches.dropFirst() {
      while !candidate.hasPrefix(common) { common.removeLast() }
    }
    var result = self
    // Several left: they show in the prompt line, by what follows the common part.
    result.candidates =
      matches.count > 1
      ? matches.map { match in
        // What tells them apart: an option's value (after `=`), else a field's value (after
        // its colon or the last comma).
        let cut = match.firstIndex(of: "=") ?? match.lastIndex { $0 == ":" || $0 == "," }
        return cut.map { String(match[match.index(after: $0)...]) } ?? match
      } : []
    guard common.count > word.count else { return result }
    result.set(String(before.dropLast(word.count)) + common + text.dropFirst(cursor))
    result.cursor = before.count - word.count + common.count
    return result
  }

  /// Steps through `history` (↑ older, ↓ newer, past the newest an empty line).
  mutating func browse(_ history: [String], older: Bool) {
    guard !history.isEmpty else { return }
    let last = history.count
    let index = max(0, min(last, (historyIndex ?? last) + (older ? -1 : 1)))
    set(index == last ? "" : history[index])
    historyIndex = index
  }
}
