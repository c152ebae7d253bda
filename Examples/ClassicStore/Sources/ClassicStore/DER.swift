#if canImport(StoreKit)
  import StoreKit
#else
  import StorekeeperKit
#endif

/// One DER element: its tag, its content, and all its bytes (tag and length included).
struct DERElement {
  let tag: UInt8
  let content: ArraySlice<UInt8>
  let whole: ArraySlice<UInt8>

  /// The elements its content holds (for a SEQUENCE, a SET or a context tag).
  func children() throws -> [DERElement] { try DER.elements(content) }

  /// Its content as a non-negative integer (an INTEGER of up to eight bytes).
  var integer: Int { content.reduce(0) { $0 << 8 | Int($1) } }

  /// Its content as text (UTF8String, IA5String).
  var text: String { String(decoding: content, as: UTF8.self) }
}

/// A reader of DER, the encoding of receipts and certificates: enough to walk PKCS#7.
enum DER {
  struct Malformed: Error {}

  /// The elements one after another in `bytes`.
  static func elements(_ bytes: ArraySlice<UInt8>) throws -> [DERElement] {
    var elements: [DERElement] = []
    var index = bytes.startIndex
    while index < bytes.endIndex {
      let start = index
      let tag = bytes[index]
      index += 1
      guard index < bytes.endIndex else { throw Malformed() }
      var length = Int(bytes[index])
      index += 1
      if length & 0x80 != 0 {
        let count = length & 0x7F
        guard count <= 4, index + count <= bytes.endIndex else { throw Malformed() }
        length = bytes[index..<index + count].reduce(0) { $0 << 8 | Int($1) }
        index += count
      }
      guard index + length <= bytes.endIndex else { throw Malformed() }
      elements.append(
        DERElement(
          tag: tag, content: bytes[index..<index + length], whole: bytes[start..<index + length]))
      index += length
    }
    return elements
  }
}
