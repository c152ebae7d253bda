import StoreConfiguration

/// `SKTestSession.TimeRate`: how long subscription periods last in the test environment.
///
/// Time rates do not make the clock run fast: they make periods short (a month lasts 30 seconds
/// under ``monthlyRenewalEveryThirtySeconds``) while dates stay real dates. Durations come from
/// Apple's tables, verbatim: the weekly column is not proportional to the monthly one.
public enum TimeRate: Int, CaseIterable, Sendable {
  /// Periods last as long as they say.
  case realTime = 0
  /// A day lasts an hour.
  case oneHourIsOneDay = 1
  /// A day lasts 30 minutes.
  case thirtyMinutesIsOneDay = 2
  /// A day lasts 5 minutes.
  case fiveMinutesIsOneDay = 3
  /// A day lasts a minute.
  case oneMinuteIsOneDay = 4
  /// A day lasts 30 seconds.
  case thirtySecondsIsOneDay = 5
  /// A day lasts a second.
  case oneSecondIsOneDay = 6
  /// A month lasts an hour.
  case monthlyRenewalEveryHour = 10
  /// A month lasts 30 minutes.
  case monthlyRenewalEveryThirtyMinutes = 11
  /// A month lasts 15 minutes.
  case monthlyRenewalEveryFifteenMinutes = 12
  /// A month lasts 5 minutes.
  case monthlyRenewalEveryFiveMinutes = 13
  /// A month lasts 30 seconds.
  case monthlyRenewalEveryThirtySeconds = 15
  /// Every period lasts 15 minutes, whatever its length.
  case oneRenewalEveryFifteenMinutes = 1000
  /// Every period lasts 5 minutes, whatever its length.
  case oneRenewalEveryFiveMinutes = 1001
  /// Every period lasts a minute, whatever its length.
  case oneRenewalEveryMinute = 1002
  /// Every period lasts 30 seconds, whatever its length.
  case oneRenewalEveryThirtySeconds = 1003
  /// Every period lasts 10 seconds, whatever its length.
  case oneRenewalEveryTenSeconds = 1004
  /// Every period lasts 2 seconds, whatever its length.
  case oneRenewalEveryTwoSeconds = 1005

  /// The case's Swift name, `monthlyRenewalEveryThirtySeconds`.
  public var name: String { "\(self)" }

  /// The case in words, `monthly renewal every 30 seconds`.
  public var displayName: String {
    switch self {
    case .realTime: "real time"
    case .oneHourIsOneDay: "1 hour is 1 day"
    case .thirtyMinutesIsOneDay: "30 minutes is 1 day"
    case .fiveMinutesIsOneDay: "5 minutes is 1 day"
    case .oneMinuteIsOneDay: "1 minute is 1 day"
    case .thirtySecondsIsOneDay: "30 seconds is 1 day"
    case .oneSecondIsOneDay: "1 second is 1 day"
    case .monthlyRenewalEveryHour: "monthly renewal every hour"
    case .monthlyRenewalEveryThirtyMinutes: "monthly renewal every 30 minutes"
    case .monthlyRenewalEveryFifteenMinutes: "monthly renewal every 15 minutes"
    case .monthlyRenewalEveryFiveMinutes: "monthly renewal every 5 minutes"
    case .monthlyRenewalEveryThirtySeconds: "monthly renewal every 30 seconds"
    case .oneRenewalEveryFifteenMinutes: "one renewal every 15 minutes"
    case .oneRenewalEveryFiveMinutes: "one renewal every 5 minutes"
    case .oneRenewalEveryMinute: "one renewal every minute"
    case .oneRenewalEveryThirtySeconds: "one renewal every 30 seconds"
    case .oneRenewalEveryTenSeconds: "one renewal every 10 seconds"
    case .oneRenewalEveryTwoSeconds: "one renewal every 2 seconds"
    }
  }

  /// A rate by its case name (any letter case) or raw value.
  public init?(name: String) {
    if let raw = Int(name) {
      self.init(rawValue: raw)
      return
    }
    let wanted = name.lowercased()
    guard let match = Self.allCases.first(where: { $0.name.lowercased() == wanted }) else {
      return nil
    }
    self = match
  }

  /// How a rate shapes time.
  enum Scale {
    /// Calendar periods.
    case calendar
    /// Each day lasts the given milliseconds (deprecated rates 1–6).
    case dayScaling(Int64)
    /// Apple's table for the monthly renewal rates.
    case monthly(MonthlyTable)
    /// Every period, whatever its length, lasts the given milliseconds.
    case fixed(Int64)
  }

  /// One row of Apple's table for a monthly renewal rate, in milliseconds.
  struct MonthlyTable {
    var week: Int64
    var month: Int64
    var weeklyGrace: Int64
    var grace: Int64
    var retry: Int64
  }

