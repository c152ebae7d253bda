import Foundation

/// Base64url without padding (RFC 4648 §5), as JWS parts are written.
public enum Base64URL {
  /// The bytes of a base64url text, or `nil` when it is not one.
  public static func decode<Text: StringProtocol>(_ text: Text) -> [UInt8]? {
    guard text.utf8.count % 4 != 1,
      text.utf8.allSatisfy({
        ($0 >= 0x41 && $0 <= 0x5A) || ($0 >= 0x61 && $0 <= 0x7A) || ($0 >= 0x30 && $0 <= 0x39)
          || $0 == UInt8(ascii: "-") || $0 == UInt8(ascii: "_")
      })
    else { return nil }
    var base64 = text.replacingOccurrences(of: "-", with: "+").replacingOccurrences(
      of: "_", with: "/")
    while base64.count % 4 != 0 { base64 += "=" }
    return Data(base64Encoded: base64).map { [UInt8]($0) }
  }

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
