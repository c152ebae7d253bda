/// A parsed JSON text: the root value and the white space that followed it.
public struct JSONDocument: Equatable, Sendable {
  /// The root value.
  public var root: JSONValue
  /// The white space after the root value (`"\n"` in most Xcode files, `""` in the oldest).
  public var trailingWhitespace: String

  /// Creates a document.
  public init(root: JSONValue, trailingWhitespace: String = "\n") {
    self.root = root
    self.trailingWhitespace = trailingWhitespace
  }
}

/// A JSON syntax error with its position in the text.
public struct JSONSyntaxError: Error, Equatable, Sendable {
  /// What is wrong, for a person.
  public var message: String
  /// The 1-based line of the offending byte.
  public var line: Int
  /// The 1-based column, counted in Unicode scalars.
  public var column: Int
  /// The byte offset of the offending byte.
  public var offset: Int
}

/// Parses JSON text (RFC 8259) into an order-preserving ``JSONValue`` tree.
public enum JSONParser {
  /// The deepest nesting accepted; deeper input is refused rather than exhausting the stack.
  public static let maximumDepth = 512

  /// Parses `bytes` as one JSON value surrounded by optional white space.
  ///
  /// The bytes must be UTF-8; a byte-order mark is refused with a message that says so.
  /// - Throws: ``JSONSyntaxError`` naming the line and column of the first problem.
  /// - Complexity: O(*n*) in the length of the text.
  public static func parse(_ bytes: [UInt8]) throws(JSONSyntaxError) -> JSONDocument {
    let result: Result<JSONDocument, JSONSyntaxError> = bytes.withUnsafeBufferPointer { buffer in
      var scanner = JSONScanner(bytes: buffer)
      do throws(ScanFailure) {
        return .success(try scanner.document())
      } catch {
        return .failure(syntaxError(error, in: buffer))
      }
    }
    return try result.get()
  }

  private static func syntaxError(
    _ failure: ScanFailure, in bytes: UnsafeBufferPointer<UInt8>
  ) -> JSONSyntaxError {
    var line = 1
    var column = 1
    var index = 0
    let end = min(failure.offset, bytes.count)
    while index < end {
      let byte = bytes[index]
      if byte == UInt8(ascii: "\n") {
        line += 1
        column = 1
      } else if byte & 0xC0 != 0x80 {
        column += 1
      }
      index += 1
    }
    return JSONSyntaxError(
      message: failure.message, line: line, column: column, offset: failure.offset)
  }
}

struct ScanFailure: Error {
  var message: String
  var offset: Int
}

/// Reads one JSON document from bytes, byte by byte, with the offset of every failure.
struct JSONScanner {
  let bytes: UnsafeBufferPointer<UInt8>
  var index = 0
  var depth = 0

  init(bytes: UnsafeBufferPointer<UInt8>) { self.bytes = bytes }

  mutating func document() throws(ScanFailure) -> JSONDocument {
    if let bad = firstInvalidUTF8Offset(bytes) {
      throw ScanFailure(
        message:
          "the file is not UTF-8 text (byte 0x\(hex(bytes[bad])) cannot start or continue a character)",
        offset: bad)
    }
    if bytes.starts(with: [0xEF, 0xBB, 0xBF]) {
      throw ScanFailure(message: "the file starts with a byte-order mark; remove it", offset: 0)
    }
    skipWhitespace()
    if index == bytes.count {
      throw ScanFailure(message: "the file holds no JSON value (it is empty)", offset: index)
    }
    let root = try value()
    let trailingStart = index
    skipWhitespace()
    if index < bytes.count {
      throw ScanFailure(message: "unexpected text after the JSON value", offset: index)
    }
    return JSONDocument(root: root, trailingWhitespace: text(trailingStart..<index))
  }

  func text(_ range: Range<Int>) -> String {
    String(decoding: UnsafeBufferPointer(rebasing: bytes[range]), as: UTF8.self)
  }

  mutating func skipWhitespace() {
    while index < bytes.count {
      switch bytes[index] {
      case 0x20, 0x0A, 0x0D, 0x09: index += 1
      default: return
      }
    }
  }

  func describeByte(at offset: Int) -> String {
    guard offset < bytes.count else { return "the end of the file" }
    let byte = bytes[offset]
    if byte >= 0x21 && byte < 0x7F { return "'\(Character(Unicode.Scalar(byte)))'" }
    return "byte 0x\(hex(byte))"
  }

