import DequeModule

extension NotificationOutbox {
  /// The outbox's entries by number (the first notification is 0). An outbox that keeps its
  /// history holds them all; one that does not (a population's thousands, which nothing asks
  /// for again) forgets the settled ones at the front, so its memory follows the notifications
  /// still on their way rather than all it ever sent. Those that never reached the backend
  /// are kept aside for the report at the end.
  struct Entries {
    /// The number of the first entry still held.
    private(set) var base = 0
    private var items = Deque<Entry>()
    /// Whether settled entries are forgotten.
    let forgets: Bool
    /// The forgotten entries that were never delivered (dropped, or given up on).
    private(set) var forgottenUndelivered: [Entry] = []

    init(forgets: Bool) { self.forgets = forgets }

    /// How many entries there have been: the next one's number.
    var count: Int { base + items.count }

    /// The numbers of the entries still held.
    var indices: Range<Int> { base..<count }

    /// Whether the entry numbered `index` was forgotten (a stale reference to it is dropped).
    func isForgotten(_ index: Int) -> Bool { index < base }

    subscript(index: Int) -> Entry {
      get { items[index - base] }
      _modify { yield &items[index - base] }
    }

    mutating func append(_ entry: Entry) { items.append(entry) }

    /// Every entry held, oldest first.
    var held: [Entry] { Array(items) }

    /// Forgets the entries at the front for which `settled` holds, when this outbox forgets.
    mutating func forgetSettled(_ settled: (Int, Entry) -> Bool) {
      guard forgets else { return }
      while let first = items.first, settled(base, first) {
        if !first.isDelivered && first.attempts.count + (first.isDropped ? 1 : 0) > 0 {
          forgottenUndelivered.append(first)
        }
        items.removeFirst()
        base += 1
      }
    }
  }
}
