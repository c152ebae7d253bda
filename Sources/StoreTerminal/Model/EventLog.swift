import StoreSimulation

/// The event log's lines, the newest last, at most a few thousand; scrolled back from the
/// newest and narrowed by a search like every other list.
struct EventLog {
  /// The most lines the log keeps.
  static let limit = 2000

  /// A line as it was said, or an event, put into words only when it is shown: a step that
  /// finishes thousands of transactions formats the few lines on screen, not thousands.
  enum Entry {
    case text(String)
    case event(StoreEvent)
  }

  private(set) var entries: [Entry] = []
  /// How many lines the view is scrolled back from the newest (0 follows new lines).
  private(set) var back = 0
  /// The search: only lines containing it (any case) are shown.
  private(set) var query = ""

  mutating func append(_ line: String) { add(.text(line)) }

  mutating func append(_ event: StoreEvent) { add(.event(event)) }

  private mutating func add(_ entry: Entry) {
    entries.append(entry)
    // Scrolled back, the lines shown stay put while new ones arrive below.
    if back > 0 { back += 1 }
    if entries.count > Self.limit * 2 { entries.removeFirst(entries.count - Self.limit) }
  }

  /// Scrolls back (positive) or forward, between the newest line and the oldest.
  mutating func scroll(by delta: Int) {
    back = max(0, min(max(0, entries.count - 1), back + max(-100_000, min(100_000, delta))))
  }

  /// Back to the newest line.
  mutating func follow() { back = 0 }

  /// Narrows the log to lines containing `text` (empty shows every line) and follows the
  /// newest match.
  mutating func search(_ text: String) {
    query = text
    back = 0
  }

  /// The `count` lines to show, oldest first, ending `back` lines before the newest (of those
  /// that match the search), prices in `prices`.
  func lines(_ count: Int, prices: PriceFormat) -> [String] {
    let wanted = query.lowercased()
    var shown: [String] = []
    var skipped = 0
    for entry in entries.reversed() {
      let line: String =
        switch entry {
        case .text(let text): text
        case .event(let event): EventSummary.line(event) { prices($0, currency: $1) }
        }
      guard wanted.isEmpty || line.lowercased().contains(wanted) else { continue }
      if skipped < back {
        skipped += 1
        continue
      }
      shown.append(line)
      if shown.count == count { break }
    }
    return shown.reversed()
  }
}
