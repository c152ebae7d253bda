/// One of *n* disjoint parts of a population (`--shard i/n`): the customers whose number is *i*
/// modulo *n* (1-based). The shards of a population together make exactly its customers, with
/// the same names, ids and notifications.
public struct Shard: Equatable, Sendable, CustomStringConvertible {
  /// Which part, from 1.
  public var index: Int
  /// Of how many.
  public var count: Int

  /// The whole population.
  public static let whole = Shard(index: 1, count: 1)

  /// Part `index` of `count`.
  public init(index: Int, count: Int) {
    self.index = index
    self.count = count
  }

  /// `i/n`, with 1 ≤ *i* ≤ *n*; `nil` for anything else.
  public init?(parsing text: String) {
    let parts = text.split(separator: "/", omittingEmptySubsequences: false)
    guard parts.count == 2, let index = Int(parts[0]), let count = Int(parts[1]), count >= 1,
      (1...count).contains(index)
    else { return nil }
    self.init(index: index, count: count)
  }

  /// Whether customer `number` (from 1) is in this shard.
  public func contains(_ number: Int) -> Bool { (number - 1) % count == index - 1 }

  /// `i/n`.
  public var description: String { "\(index)/\(count)" }
}
