import Foundation
import Testing

@testable import StoreJSON

/// Base64url without padding, as JWS parts are written: what is encoded decodes back, and text
/// that is not base64url (padding, standard base64's symbols, an impossible length, any other
/// byte) is not decoded.
@Suite struct Base64URLDecodingTests {
  @Test func everyLengthDecodesBackToItsBytes() {
    for count in 0...70 {
      let bytes = (0..<count).map { UInt8(truncatingIfNeeded: $0 &* 131 &+ count) }
      let text = bytes.withUnsafeBytes { Base64URL.encode($0) }
      #expect(Base64URL.decode(text) == bytes, "\(count) bytes: \(text)")
      // The same as Foundation's standard base64, once translated.
      let standard = Data(bytes).base64EncodedString()
        .replacingOccurrences(of: "+", with: "-").replacingOccurrences(of: "/", with: "_")
        .replacingOccurrences(of: "=", with: "")
      #expect(standard == text)
    }
    #expect(
      Base64URL.decode("eyJhbGciOiJFUzI1NiJ9".dropFirst(0)) == Array(#"{"alg":"ES256"}"#.utf8))
  }

  @Test func textThatIsNotBase64URLIsNotDecoded() {
    for text in ["QQ==", "a+b/", "abcde", "ab c", "ab\u{e9}d", "ab.d"] {
      #expect(Base64URL.decode(text) == nil, "\(text)")
    }
    #expect(Base64URL.decode("") == [])
  }
}
