/// An array stored in fixed-size chunks: past the first chunk, appending never moves what is
/// already stored, so no append stalls. (A flat array of a million ledger records copies 80 MB
/// when it outgrows its storage: a 20–30 ms pause in the middle of a live tick.) The first chunk
/// grows as an array does up to a thousand elements, so that the small ledgers of thousands of
/// customers stay small. A copy shares every chunk: a change to one (its owner's next append,
/// after a step back kept a copy of the session) copies that chunk alone, whatever the count.
public struct ChunkedArray<Element>: RandomAccessCollection, MutableCollection {
  /// Elements a chunk holds: 2^12 (320 KB of ledger records, the most a change copies).
  @usableFromInline static var chunkShift: Int { 12 }
  @usableFromInline static var offsetMask: Int { 1 << chunkShift - 1 }

  @usableFromInline var chunks: [[Element]] = []
  @usableFromInline var storedCount = 0
  /// How many elements it holds.
  @inlinable public var count: Int { storedCount }

  /// An empty array.
  @inlinable public init() {}

  /// The elements of a sequence, in order.
  @inlinable public init(_ elements: some Sequence<Element>) {
    for element in elements { append(element) }
  }

  /// 0.
  @inlinable public var startIndex: Int { 0 }
  /// `count`.
  @inlinable public var endIndex: Int { storedCount }

  /// The element at `position`.
  @inlinable public subscript(position: Int) -> Element {
    get { chunks[position >> Self.chunkShift][position & Self.offsetMask] }
    set { chunks[position >> Self.chunkShift][position & Self.offsetMask] = newValue }
    _modify { yield &chunks[position >> Self.chunkShift][position & Self.offsetMask] }
  }

  /// Calls `body` with each chunk's elements and the index of its first, in order: a walk
  /// without an iterator per element (what a debug build pays for).
  @inlinable public func forEachChunk(_ body: (UnsafeBufferPointer<Element>, Int) -> Void) {
    var base = 0
    for chunk in chunks {
      chunk.withUnsafeBufferPointer { body($0, base) }
      base += chunk.count
    }
  }

  /// The indices of chunks that may hold other elements than `other`'s at the same indices:
  /// a chunk the two share (a copy not changed since) is skipped without looking inside.
  public func chunksDiffering(from other: ChunkedArray) -> [Range<Int>] {
    var ranges: [Range<Int>] = []
    var base = 0
    for (index, chunk) in chunks.enumerated() {
      let range = base..<(base + chunk.count)
      base += chunk.count
      guard index < other.chunks.count else {
        ranges.append(range)
        continue
      }
      let mine = chunk.withUnsafeBufferPointer { $0.baseAddress }
      let theirs = other.chunks[index].withUnsafeBufferPointer { $0.baseAddress }
      if mine != theirs || chunk.count != other.chunks[index].count { ranges.append(range) }
    }
    return ranges
  }

  /// Removes the last `count` elements (what a step back took away).
  public mutating func removeLast(_ count: Int) {
    precondition(count >= 0 && count <= storedCount, "cannot remove \(count) of \(storedCount)")
    var left = count
    while left > 0, let last = chunks.last {
      if last.count <= left {
        left -= last.count
        chunks.removeLast()
      } else {
        chunks[chunks.count - 1].removeLast(left)
        left = 0
      }
    }
    storedCount -= count
  }

  /// Adds an element at the end, without moving any other.
  @inlinable public mutating func append(_ element: Element) {
    if storedCount & Self.offsetMask == 0 {
      var chunk: [Element] = []
      if !chunks.isEmpty { chunk.reserveCapacity(1 << Self.chunkShift) }
      chunks.append(chunk)
    } else if storedCount == 1024 && chunks.count == 1 {
      // Past a thousand elements it is a large one: its first chunk is made whole, once.
      chunks[0].reserveCapacity(1 << Self.chunkShift)
    }
    chunks[chunks.count - 1].append(element)
    storedCount += 1
  }
}
