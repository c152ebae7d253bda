/// A seeded random source (SplitMix64): the same seed and stream give the same numbers on every
/// machine. Each customer draws from a stream of their own, named by their number, so that a
/// customer lives the same life whichever customers share the run (a shard's, or all of them).
public struct SeededRandom: RandomNumberGenerator, Sendable {
  private var state: UInt64

  /// The numbers of `seed`'s stream `stream`.
  public init(seed: UInt64, stream: UInt64) {
    var mixer = SeededRandom(state: seed ^ 0x9E37_79B9_7F4A_7C15)
    state = mixer.next() ^ (stream &* 0xBF58_476D_1CE4_E5B9)
    _ = next()
  }

  private init(state: UInt64) { self.state = state }

  /// The next 64 random bits.
  public mutating func next() -> UInt64 {
    state &+= 0x9E37_79B9_7F4A_7C15
    var z = state
    z = (z ^ (z >> 30)) &* 0xBF58_476D_1CE4_E5B9
    z = (z ^ (z >> 27)) &* 0x94D0_49BB_1331_11EB
    return z ^ (z >> 31)
  }

  /// A number in [0, 1).
  public mutating func unit() -> Double { Double(next() >> 11) * 0x1p-53 }

  /// Whether an event of probability `p` happens.
  public mutating func chance(_ p: Double) -> Bool { p > 0 && unit() < p }

  /// A whole number of milliseconds in `low..<high` (`low` when the range is empty).
  public mutating func milliseconds(_ low: Int64, _ high: Int64) -> Int64 {
    high > low ? low + Int64(next() % UInt64(high - low)) : low
  }

  /// One of `choices`, picked by weight (the first when none weighs anything).
  public mutating func pick<T>(_ choices: [(T, Double)]) -> T {
    let total = choices.reduce(0) { $0 + $1.1 }
    var point = unit() * total
    for (choice, weight) in choices {
      if point < weight { return choice }
      point -= weight
    }
    return choices[0].0
  }
}
