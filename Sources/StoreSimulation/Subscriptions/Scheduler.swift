import HeapModule

/// The timed transitions to come: a heap of (due time, order) per subscription group. A group
/// has at most one live entry; entries whose generation no longer matches their group's were
/// superseded and are skipped.
struct Scheduler {
  struct Entry: Comparable {
    var due: Int64
    var sequence: UInt64
    var group: Int32
    var generation: UInt32

    static func < (lhs: Entry, rhs: Entry) -> Bool {
      (lhs.due, lhs.sequence) < (rhs.due, rhs.sequence)
    }
  }

  private var heap = Heap<Entry>()
  private var sequence: UInt64 = 0

  /// Records that `group`'s next transition changed: schedules it when there is one.
  mutating func reschedule(_ group: Int, _ state: inout GroupState) {
    state.generation &+= 1
    guard let due = state.nextDue else { return }
    sequence += 1
    heap.insert(
      Entry(due: due, sequence: sequence, group: Int32(group), generation: state.generation))
  }

  /// The earliest live entry due at or before `limit`, removed.
  mutating func popDue(upTo limit: Int64, groups: [GroupState]) -> Entry? {
    while let first = heap.min {
      if first.generation != groups[Int(first.group)].generation {
        heap.removeMin()
        continue
      }
      guard first.due <= limit else { return nil }
      return heap.removeMin()
    }
    return nil
  }

  /// When the earliest live entry is due, dropping the superseded entries before it.
  mutating func liveNextDue(groups: [GroupState]) -> Int64? {
    while let first = heap.min {
      if first.generation == groups[Int(first.group)].generation { return first.due }
      heap.removeMin()
    }
    return nil
  }

  /// When the earliest live entry is due.
  func nextDue(groups: [GroupState]) -> Int64? {
    if let first = heap.min, first.generation == groups[Int(first.group)].generation {
      return first.due
    }
    return heap.unordered.lazy.filter { $0.generation == groups[Int($0.group)].generation }
      .map(\.due).min()
  }
}
