/// Parses the ISO-8601 forms people type: a date, or a date and time with an optional fraction
/// and zone (`Z`, `+09:00`, `+0900`). A time without a zone is UTC.
enum ISO8601Parser {
  static func parse(_ text: String) -> Instant? {
    var scanner = DigitScanner(Array(text.utf8))
    guard let year = scanner.number(digits: 4), scanner.take("-"),
      let month = scanner.number(digits: 2), (1...12).contains(month), scanner.take("-"),
      let day = scanner.number(digits: 2), day >= 1, day <= daysInMonth(Int64(year), month)
    else { return nil }
    var millisecondOfDay: Int64 = 0
    var offset: Int64 = 0
    if scanner.take("T") || scanner.take(" ") {
      guard let hour = scanner.number(digits: 2), hour < 24, scanner.take(":"),
        let minute = scanner.number(digits: 2), minute < 60
      else { return nil }
      var second = 0
      var millis = 0
      if scanner.take(":") {
        guard let value = scanner.number(digits: 2), value < 60 else { return nil }
        second = value
        if scanner.take(".") || scanner.take(",") {
          guard let fraction = scanner.fraction() else { return nil }
          millis = fraction
        }
      }
      millisecondOfDay = Int64(((hour * 60 + minute) * 60 + second) * 1000 + millis)
      if scanner.take("Z") || scanner.take("z") {
      } else if let sign = scanner.sign() {
        guard let hours = scanner.number(digits: 2), hours <= 14 else { return nil }
        _ = scanner.take(":")
        let minutes = scanner.number(digits: 2) ?? 0
        offset = sign * Int64(hours * 60 + minutes) * 60_000
      }
    }
    guard scanner.atEnd else { return nil }
    let date = CivilDateTime(
      year: Int64(year), month: month, day: day, millisecondOfDay: millisecondOfDay)
    return date.instant.adding(milliseconds: -offset)
  }
}

private struct DigitScanner {
  let bytes: [UInt8]
  var index = 0

  init(_ bytes: [UInt8]) { self.bytes = bytes }

  var atEnd: Bool { index == bytes.count }

  mutating func take(_ character: Character) -> Bool {
    guard index < bytes.count, bytes[index] == character.asciiValue else { return false }
    index += 1
    return true
  }

  mutating func number(digits: Int) -> Int? {
    guard index + digits <= bytes.count else { return nil }
    var value = 0
    for offset in 0..<digits {
      let byte = bytes[index + offset]
      guard (0x30...0x39).contains(byte) else { return nil }
      value = value * 10 + Int(byte - 0x30)
    }
    index += digits
    return value
  }

  /// Fractional seconds as milliseconds (digits past the third are dropped).
  mutating func fraction() -> Int? {
    var value = 0
    var count = 0
    while index < bytes.count, (0x30...0x39).contains(bytes[index]) {
      if count < 3 { value = value * 10 + Int(bytes[index] - 0x30) }
      count += 1
      index += 1
    }
    guard count > 0 else { return nil }
    if count < 3 {
      for _ in count..<3 { value *= 10 }
    }
    return value
  }

  mutating func sign() -> Int64? {
    if take("+") { return 1 }
    if take("-") { return -1 }
    return nil
  }
}
