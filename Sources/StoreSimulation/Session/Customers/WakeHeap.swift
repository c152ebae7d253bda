/// When each customer's next transition is due, ordered: a binary min-heap of customers' slots
/// with each slot's place in it, so that a customer's wake moves in O(log *c*), the earliest is
/// read in O(1), and the wakes due by a time are visited without looking at the others.
struct WakeHeap {
  /// A customer's next due transition; ties go to the lower customer number.
  struct Wake: Comparable {
    var due: Int64
    var number: Int
    var slot: Int

    static func < (lhs: Wake, rhs: Wake) -> Bool { (lhs.due, lhs.number) < (rhs.due, rhs.number) }
  }

  private var heap: [Wake] = []
  /// Each slot's index in `heap`; -1 for a customer with nothing due.
  private var places: [Int32] = []

  /// The earliest wake.
  var min: Wake? { heap.first }

  /// When the customer in `slot` is next due, if they are.
  func due(of slot: Int) -> Int64? {
    slot < places.count && places[slot] >= 0 ? heap[Int(places[slot])].due : nil
  }

  /// How many customers have a transition due.
  var count: Int { heap.count }

  /// Sets when the customer in `slot` (of `number`) is next due; `nil`: nothing is.
  ///
  /// - Complexity: O(log *c*) for *c* customers with a wake.
  mutating func set(slot: Int, number: Int, due: Int64?) {
    while places.count <= slot { places.append(-1) }
    let place = Int(places[slot])
    switch (place >= 0, due) {
    case (false, nil): return
    case (false, let due?):
      heap.append(Wake(due: due, number: number, slot: slot))
      places[slot] = Int32(heap.count - 1)
      siftUp(heap.count - 1)
    case (true, nil):
      remove(at: place)
    case (true, let due?):
      guard heap[place].due != due else { return }
      heap[place].due = due
      siftUp(place)
      siftDown(Int(places[slot]))
    }
  }

  /// Tells `body` every wake due at or before `limit` (in no particular order) while it says go
  /// on; whether it always did.
  ///
  /// - Complexity: O(*k*) for *k* wakes due by `limit`: the others are not looked at.
  @discardableResult
  func forEach(dueBy limit: Int64, _ body: (Wake) -> Bool) -> Bool {
    var stack: [Int] = heap.isEmpty ? [] : [0]
    while let index = stack.popLast() {
      guard heap[index].due <= limit else { continue }
      guard body(heap[index]) else { return false }
      let left = 2 * index + 1
      if left < heap.count { stack.append(left) }
      if left + 1 < heap.count { stack.append(left + 1) }
    }
    return true
  }

  private mutating func remove(at place: Int) {
    let slot = heap[place].slot
    let last = heap.count - 1
    if place != last {
      heap.swapAt(place, last)
      places[heap[place].slot] = Int32(place)
    }
    heap.removeLast()
    places[slot] = -1
    guard place < heap.count else { return }
    let moved = heap[place].slot
    siftUp(place)
    siftDown(Int(places[moved]))
  }

  private mutating func siftUp(_ start: Int) {
    var index = start
    while index > 0 {
      let parent = (index - 1) / 2
      guard heap[index] < heap[parent] else { return }
      swap(index, parent)
      index = parent
    }
  }

  private mutating func siftDown(_ start: Int) {
    var index = start
    while true {
      let left = 2 * index + 1
      guard left < heap.count else { return }
      var smallest = left
      if left + 1 < heap.count && heap[left + 1] < heap[left] { smallest = left + 1 }
      guard heap[smallest] < heap[index] else { return }
      swap(index, smallest)
      index = smallest
    }
  }

  private mutating func swap(_ first: Int, _ second: Int) {
    heap.swapAt(first, second)
    places[heap[first].slot] = Int32(first)
    places[heap[second].slot] = Int32(second)
  }
}
