/// A small, fast pseudo-random generator (SplitMix64): the same seed gives the same inputs on
/// every machine, so a fuzz run can be repeated exactly.
package struct SplitMix64: RandomNumberGenerator, Sendable {
  private var state: UInt64

  /// A generator from a seed.
  package init(seed: UInt64) { state = seed }

  /// The next 64 random bits.
  package mutating func next() -> UInt64 {
    state &+= 0x9E37_79B9_7F4A_7C15
    var z = state
    z = (z ^ (z >> 30)) &* 0xBF58_476D_1CE5_E4B9
    z = (z ^ (z >> 27)) &* 0x94D0_49BB_1331_11EB
    return z ^ (z >> 31)
  }
}

/// Makes inputs from seeds by the mutations coverage-guided fuzzers use: flipped bits, bytes set
/// to edge values, inserted and removed ranges, splices of two seeds, and tokens of the target's
/// language (verbs, keys, huge numbers) dropped in.
package struct Mutator: Sendable {
  /// Inputs grow no larger than this.
  package var maximumLength = 64 << 10

  private static let edgeBytes: [UInt8] = [
    0, 1, 0x7F, 0x80, 0xFF, 0x0A, 0x0D, 0x1B, 0x22, 0x5C, 0x2C, 0x3A, 0x7B, 0x7D, 0x5B, 0x5D,
    0x20, 0x30, 0x39, 0x2D, 0x2E, 0x3D, 0xC0, 0xE2, 0xF0,
  ]

  /// Numbers at the edges of the integer types and of the engine's limits.
  private static let edgeNumbers = [
    "0", "1", "10", "11", "127", "128", "255", "256", "32767", "32768", "65535", "65536",
    "1000000", "1000001", "2147483647", "2147483648", "4294967295", "4294967296",
    "99999999999999", "253402300799999", "9223372036854775807", "9223372036854775808",
    "18446744073709551615", "99999999999999999999", "1e400", "-1",
  ].map { Array($0.utf8) }

  /// A mutator.
  package init() {}

  /// A new input from `seeds`, changed 1 to 8 times.
  package func input(
    from seeds: [[UInt8]], tokens: [[UInt8]], using random: inout SplitMix64
  ) -> [UInt8] {
    var bytes = seeds.isEmpty ? [] : seeds[Int(random.next() % UInt64(seeds.count))]
    // Mostly one or two changes: more break the structure that lets an input reach deep code.
    let rounds = 1 + min(7, (random.next() | 1 << 7).trailingZeroBitCount)
    for _ in 0..<rounds {
      mutate(&bytes, seeds: seeds, tokens: tokens, using: &random)
    }
    if bytes.count > maximumLength { bytes.removeLast(bytes.count - maximumLength) }
    return bytes
  }

  private func mutate(
    _ bytes: inout [UInt8], seeds: [[UInt8]], tokens: [[UInt8]], using random: inout SplitMix64
  ) {
    /// A position in the input (`extra` 1: the end too).
    func position(_ extra: Int = 0) -> Int {
      let bound = bytes.count + extra
      return bound == 0 ? 0 : Int(random.next() % UInt64(bound))
    }
    switch random.next() % 12 {
    case 10 where !bytes.isEmpty && !tokens.isEmpty:  // a word replaced by a token
      let separators: Set<UInt8> = [0x20, 0x0A, 0x3D, 0x2C, 0x3A]
      let starts = bytes.indices.filter { $0 == 0 || separators.contains(bytes[$0 - 1]) }
      let start = starts[Int(random.next() % UInt64(starts.count))]
      let end = bytes[start...].firstIndex { separators.contains($0) } ?? bytes.endIndex
      bytes.replaceSubrange(start..<end, with: tokens[Int(random.next() % UInt64(tokens.count))])
    case 0 where !bytes.isEmpty:  // flip a bit
      let index = position()
      bytes[index] ^= UInt8(1) << UInt8(random.next() % 8)
    case 1 where !bytes.isEmpty:  // an edge byte
      bytes[position()] = Self.edgeBytes[Int(random.next() % UInt64(Self.edgeBytes.count))]
    case 2 where !bytes.isEmpty:  // a digit changed (numbers are where the limits are)
      let digits = bytes.indices.filter { bytes[$0] >= 0x30 && bytes[$0] <= 0x39 }
      if let index = digits.isEmpty ? nil : digits[Int(random.next() % UInt64(digits.count))] {
        bytes[index] = 0x30 + UInt8(random.next() % 10)
      }
    case 3 where !bytes.isEmpty:  // remove a range
      let start = position()
      let length = min(bytes.count - start, 1 + Int(random.next() % 16))
      bytes.removeSubrange(start..<start + length)
    case 4 where !bytes.isEmpty:  // repeat a range
      let start = position()
      let length = min(bytes.count - start, 1 + Int(random.next() % 32))
      let copy = Array(bytes[start..<start + length])
      bytes.insert(contentsOf: copy, at: position(1))
    case 5 where !seeds.isEmpty:  // splice another seed in
      let other = seeds[Int(random.next() % UInt64(seeds.count))]
      guard !other.isEmpty else { return }
      let start = Int(random.next() % UInt64(other.count))
      let length = min(other.count - start, 1 + Int(random.next() % 64))
      bytes.insert(contentsOf: other[start..<start + length], at: position(1))
    case 6 where !tokens.isEmpty, 7 where !tokens.isEmpty:  // a token of the language
      let token = tokens[Int(random.next() % UInt64(tokens.count))]
      bytes.insert(contentsOf: token, at: position(1))
    case 9 where !bytes.isEmpty:  // a number replaced by an edge number
      let starts = bytes.indices.filter {
        bytes[$0] >= 0x30 && bytes[$0] <= 0x39
          && ($0 == 0 || !(bytes[$0 - 1] >= 0x30 && bytes[$0 - 1] <= 0x39))
      }
      guard !starts.isEmpty else { return }
      let start = starts[Int(random.next() % UInt64(starts.count))]
      let end = bytes[start...].firstIndex { !($0 >= 0x30 && $0 <= 0x39) } ?? bytes.endIndex
      let number = Self.edgeNumbers[Int(random.next() % UInt64(Self.edgeNumbers.count))]
      bytes.replaceSubrange(start..<end, with: number)
    case 8:  // a long run of digits
      let digits = (0..<(1 + Int(random.next() % 40))).map { _ in 0x30 + UInt8(random.next() % 10) }
      bytes.insert(contentsOf: digits, at: position(1))
    default:  // a random byte inserted
      bytes.insert(UInt8(truncatingIfNeeded: random.next()), at: position(1))
    }
  }
}
