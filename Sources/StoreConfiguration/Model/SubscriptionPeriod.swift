/// A subscription or offer period as an ISO-8601 duration of one unit: `P3D`, `P1W`, `P1M`,
/// `P2M`, `P3M`, `P6M`, `P1Y`.
public struct SubscriptionPeriod: Hashable, Sendable, CustomStringConvertible {
  /// The calendar unit of a period.
  public enum Unit: String, CaseIterable, Sendable {
    /// `P…D`.
    case day = "D"
    /// `P…W`.
    case week = "W"
    /// `P…M`.
    case month = "M"
    /// `P…Y`.
    case year = "Y"
  }

  /// How many units the period spans (at least 1).
  public var value: Int
  /// Day, week, month or year: what `value` counts.
  public var unit: Unit

  /// Creates a period of `value` units.
  public init(_ value: Int, _ unit: Unit) {
    self.value = value
    self.unit = unit
  }

  /// Parses `PnD`, `PnW`, `PnM` or `PnY` with a positive `n` written without leading zeros;
  /// anything else (including combined forms such as `P1Y6M`, which StoreKit never uses) is `nil`.
  public init?(iso8601 text: String) {
    let bytes = Array(text.utf8)
    guard bytes.count >= 3, bytes[0] == UInt8(ascii: "P"),
      let unit = Unit(rawValue: String(text.suffix(1))),
      bytes[1] != UInt8(ascii: "0"),
      bytes[1..<bytes.count - 1].allSatisfy({ (0x30...0x39).contains($0) }),
      let value = Int(String(decoding: bytes[1..<bytes.count - 1], as: UTF8.self)),
      value > 0, value < 10_000
    else { return nil }
    self.init(value, unit)
  }

  /// The ISO-8601 form, `P1M`.
  public var iso8601: String { "P\(value)\(unit.rawValue)" }

  /// The ISO-8601 form.
  public var description: String { iso8601 }
}
