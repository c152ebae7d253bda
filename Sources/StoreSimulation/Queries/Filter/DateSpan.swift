/// A half-open span of time in milliseconds, and the filter's date grammar: a year, month or day
/// (`2026`, `2026-11`, `2026-11-23`), the table's forms (`11-23`, `"11-23 14:05"`,
/// `"2025-11-23 14:05"`: the minute or second they name), an ISO-8601 instant, or a date relative
/// to the session's now (`today`, `yesterday`, `this-month`, `last-month`, `this-year`, and `7d`,
/// `12h`, `2w`: the last days, hours or weeks). Everything is UTC.
struct DateSpan: Equatable, Sendable {
  var start: Int64
  var end: Int64

  init(from start: Int64) {
    self.start = start
    self.end = .max
  }

  init(until end: Int64) {
    self.start = .min
    self.end = end
  }

  private init(_ start: Int64, _ end: Int64) {
    self.start = start
    self.end = end
  }

  /// Words for dates relative to now, for messages and completion.
  static let keywords = ["today", "yesterday", "this-month", "last-month", "this-year", "7d"]

  /// A now in a leap year: syntax is checked against it (so `02-29` passes), spans are made
  /// against the session's now.
  static let leapYear = Instant(iso8601: "2024-06-15T12:00:00Z")!.milliseconds

  /// Whether a bare word (one without a field) names a date: any date of the grammar but a
  /// plain number, which stays an id (`2026` is transaction 2026, `on:2026` the year).
  static func isBareDate(_ text: String) -> Bool {
    !text.isEmpty && !text.allSatisfy(\.isNumber) && DateSpan(text, now: leapYear) != nil
  }

  /// A date as the filter reads it, in UTC; `now` anchors the relative forms and gives the year
  /// to `MM-DD`.
  init?(_ text: String, now: Int64) {
    let lowered = text.lowercased()
    let today = CivilDateTime(Instant(milliseconds: now))
    let midnight = CivilDateTime(
      year: today.year, month: today.month, day: today.day, millisecondOfDay: 0
    ).instant.milliseconds
    let day = CivilDateTime.millisecondsPerDay
    let firstOfMonth = CivilDateTime(
      year: today.year, month: today.month, day: 1, millisecondOfDay: 0)
    switch lowered {
    case "today": self.init(midnight, midnight + day)
    case "yesterday": self.init(midnight - day, midnight)
    case "this-month":
      self.init(
        firstOfMonth.instant.milliseconds,
        firstOfMonth.addingMonths(1, preferredDay: 1).instant.milliseconds)
    case "last-month":
      self.init(
        firstOfMonth.addingMonths(-1, preferredDay: 1).instant.milliseconds,
        firstOfMonth.instant.milliseconds)
    case "this-year":
      let january = CivilDateTime(year: today.year, month: 1, day: 1, millisecondOfDay: 0)
      self.init(
        january.instant.milliseconds, january.addingMonths(12, preferredDay: 1).instant.milliseconds
      )
    default:
      if let unit = lowered.last, let count = Int64(lowered.dropLast()), count >= 0,
        count <= 100_000, let length = ["h": 3_600_000, "d": day, "w": 7 * day][unit]
      {
        self.init(from: now - count * length)
      } else if let span = Self.calendar(lowered, year: today.year) {
        self = span
      } else if let instant = Instant(iso8601: text) {
        self.init(from: instant.milliseconds)
      } else {
        return nil
      }
    }
  }

  /// `2026`, `2026-11`, `2026-11-23`, `11-23` (in `year`), each optionally followed by a time
  /// `HH:MM` or `HH:MM:SS` (after a space or `T`, no zone: UTC): the whole span they name.
  private static func calendar(_ text: String, year: Int64) -> DateSpan? {
    let pieces = text.split(omittingEmptySubsequences: false) { $0 == " " || $0 == "t" }
    guard (1...2).contains(pieces.count) else { return nil }
    let parts = pieces[0].split(separator: "-", omittingEmptySubsequences: false)
    let numbers = parts.map { Int64($0) }
    guard (1...3).contains(parts.count), !numbers.contains(nil) else { return nil }
    let hasYear = parts[0].count == 4
    guard hasYear || (parts.count == 2 && parts[0].count == 2) else { return nil }
    let values = numbers.map { $0! }
    let theYear = hasYear ? values[0] : year
    let month = Int(hasYear ? (parts.count > 1 ? values[1] : 1) : values[0])
    let dayOfMonth = Int(hasYear ? (parts.count > 2 ? values[2] : 1) : values[1])
    guard (1...12).contains(month), dayOfMonth >= 1,
      dayOfMonth <= daysInMonth(theYear, month)
    else { return nil }
    let first = CivilDateTime(year: theYear, month: month, day: dayOfMonth, millisecondOfDay: 0)
    let precision = hasYear ? parts.count : 3
    if pieces.count == 2 {
      // A time needs a whole day before it.
      guard precision == 3 else { return nil }
      let clock = pieces[1].split(separator: ":").map { Int64($0) }
      guard (2...3).contains(clock.count), !clock.contains(nil) else { return nil }
      let (hour, minute, second) = (clock[0]!, clock[1]!, clock.count == 3 ? clock[2]! : 0)
      guard (0..<24).contains(hour), (0..<60).contains(minute), (0..<60).contains(second) else {
        return nil
      }
      let start =
        first.instant.milliseconds + ((hour * 60 + minute) * 60 + second) * 1000
      return DateSpan(start, start + (clock.count == 3 ? 1000 : 60_000))
    }
    let last: CivilDateTime =
      switch precision {
      case 1: first.addingMonths(12, preferredDay: 1)
      case 2: first.addingMonths(1, preferredDay: 1)
      default: CivilDateTime(first.instant.adding(milliseconds: CivilDateTime.millisecondsPerDay))
      }
    return DateSpan(first.instant.milliseconds, last.instant.milliseconds)
  }

  /// `A..B`: from the start of A to the end of B.
  init?(range text: String, now: Int64) {
    let parts = text.components(separatedBy: "..")
    guard parts.count == 2 else { return nil }
    let lower = parts[0].isEmpty ? nil : DateSpan(parts[0], now: now)
    let upper = parts[1].isEmpty ? nil : DateSpan(parts[1], now: now)
    if (!parts[0].isEmpty && lower == nil) || (!parts[1].isEmpty && upper == nil) { return nil }
    start = lower?.start ?? .min
    end = upper.map { $0.end == .max ? $0.start + 1 : $0.end } ?? .max
  }

  func contains(_ date: Int64) -> Bool { date >= start && date < end }
}
