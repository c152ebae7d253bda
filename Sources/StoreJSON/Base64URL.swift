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
}
