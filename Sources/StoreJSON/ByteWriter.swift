/// Bytes being written into a buffer of their own (public only so that its appends inline into
/// the modules that write JSON). An append checks capacity and nothing else
/// (an array also checks that it is uniquely referenced, on every byte), which is what lets
/// the event stream keep up with the engine.
public struct ByteWriter: ~Copyable {
  @usableFromInline var base: UnsafeMutablePointer<UInt8>
  @usableFromInline var capacity: Int
  @usableFromInline var written = 0

  /// How many bytes were written.
  public var count: Int { written }

  /// A writer with room for `capacity` bytes before it grows.
  public init(capacity: Int = 1024) {
    self.capacity = max(64, capacity)
    base = .allocate(capacity: self.capacity)
  }

  deinit { base.deallocate() }

  /// Appends a byte.
  @inlinable @inline(__always) public mutating func append(_ byte: UInt8) {
    if written == capacity { grow(toHold: written + 1) }
    base[written] = byte
    written += 1
  }

  /// Appends bytes.
  @inlinable @inline(__always) public mutating func append(_ bytes: UnsafeBufferPointer<UInt8>) {
    guard let source = bytes.baseAddress, !bytes.isEmpty else { return }
    if written + bytes.count > capacity { grow(toHold: written + bytes.count) }
    (base + written).update(from: source, count: bytes.count)
    written += bytes.count
  }

  /// Appends a static text's bytes.
  @inlinable @inline(__always) public mutating func append(_ text: StaticString) {
    append(UnsafeBufferPointer(start: text.utf8Start, count: text.utf8CodeUnitCount))
  }

  /// Appends a text's UTF-8.
  package mutating func append(_ text: String) {
    var text = text
    text.withUTF8 { append($0) }
  }

  /// Appends `count` bytes written by `body` through the pointer it is given.
  @inlinable @inline(__always) public mutating func append(
    count: Int, _ body: (UnsafeMutablePointer<UInt8>) -> Void
  ) {
    if written + count > capacity { grow(toHold: written + count) }
    body(base + written)
    written += count
  }

  /// The bytes written so far.
  package func withBytes<Result>(
    _ body: (UnsafeBufferPointer<UInt8>) throws -> Result
  ) rethrows
    -> Result
  {
    try body(UnsafeBufferPointer(start: base, count: written))
  }

  /// The bytes written so far, as an array.
  package var array: [UInt8] { withBytes { Array($0) } }

  /// Forgets what was written, keeping the room.
  package mutating func removeAll() { written = 0 }

  @usableFromInline mutating func grow(toHold needed: Int) {
    var newCapacity = capacity * 2
    while newCapacity < needed { newCapacity *= 2 }
    let newBase = UnsafeMutablePointer<UInt8>.allocate(capacity: newCapacity)
    newBase.update(from: base, count: written)
    base.deallocate()
    base = newBase
    capacity = newCapacity
  }
}
