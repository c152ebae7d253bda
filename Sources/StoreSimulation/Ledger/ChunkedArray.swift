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
