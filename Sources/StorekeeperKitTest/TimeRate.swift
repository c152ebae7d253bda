extension SKTestSession {
  /// How fast subscriptions renew in the session (StoreKitTest's `SKTestSession.TimeRate`),
  /// with Apple's raw values.
  public enum TimeRate: Int, Sendable, Equatable, Hashable {
    /// Real time: a month is a month.
    case realTime = 0
    /// An hour is a day.
    @available(*, deprecated) case oneHourIsOneDay = 1
    /// Thirty minutes are a day.
    @available(*, deprecated) case thirtyMinutesIsOneDay = 2
    /// Five minutes are a day.
    @available(*, deprecated) case fiveMinutesIsOneDay = 3
    /// A minute is a day.
    @available(*, deprecated, renamed: "monthlyRenewalEveryThirtyMinutes")
    case oneMinuteIsOneDay = 4
    /// Thirty seconds are a day.
    @available(*, deprecated, renamed: "monthlyRenewalEveryFifteenMinutes")
    case thirtySecondsIsOneDay = 5
    /// A second is a day.
    @available(*, deprecated, renamed: "monthlyRenewalEveryThirtySeconds")
    case oneSecondIsOneDay = 6
    /// A monthly subscription renews every hour.
    case monthlyRenewalEveryHour = 10
    /// A monthly subscription renews every thirty minutes.
    case monthlyRenewalEveryThirtyMinutes = 11
    /// A monthly subscription renews every fifteen minutes.
    case monthlyRenewalEveryFifteenMinutes = 12
    /// A monthly subscription renews every five minutes.
    case monthlyRenewalEveryFiveMinutes = 13
    /// A monthly subscription renews every thirty seconds.
    case monthlyRenewalEveryThirtySeconds = 15
    /// Any subscription renews every fifteen minutes.
    case oneRenewalEveryFifteenMinutes = 1000
    /// Any subscription renews every five minutes.
    case oneRenewalEveryFiveMinutes = 1001
    /// Any subscription renews every minute.
    case oneRenewalEveryMinute = 1002
    /// Any subscription renews every thirty seconds.
    case oneRenewalEveryThirtySeconds = 1003
    /// Any subscription renews every ten seconds.
    case oneRenewalEveryTenSeconds = 1004
    /// Any subscription renews every two seconds.
    case oneRenewalEveryTwoSeconds = 1005
  }
}
