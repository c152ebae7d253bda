extension RandomAccessCollection where Index == Int, Element: Comparable {
  /// Where `value` is or would go in this ascending collection (binary search).
  package func insertionIndex(of value: Element) -> Int {
    var low = startIndex
    var high = endIndex
    while low < high {
      let middle = (low + high) / 2
      if self[middle] < value { low = middle + 1 } else { high = middle }
    }
    return low
  }

  /// The index of `value` in this ascending collection, if it is there.
  package func sortedIndex(of value: Element) -> Int? {
    let index = insertionIndex(of: value)
    return index < endIndex && self[index] == value ? index : nil
  }
}

extension Array where Element: Comparable {
  /// Puts `value` into this ascending array or takes it out.
  package mutating func setMembership(of value: Element, _ present: Bool) {
    if present, last.map({ $0 < value }) ?? true {
      append(value)
      return
    }
    let index = insertionIndex(of: value)
    let there = index < count && self[index] == value
    if present && !there { insert(value, at: index) }
    if !present && there { remove(at: index) }
  }
}
