import StoreJSON
import StoreSimulation

/// Builds one JSON object into bytes, keys in the order they are added. Everything is written
/// as bytes into a ``ByteWriter``: keys are static, numbers are written digit by digit, strings
/// are escaped on their UTF-8, and dates reuse the text of their day from a ``DayCache``.
struct ObjectBuilder: ~Copyable {
  private var writer: ByteWriter
  private var first = true
  /// The day of the last date written, carried from object to object.
  var dates: DayCache

  /// An object in a writer of its own.
  init(dates: DayCache = DayCache()) {
    self.init(taking: ByteWriter(), dates: dates)
  }

  /// An object appended to what `writer` holds; ``finishWriter()`` gives the writer back.
  init(taking writer: consuming ByteWriter, dates: DayCache = DayCache()) {
    self.writer = writer
    self.dates = dates
    self.writer.append(UInt8(ascii: "{"))
  }

  /// The object's bytes (with what the writer held before it).
  consuming func finish() -> [UInt8] {
    finishWriter().array
  }

  /// Closes the object and gives the writer back.
  consuming func finishWriter() -> ByteWriter {
    writer.append(UInt8(ascii: "}"))
    return writer
  }

  /// `,"key":` (no comma before the first key), written at once.
  @inline(__always) private mutating func key(_ key: StaticString) {
    let comma = first ? 0 : 1
    first = false
    let length = key.utf8CodeUnitCount
    writer.append(count: comma + length + 3) { out in
      out[0] = UInt8(ascii: ",")
      out[comma] = UInt8(ascii: "\"")
      (out + comma + 1).update(from: key.utf8Start, count: length)
      out[comma + length + 1] = UInt8(ascii: "\"")
      out[comma + length + 2] = UInt8(ascii: ":")
    }
  }

  mutating func field(_ name: StaticString, _ value: String) {
    key(name)
    JSONWriter.safeString(value, to: &writer)
  }

  /// A field whose name is not known in advance (a decoration's).
  mutating func field(named name: String, _ value: String) {
    if !first { writer.append(UInt8(ascii: ",")) }
    first = false
    JSONWriter.safeString(name, to: &writer)
    writer.append(UInt8(ascii: ":"))
    JSONWriter.safeString(value, to: &writer)
  }

  mutating func field(_ name: StaticString, _ value: Instant) {
    key(name)
    writer.append(UInt8(ascii: "\""))
    dates.append(value, to: &writer)
    writer.append(UInt8(ascii: "\""))
  }

  mutating func field(_ name: StaticString, _ value: UInt64) {
    key(name)
    Self.digits(value, to: &writer)
  }

  mutating func field(_ name: StaticString, _ value: Int64) {
    key(name)
    if value < 0 { writer.append(UInt8(ascii: "-")) }
    Self.digits(value.magnitude, to: &writer)
  }

  mutating func field(_ name: StaticString, _ value: Bool) {
    key(name)
    writer.append(value ? "true" : "false")
  }

  /// A price in milliunits as an exact decimal number: 9990 is `9.99`.
  mutating func price(_ name: StaticString, _ milliunits: Int64) {
    key(name)
    if milliunits < 0 { writer.append(UInt8(ascii: "-")) }
    let magnitude = milliunits.magnitude
    Self.digits(magnitude / 1000, to: &writer)
    var fraction = magnitude % 1000
    guard fraction != 0 else { return }
    writer.append(UInt8(ascii: "."))
    var divisor: UInt64 = 100
    while fraction != 0 {
      writer.append(UInt8(ascii: "0") + UInt8(fraction / divisor))
      fraction %= divisor
      divisor /= 10
    }
  }

  mutating func strings(_ name: StaticString, _ values: [String]) {
    key(name)
    writer.append(UInt8(ascii: "["))
    for (index, value) in values.enumerated() {
      if index > 0 { writer.append(UInt8(ascii: ",")) }
      JSONWriter.safeString(value, to: &writer)
    }
    writer.append(UInt8(ascii: "]"))
  }

