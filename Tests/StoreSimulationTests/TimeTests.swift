import StoreConfiguration
import Testing

@testable import StoreSimulation

@Suite struct TimeTests {
  @Test func instantsFormatAsISO8601WithMilliseconds() {
    #expect(Instant(milliseconds: 0).iso8601 == "1970-01-01T00:00:00.000Z")
    #expect(Instant(milliseconds: 1_697_679_936_049).iso8601 == "2023-10-19T01:45:36.049Z")
    #expect(Instant(milliseconds: -1).iso8601 == "1969-12-31T23:59:59.999Z")
  }

  @Test(arguments: [
    ("2026-11-22", "2026-11-22T00:00:00.000Z"),
    ("2026-11-22T02:01", "2026-11-22T02:01:00.000Z"),
    ("2026-11-22T02:01:30Z", "2026-11-22T02:01:30.000Z"),
    ("2026-11-22T02:01:30.5Z", "2026-11-22T02:01:30.500Z"),
    ("2026-11-22T11:01:30+09:00", "2026-11-22T02:01:30.000Z"),
    ("2024-02-29T00:00:00-0130", "2024-02-29T01:30:00.000Z"),
  ])
  func parsesISO8601(text: String, expected: String) {
    #expect(Instant(iso8601: text)?.iso8601 == expected)
  }

  @Test(arguments: [
    "2026-02-30", "2026-13-01", "2026-11-22T24:00", "yesterday", "2026-11-22T01:02:03Q", "",
  ])
  func rejectsInvalidDates(text: String) {
    #expect(Instant(iso8601: text) == nil)
  }

  @Test func civilDatesRoundTripOverCenturies() {
    for days in stride(from: Int64(-800_000), to: 800_000, by: 997) {
      let (year, month, day) = civilFromDays(days)
      #expect(daysFromCivil(year, month, day) == days)
    }
  }

  @Test func realTimeMonthsAreCalendarMonthsAnchoredOnTheDay() {
    let month = SubscriptionPeriod(1, .month)
    let start = instant("2026-01-31T08:00:00Z")
    var end = start
    var seen: [String] = []
    for _ in 0..<4 {
      end = TimeRate.realTime.end(of: month, startingAt: end, anchorDay: 31)
      seen.append(end.iso8601)
    }
    #expect(
      seen == [
        "2026-02-28T08:00:00.000Z", "2026-03-31T08:00:00.000Z", "2026-04-30T08:00:00.000Z",
        "2026-05-31T08:00:00.000Z",
      ])
    #expect(
      TimeRate.realTime.end(
        of: SubscriptionPeriod(1, .year), startingAt: instant("2024-02-29"), anchorDay: 29
      ).iso8601
        == "2025-02-28T00:00:00.000Z")
    #expect(
      TimeRate.realTime.end(of: SubscriptionPeriod(1, .week), startingAt: instant("2026-12-28"))
        .iso8601
        == "2027-01-04T00:00:00.000Z")
  }

  /// AS-06: the table's period lengths at thirty seconds a month.
  @Test func monthlyEveryThirtySecondsUsesApplesTable() {
    let rate = TimeRate.monthlyRenewalEveryThirtySeconds
    let lengths = ["P1W", "P1M", "P2M", "P3M", "P6M", "P1Y"].map {
      rate.end(of: SubscriptionPeriod(iso8601: $0)!, startingAt: t0).milliseconds - t0.milliseconds
    }
    #expect(lengths == [10, 30, 60, 90, 180, 360].map(seconds))
    #expect(rate.gracePeriod(for: SubscriptionPeriod(1, .week)) == seconds(9))
    #expect(rate.gracePeriod(for: SubscriptionPeriod(1, .month)) == seconds(15))
    #expect(rate.billingRetryPeriod == seconds(60))
  }

  /// AS-06: every period lasts N at "one renewal every N"; grace N, retry 2N.
  @Test func oneRenewalEveryTenSecondsMakesEveryPeriodTenSeconds() {
    let rate = TimeRate(rawValue: 1004)!
    for text in ["P3D", "P1W", "P1M", "P6M", "P1Y"] {
      let end = rate.end(of: SubscriptionPeriod(iso8601: text)!, startingAt: t0)
      #expect(end.milliseconds - t0.milliseconds == seconds(10))
    }
    #expect(rate.gracePeriod(for: SubscriptionPeriod(1, .year)) == seconds(10))
    #expect(rate.billingRetryPeriod == seconds(20))
  }

  @Test func weeklyColumnIsNotProportional() {
    let week = TimeRate.monthlyRenewalEveryThirtyMinutes.end(
      of: SubscriptionPeriod(1, .week), startingAt: t0)
    #expect(week.milliseconds - t0.milliseconds == 10 * 60_000)
    let hourly = TimeRate.monthlyRenewalEveryHour
    #expect(hourly.gracePeriod(for: SubscriptionPeriod(1, .week)) == (12 * 60 + 51) * 1000)
    #expect(
      hourly.end(of: SubscriptionPeriod(1, .year), startingAt: t0).milliseconds - t0.milliseconds
        == 12 * 3_600_000)
  }

  @Test func daysAreSeventhsOfTheRatesWeek() {
    let rate = TimeRate.monthlyRenewalEveryThirtySeconds
    let threeDays = rate.end(of: SubscriptionPeriod(3, .day), startingAt: t0)
    #expect(threeDays.milliseconds - t0.milliseconds == 10_000 * 3 / 7)
  }

  @Test func deprecatedRatesScaleDays() {
    let rate = TimeRate.oneSecondIsOneDay
    func length(_ text: String) -> Int64 {
      rate.end(of: SubscriptionPeriod(iso8601: text)!, startingAt: t0).milliseconds
        - t0.milliseconds
    }
    #expect(length("P1W") == seconds(7))
    #expect(length("P1M") == seconds(30))
    #expect(length("P1Y") == seconds(365))
    #expect(rate.gracePeriod(for: SubscriptionPeriod(1, .week)) == seconds(6))
    #expect(rate.gracePeriod(for: SubscriptionPeriod(1, .month)) == seconds(16))
    #expect(rate.billingRetryPeriod == seconds(60))
    #expect(
      TimeRate.oneHourIsOneDay.end(of: SubscriptionPeriod(1, .month), startingAt: t0).milliseconds
        - t0.milliseconds == 30 * 3_600_000)
  }

  @Test func ratesAreFoundByNameOrRawValue() {
    #expect(TimeRate(name: "monthlyRenewalEveryThirtySeconds") == .monthlyRenewalEveryThirtySeconds)
    #expect(TimeRate(name: "MONTHLYRENEWALEVERYTHIRTYSECONDS") == .monthlyRenewalEveryThirtySeconds)
    #expect(TimeRate(name: "13") == .monthlyRenewalEveryFiveMinutes)
    #expect(TimeRate(name: "14") == nil)
    #expect(TimeRate.allCases.count == 18)
  }

  @Test func storefrontsCoverTheFixtures() {
    for code in ["USA", "GBR", "JPN", "CHN", "DEU", "FRA", "NLD", "FIN", "PRT", "COL"] {
      #expect(Storefront(countryCode: code) != nil, "\(code)")
    }
    #expect(Storefront(countryCode: "USA")?.id == "143441")
    #expect(Storefront(countryCode: "JPN")?.currency == "JPY")
    #expect(Storefront(countryCode: "COL")?.currency == "COP")
    #expect(Storefront(countryCode: "XYZ") == nil)
  }
}
