import StoreSimulation

/// When a notification that failed is sent again: the waits after each failed attempt, in
/// simulated time. Apple's schedule is the default everywhere, so a webhook sees the same
/// retries from `run`, the inspector and `serve`.
public struct RetryPolicy: Equatable, Sendable, CustomStringConvertible {
  /// The waits, in milliseconds of simulated time: the first after the first failure, and so
  /// on; none left, the App Store gives up.
  public var waits: [Int64]

  /// A policy.
  public init(waits: [Int64]) { self.waits = waits }

  /// Apple's for V2 notifications: 1, 12, 24, 48 and 72 hours after the previous attempt, then
  /// no more ("Responding to App Store Server Notifications").
  public static let apple = RetryPolicy(waits: [1, 12, 24, 48, 72].map { $0 * 3_600_000 })

  /// One attempt, no retry.
  public static let none = RetryPolicy(waits: [])

  /// How a person writes it: `apple`, `none`, or the waits (`10s,1m,1h`).
  public var description: String {
    if self == .apple { return "apple" }
    if waits.isEmpty { return "none" }
    return waits.map { Self.text($0) }.joined(separator: ",")
  }

  /// `apple`, `none`, or waits such as `10s,1m,1h` (s, m, h, d); `nil` for anything else.
  public init?(_ text: String) {
    switch text {
    case "apple": self = .apple
    case "none": self = .none
    default:
      var waits: [Int64] = []
      for part in text.split(separator: ",", omittingEmptySubsequences: false) {
        let digits = part.prefix { $0.isASCII && $0.isNumber }
        guard !digits.isEmpty, digits.count <= 9, let count = Int64(digits),
          let unit = ["s": 1000, "m": 60_000, "h": 3_600_000, "d": 86_400_000][
            String(part.dropFirst(digits.count))]
        else { return nil }
        waits.append(count * Int64(unit))
      }
      guard !waits.isEmpty, waits.count <= 20 else { return nil }
      self.init(waits: waits)
    }
  }

  /// The wait after the `failures`-th failed attempt, or `nil` when it gives up.
  func wait(afterFailure failures: Int) -> Int64? {
    failures >= 1 && failures <= waits.count ? waits[failures - 1] : nil
  }

  private static func text(_ milliseconds: Int64) -> String {
    for (unit, length) in [("d", 86_400_000), ("h", 3_600_000), ("m", 60_000)] as [(String, Int64)]
    where milliseconds % length == 0 {
      return "\(milliseconds / length)\(unit)"
    }
    return "\(milliseconds / 1000)s"
  }
}