  /// An object inside this one: `body` adds its fields.
  mutating func nested(_ name: StaticString, _ body: (inout ObjectBuilder) -> Void) {
    key(name)
    writer.append(UInt8(ascii: "{"))
    first = true
    body(&self)
    first = false
    writer.append(UInt8(ascii: "}"))
  }

  /// The decimal digits of `value`.
  static func digits(_ value: UInt64, to writer: inout ByteWriter) {
    if value < 10 {
      writer.append(UInt8(ascii: "0") + UInt8(value))
      return
    }
    var count = 1
    var limit: UInt64 = 10
    while count < 20 && value >= limit {
      count += 1
      limit = limit &* 10
    }
    writer.append(count: count) { out in
      var position = count
      var rest = value
      while rest >= 100 {
        let pair = Int(rest % 100) * 2
        rest /= 100
        position -= 2
        out[position] = twoDigits[pair]
        out[position + 1] = twoDigits[pair + 1]
      }
      if rest >= 10 {
        out[position - 2] = twoDigits[Int(rest) * 2]
        out[position - 1] = twoDigits[Int(rest) * 2 + 1]
      } else {
        out[position - 1] = UInt8(ascii: "0") + UInt8(rest)
      }
    }
  }
}

/// `00` to `99`, two bytes each.
private let twoDigits: [UInt8] = (0..<100).flatMap {
  [UInt8(ascii: "0") + UInt8($0 / 10), UInt8(ascii: "0") + UInt8($0 % 10)]
}

/// The ISO-8601 text of the last four days dates fell on (`2026-11-22T`), so that dates on
/// those days cost no calendar computation: only the time of day is written, digit pair by digit
/// pair. Four, because an event mixes today's dates with a subscription's original purchase and
/// its recent start.
struct DayCache {
  private var days = SIMD4<Int64>(repeating: .min)
  private var texts = SIMD64<UInt8>()
  private var next = 0

  private static let millisecondsPerDay: Int64 = 86_400_000

  /// Appends `instant` as `2026-11-22T02:01:30.000Z` (what `Instant.iso8601` writes).
  mutating func append(_ instant: Instant, to writer: inout ByteWriter) {
    let milliseconds = instant.milliseconds
    var day = milliseconds / Self.millisecondsPerDay
    if milliseconds % Self.millisecondsPerDay < 0 { day -= 1 }
    var slot = 0
    while slot < 4 && days[slot] != day { slot += 1 }
    if slot == 4 {
      let start = Instant(milliseconds: day * Self.millisecondsPerDay).iso8601
      // Years outside 0000–9999 are written as Instant writes them, without the cache.
      guard start.utf8.count == 24 else {
        writer.append(instant.iso8601)
        return
      }
      slot = next
      next = (next + 1) % 4
      for (index, byte) in start.utf8.prefix(11).enumerated() { texts[slot * 16 + index] = byte }
      days[slot] = day
    }
    let time = Int(milliseconds - day * Self.millisecondsPerDay)
    let texts = self.texts
    let base = slot * 16
    let hours = time / 3_600_000 * 2
    let minutes = time / 60_000 % 60 * 2
    let seconds = time / 1000 % 60 * 2
    let millis = time % 1000
    twoDigits.withUnsafeBufferPointer { pairs in
      writer.append(count: 24) { out in
        for index in 0..<11 { out[index] = texts[base + index] }
        out[11] = pairs[hours]
        out[12] = pairs[hours + 1]
        out[13] = UInt8(ascii: ":")
        out[14] = pairs[minutes]
        out[15] = pairs[minutes + 1]
        out[16] = UInt8(ascii: ":")
        out[17] = pairs[seconds]
        out[18] = pairs[seconds + 1]
        out[19] = UInt8(ascii: ".")
        out[20] = UInt8(ascii: "0") + UInt8(millis / 100)
        out[21] = pairs[millis % 100 * 2]
        out[22] = pairs[millis % 100 * 2 + 1]
        out[23] = UInt8(ascii: "Z")
      }
    }
  }
}
