import Foundation

/// Base64url without padding (RFC 4648 §5), as JWS parts are written.
public enum Base64URL {
  /// The bytes of a base64url text, or `nil` when it is not one (a character outside the
  /// alphabet, padding, or a length no bytes encode to).
  ///
  /// - Complexity: O(*n*), one pass over the text's UTF-8.
  public static func decode<Text: StringProtocol>(_ text: Text) -> [UInt8]? {
    let count = text.utf8.count
    guard count % 4 != 1 else { return nil }
    var bytes: [UInt8] = []
    bytes.reserveCapacity(count * 3 / 4)
    var bits: UInt32 = 0
    var held = 0
    for symbol in text.utf8 {
      let value = values[Int(symbol)]
      guard value != invalid else { return nil }
      bits = (bits << 6 | UInt32(value)) & 0xFFFFFF
      held += 6
      if held >= 8 {
        held -= 8
        bytes.append(UInt8(truncatingIfNeeded: bits >> UInt32(held)))
      }
    }
    return bytes
  }

  /// Each symbol's 6 bits by its byte; ``invalid`` for every other byte.
  private static let values: [UInt8] = {
    var values = [UInt8](repeating: invalid, count: 256)
    for (value, symbol) in UnsafeBufferPointer(start: alphabet.utf8Start, count: 64).enumerated() {
      values[Int(symbol)] = UInt8(value)
    }
    return values
  }()
  private static let invalid: UInt8 = 0xFF

  /// How many characters base64url without padding makes of `count` bytes.
  public static func encodedCount(_ count: Int) -> Int { (count * 4 + 2) / 3 }

  /// Base64url without padding of `bytes`.
  public static func encode(_ bytes: UnsafeRawBufferPointer) -> String {
    String(unsafeUninitializedCapacity: encodedCount(bytes.count)) { output in
      encode(bytes, into: output.baseAddress!)
    }
  }

  /// The 64 symbols.
  private static let alphabet: StaticString =
    "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789-_"

  /// The two symbols of every 12 bits, first symbol in the low byte: three bytes are two
  /// lookups.
  private static let pairs: [UInt16] = (0..<4096).map { value in
    UInt16(alphabet.utf8Start[value >> 6]) | UInt16(alphabet.utf8Start[value & 63]) << 8
  }

  /// Writes base64url without padding of `bytes` at `output` (``encodedCount(_:)`` bytes of
  /// room); how many it wrote.
  @discardableResult
  public static func encode(
    _ bytes: UnsafeRawBufferPointer, into output: UnsafeMutablePointer<UInt8>
  ) -> Int {
    let symbol = alphabet.utf8Start
    var written = 0
    var index = 0
    let count = bytes.count
    pairs.withUnsafeBufferPointer { pairs in
      let raw = UnsafeMutableRawPointer(output)
      while index + 3 <= count {
        let value =
          Int(bytes[index]) << 16 | Int(bytes[index + 1]) << 8 | Int(bytes[index + 2])
        raw.storeBytes(of: pairs[value >> 12].littleEndian, toByteOffset: written, as: UInt16.self)
        raw.storeBytes(
          of: pairs[value & 0xFFF].littleEndian, toByteOffset: written + 2, as: UInt16.self)
        written += 4
        index += 3
      }
    }
    let rest = count - index
    if rest > 0 {
      let value = UInt32(bytes[index]) << 16 | (rest == 2 ? UInt32(bytes[index + 1]) << 8 : 0)
      output[written] = symbol[Int(value >> 18)]
      output[written + 1] = symbol[Int(value >> 12 & 63)]
      written += 2
      if rest == 2 {
        output[written] = symbol[Int(value >> 6 & 63)]
        written += 1
      }
    }
    return written
  }
}