  var scale: Scale {
    let second: Int64 = 1000
    let minute = 60 * second
    switch self {
    case .realTime: return .calendar
    case .oneHourIsOneDay: return .dayScaling(60 * minute)
    case .thirtyMinutesIsOneDay: return .dayScaling(30 * minute)
    case .fiveMinutesIsOneDay: return .dayScaling(5 * minute)
    case .oneMinuteIsOneDay: return .dayScaling(minute)
    case .thirtySecondsIsOneDay: return .dayScaling(30 * second)
    case .oneSecondIsOneDay: return .dayScaling(second)
    case .monthlyRenewalEveryHour:
      return .monthly(
        .init(
          week: 15 * minute, month: 60 * minute, weeklyGrace: 12 * minute + 51 * second,
          grace: 30 * minute, retry: 120 * minute))
    case .monthlyRenewalEveryThirtyMinutes:
      return .monthly(
        .init(
          week: 10 * minute, month: 30 * minute, weeklyGrace: 8 * minute + 34 * second,
          grace: 15 * minute, retry: 60 * minute))
    case .monthlyRenewalEveryFifteenMinutes:
      return .monthly(
        .init(
          week: 5 * minute, month: 15 * minute, weeklyGrace: 4 * minute + 17 * second,
          grace: 7 * minute + 30 * second, retry: 30 * minute))
    case .monthlyRenewalEveryFiveMinutes:
      return .monthly(
        .init(
          week: 3 * minute, month: 5 * minute, weeklyGrace: 2 * minute + 34 * second,
          grace: 2 * minute + 30 * second, retry: 10 * minute))
    case .monthlyRenewalEveryThirtySeconds:
      return .monthly(
        .init(
          week: 10 * second, month: 30 * second, weeklyGrace: 9 * second, grace: 15 * second,
          retry: 60 * second))
    case .oneRenewalEveryFifteenMinutes: return .fixed(15 * minute)
    case .oneRenewalEveryFiveMinutes: return .fixed(5 * minute)
    case .oneRenewalEveryMinute: return .fixed(minute)
    case .oneRenewalEveryThirtySeconds: return .fixed(30 * second)
    case .oneRenewalEveryTenSeconds: return .fixed(10 * second)
    case .oneRenewalEveryTwoSeconds: return .fixed(2 * second)
    }
  }

  private static let day: Int64 = 86_400_000

  /// When a period of `count` × `period` that starts at `start` ends.
  ///
  /// - Parameter anchorDay: at real time, the day of the month renewals stay on (a subscription
  ///   bought on the 31st renews on the last day of shorter months and returns to the 31st).
  public func end(
    of period: SubscriptionPeriod, count: Int = 1, startingAt start: Instant, anchorDay: Int? = nil
  ) -> Instant {
    let units = Int64(period.value * max(1, count))
    switch scale {
    case .calendar:
      switch period.unit {
      case .day: return start.adding(milliseconds: units * Self.day)
      case .week: return start.adding(milliseconds: units * 7 * Self.day)
      case .month, .year:
        let months = period.unit == .year ? units * 12 : units
        let civil = CivilDateTime(start)
        return civil.addingMonths(months, preferredDay: anchorDay ?? civil.day).instant
      }
    case .dayScaling(let dayLength):
      let days: Int64 =
        switch period.unit {
        case .day: 1
        case .week: 7
        case .month: 30
        case .year: 365
        }
      return start.adding(milliseconds: units * days * dayLength)
    case .monthly(let table):
      switch period.unit {
      case .day: return start.adding(milliseconds: units * table.week / 7)
      case .week: return start.adding(milliseconds: units * table.week)
      case .month: return start.adding(milliseconds: units * table.month)
      case .year: return start.adding(milliseconds: units * 12 * table.month)
      }
    case .fixed(let length):
      return start.adding(milliseconds: Int64(max(1, count)) * length)
    }
  }

  /// The billing grace period for a subscription renewing every `period`.
  public func gracePeriod(for period: SubscriptionPeriod) -> Int64 {
    let weekly = period.unit == .week || period.unit == .day
    switch scale {
    case .calendar: return (weekly ? 6 : 16) * Self.day
    case .dayScaling(let dayLength): return (weekly ? 6 : 16) * dayLength
    case .monthly(let table): return weekly ? table.weeklyGrace : table.grace
    case .fixed(let length): return length
    }
  }

  /// The billing retry period, counted from the failed renewal (grace is inside it).
  public var billingRetryPeriod: Int64 {
    switch scale {
    case .calendar: 60 * Self.day
    case .dayScaling(let dayLength): 60 * dayLength
    case .monthly(let table): table.retry
    case .fixed(let length): 2 * length
    }
  }
}
