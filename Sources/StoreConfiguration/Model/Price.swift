/// A price as `.storekit` files write it: a decimal number in a string, with no currency
/// (`"0.99"`, `"13900"`, `"98.0"`, and sometimes `""`). The storefront decides the currency.
public struct Price: Hashable, Sendable, CustomStringConvertible {
  /// The text exactly as written.
  public var text: String

  /// Creates a price from its text. The text is not checked; see ``isValid``.
  public init(_ text: String) { self.text = text }

  /// Whether the text is a plain decimal number: digits, optionally a point and more digits.
  public var isValid: Bool { milliunits != nil }

  /// Whether the text is empty, as one intro offer in the wild has it.
  public var isEmpty: Bool { text.isEmpty }

  /// The price in thousandths of the currency unit (`"0.99"` is 990), rounded half up past the
  /// third decimal; `nil` when the text is not a plain decimal number.
  ///
  /// Milliunits are what App Store JWS payloads carry, and integers keep the engine exact.
  public var milliunits: Int64? {
    var units: Int64 = 0
    var fraction: Int64 = 0
    var fractionDigits = 0
    var roundUp = false
    var sawPoint = false
    var sawDigit = false
    for byte in text.utf8 {
      if byte == UInt8(ascii: ".") {
        guard !sawPoint, sawDigit else { return nil }
        sawPoint = true
        continue
      }
      guard (UInt8(ascii: "0")...UInt8(ascii: "9")).contains(byte) else { return nil }
      let digit = Int64(byte - UInt8(ascii: "0"))
      sawDigit = true
      if !sawPoint {
        let (product, overflow) = units.multipliedReportingOverflow(by: 10)
        guard !overflow, product <= Int64.max / 1000 - 10 else { return nil }
        units = product + digit
      } else if fractionDigits < 3 {
        fraction = fraction * 10 + digit
        fractionDigits += 1
      } else if fractionDigits == 3 {
        roundUp = digit >= 5
        fractionDigits += 1
      }
    }
    guard sawDigit, text.utf8.last != UInt8(ascii: ".") else { return nil }
    while fractionDigits < 3 {
      fraction *= 10
      fractionDigits += 1
    }
    return units * 1000 + fraction + (roundUp ? 1 : 0)
  }

  /// The text.
  public var description: String { text }
}
