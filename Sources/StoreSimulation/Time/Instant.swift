/// A moment in simulated time: whole milliseconds since 1970-01-01 00:00:00 UTC.
///
/// The engine never reads the wall clock; instants come from the caller. Integers keep the
/// arithmetic exact and cheap: ISO-8601 text is made only at the edges.
public struct Instant: Hashable, Comparable, Sendable, CustomStringConvertible {
  /// Milliseconds since the Unix epoch.
  public var milliseconds: Int64

  /// Creates an instant from milliseconds since the Unix epoch.
  public init(milliseconds: Int64) { self.milliseconds = milliseconds }

  /// Creates an instant from seconds since the Unix epoch.
  public init(seconds: Int64) { self.milliseconds = seconds * 1000 }

  /// The latest instant a session reaches: 9999-12-31T23:59:59.999Z, the last one ISO-8601's
  /// four-digit years can write.
  public static let latest = Instant(milliseconds: 253_402_300_799_999)

  /// Orders instants in time.
  public static func < (lhs: Instant, rhs: Instant) -> Bool { lhs.milliseconds < rhs.milliseconds }

  /// The instant `milliseconds` later.
  public func adding(milliseconds delta: Int64) -> Instant {
    Instant(milliseconds: milliseconds + delta)
  }

  /// The ISO-8601 form in UTC with milliseconds: `2026-11-22T02:01:30.000Z`.
  public var iso8601: String { CivilDateTime(self).iso8601 }

  /// The ISO-8601 form.
  public var description: String { iso8601 }

  /// Parses ISO-8601 dates and date-times: `2026-11-22`, `2026-11-22T02:01`,
  /// `2026-11-22T02:01:30Z`, `2026-11-22T02:01:30.5+09:00`. A time without a zone is UTC.
  public init?(iso8601 text: String) {
    guard let instant = ISO8601Parser.parse(text) else { return nil }
    self = instant
  }
}

/// A calendar date and time of day in UTC (proleptic Gregorian).
struct CivilDateTime: Equatable {
  var year: Int64
  var month: Int  // 1...12
  var day: Int  // 1...31
  var millisecondOfDay: Int64

  static let millisecondsPerDay: Int64 = 86_400_000

  init(year: Int64, month: Int, day: Int, millisecondOfDay: Int64) {
    self.year = year
    self.month = month
    self.day = day
    self.millisecondOfDay = millisecondOfDay
  }

  init(_ instant: Instant) {
    let days = floorDivide(instant.milliseconds, Self.millisecondsPerDay)
    millisecondOfDay = instant.milliseconds - days * Self.millisecondsPerDay
    (year, month, day) = civilFromDays(days)
  }

  var instant: Instant {
    Instant(
      milliseconds: daysFromCivil(year, month, day) * Self.millisecondsPerDay + millisecondOfDay)
  }

  var iso8601: String {
    let ms = millisecondOfDay
    let hours = ms / 3_600_000
    let minutes = ms / 60_000 % 60
    let seconds = ms / 1000 % 60
    let millis = ms % 1000
    let yearText = year >= 0 && year <= 9999 ? pad(year, 4) : String(year)
    return "\(yearText)-\(pad(Int64(month), 2))-\(pad(Int64(day), 2))T\(pad(hours, 2)):"
      + "\(pad(minutes, 2)):\(pad(seconds, 2)).\(pad(millis, 3))Z"
  }

  /// The same time of day `months` calendar months later, on `preferredDay` or the month's
  /// last day when it is shorter (an anchor on the 31st gives Feb 28, Mar 31, Apr 30 …).
  func addingMonths(_ months: Int64, preferredDay: Int) -> CivilDateTime {
    let total = year * 12 + Int64(month - 1) + months
    let newYear = floorDivide(total, 12)
    let newMonth = Int(total - newYear * 12) + 1
    let day = min(preferredDay, daysInMonth(newYear, newMonth))
    return CivilDateTime(
      year: newYear, month: newMonth, day: day, millisecondOfDay: millisecondOfDay)
  }
}

func floorDivide(_ a: Int64, _ b: Int64) -> Int64 {
  let quotient = a / b
  return (a % b != 0 && (a < 0) != (b < 0)) ? quotient - 1 : quotient
}

func isLeapYear(_ year: Int64) -> Bool { year % 4 == 0 && (year % 100 != 0 || year % 400 == 0) }

func daysInMonth(_ year: Int64, _ month: Int) -> Int {
  switch month {
  case 2: isLeapYear(year) ? 29 : 28
  case 4, 6, 9, 11: 30
  default: 31
  }
}

/// Days since 1970-01-01 of a civil date (Howard Hinnant's algorithm).
func daysFromCivil(_ year: Int64, _ month: Int, _ day: Int) -> Int64 {
  let y = month <= 2 ? year - 1 : year
  let era = floorDivide(y, 400)
  let yearOfEra = y - era * 400
  let monthIndex = Int64(month > 2 ? month - 3 : month + 9)
  let dayOfYear = (153 * monthIndex + 2) / 5 + Int64(day) - 1
  let dayOfEra = yearOfEra * 365 + yearOfEra / 4 - yearOfEra / 100 + dayOfYear
  return era * 146_097 + dayOfEra - 719_468
}

/// The civil date of a count of days since 1970-01-01.
func civilFromDays(_ days: Int64) -> (Int64, Int, Int) {
  let z = days + 719_468
  let era = floorDivide(z, 146_097)
  let dayOfEra = z - era * 146_097
  let yearOfEra = (dayOfEra - dayOfEra / 1460 + dayOfEra / 36_524 - dayOfEra / 146_096) / 365
  let dayOfYear = dayOfEra - (365 * yearOfEra + yearOfEra / 4 - yearOfEra / 100)
  let monthIndex = (5 * dayOfYear + 2) / 153
  let day = Int(dayOfYear - (153 * monthIndex + 2) / 5 + 1)
  let month = Int(monthIndex < 10 ? monthIndex + 3 : monthIndex - 9)
  return (yearOfEra + era * 400 + (month <= 2 ? 1 : 0), month, day)
}

private func pad(_ value: Int64, _ width: Int) -> String {
  let text = String(value)
  return text.count >= width ? text : String(repeating: "0", count: width - text.count) + text
}