  mutating func value() throws(ScanFailure) -> JSONValue {
    guard index < bytes.count else {
      throw ScanFailure(message: "expected a value but found the end of the file", offset: index)
    }
    switch bytes[index] {
    case UInt8(ascii: "{"): return .object(try object())
    case UInt8(ascii: "["): return .array(try array())
    case UInt8(ascii: "\""): return .string(try string())
    case UInt8(ascii: "t"): try literal("true"); return .bool(true)
    case UInt8(ascii: "f"): try literal("false"); return .bool(false)
    case UInt8(ascii: "n"): try literal("null"); return .null
    case UInt8(ascii: "-"), UInt8(ascii: "0")...UInt8(ascii: "9"): return .number(try number())
    default:
      throw ScanFailure(
        message: "expected a value but found \(describeByte(at: index))", offset: index)
    }
  }

  mutating func enter() throws(ScanFailure) {
    depth += 1
    if depth > JSONParser.maximumDepth {
      throw ScanFailure(
        message: "nesting deeper than \(JSONParser.maximumDepth) levels", offset: index)
    }
  }

  mutating func object() throws(ScanFailure) -> JSONObject {
    try enter()
    index += 1
    var members: [JSONMember] = []
    skipWhitespace()
    if index < bytes.count && bytes[index] == UInt8(ascii: "}") {
      index += 1
      depth -= 1
      return JSONObject(members)
    }
    while true {
      skipWhitespace()
      guard index < bytes.count, bytes[index] == UInt8(ascii: "\"") else {
        throw ScanFailure(
          message: "expected a key in quotes but found \(describeByte(at: index))",
          offset: index)
      }
      let key = try string()
      skipWhitespace()
      guard index < bytes.count, bytes[index] == UInt8(ascii: ":") else {
        throw ScanFailure(
          message: "expected ':' after the key \"\(key)\" but found \(describeByte(at: index))",
          offset: index)
      }
      index += 1
      skipWhitespace()
      members.append(JSONMember(key, try value()))
      skipWhitespace()
      guard index < bytes.count else {
        throw ScanFailure(message: "the object is not closed: expected '}'", offset: index)
      }
      switch bytes[index] {
      case UInt8(ascii: ","): index += 1
      case UInt8(ascii: "}"):
        index += 1
        depth -= 1
        return JSONObject(members)
      default:
        throw ScanFailure(
          message: "expected ',' or '}' after a member but found \(describeByte(at: index))",
          offset: index)
      }
    }
  }

  mutating func array() throws(ScanFailure) -> [JSONValue] {
    try enter()
    index += 1
    var elements: [JSONValue] = []
    skipWhitespace()
    if index < bytes.count && bytes[index] == UInt8(ascii: "]") {
      index += 1
      depth -= 1
      return elements
    }
    while true {
      skipWhitespace()
      elements.append(try value())
      skipWhitespace()
      guard index < bytes.count else {
        throw ScanFailure(message: "the array is not closed: expected ']'", offset: index)
      }
      switch bytes[index] {
      case UInt8(ascii: ","): index += 1
      case UInt8(ascii: "]"):
        index += 1
        depth -= 1
        return elements
      default:
        throw ScanFailure(
          message: "expected ',' or ']' after an element but found \(describeByte(at: index))",
          offset: index)
      }
    }
  }

  mutating func literal(_ word: StaticString) throws(ScanFailure) {
    let count = word.utf8CodeUnitCount
    let matches =
      index + count <= bytes.count
      && word.withUTF8Buffer { expected in
        (0..<count).allSatisfy { bytes[index + $0] == expected[$0] }
      }
    guard matches else {
      throw ScanFailure(
        message: "expected \(word) but found \(describeByte(at: index))", offset: index)
    }
    index += count
  }

  mutating func number() throws(ScanFailure) -> JSONNumber {
    let start = index
    func digits(_ scanner: inout JSONScanner) -> Int {
      let first = scanner.index
      while scanner.index < scanner.bytes.count,
        (UInt8(ascii: "0")...UInt8(ascii: "9")).contains(scanner.bytes[scanner.index])
      {
        scanner.index += 1
      }
      return scanner.index - first
    }
    if bytes[index] == UInt8(ascii: "-") { index += 1 }
    let leadingZero = index < bytes.count && bytes[index] == UInt8(ascii: "0")
    let integerDigits = digits(&self)
    guard integerDigits > 0 else {
      throw ScanFailure(message: "expected a digit after '-'", offset: index)
    }
    if leadingZero && integerDigits > 1 {
      throw ScanFailure(message: "a number cannot start with 0", offset: start)
    }
    if index < bytes.count && bytes[index] == UInt8(ascii: ".") {
      index += 1
      guard digits(&self) > 0 else {
        throw ScanFailure(message: "expected a digit after the decimal point", offset: index)
      }
    }
    if index < bytes.count && (bytes[index] | 0x20) == UInt8(ascii: "e") {
      index += 1
      if index < bytes.count && (bytes[index] == 0x2B || bytes[index] == 0x2D) { index += 1 }
      guard digits(&self) > 0 else {
        throw ScanFailure(message: "expected a digit in the exponent", offset: index)
      }
    }
    return JSONNumber(text: text(start..<index))
  }
}
