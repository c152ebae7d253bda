import Testing

@testable import StoreJSON

@Suite struct JSONParserTests {
  func parse(_ text: String) throws -> JSONDocument { try JSONParser.parse(Array(text.utf8)) }

  func syntaxError(_ text: String) -> JSONSyntaxError? {
    do {
      _ = try JSONParser.parse(Array(text.utf8))
      return nil
    } catch { return error }
  }

  @Test func keepsMemberOrderAndDuplicateKeys() throws {
    let document = try parse(#"{"b" : 1, "a" : 2, "b" : 3}"#)
    guard case .object(let object) = document.root else {
      Issue.record("not an object")
      return
    }
    #expect(object.keys == ["b", "a", "b"])
    #expect(object["b"] == .number(JSONNumber(text: "1")))
  }

  @Test func keepsNumberTextExactly() throws {
    let document = try parse("[697955872.64341402, -0.5e+10, 0, 13900]")
    #expect(
      document.root
        == .array(
          ["697955872.64341402", "-0.5e+10", "0", "13900"].map { .number(JSONNumber(text: $0)) }))
  }

  @Test func decodesEscapesAndSurrogatePairs() throws {
    let document = try parse(#"["a\"b\\c\/d\n\t\u00e9\ud83d\ude00", "日本語"]"#)
    #expect(document.root == .array([.string("a\"b\\c/d\n\té😀"), .string("日本語")]))
  }

  @Test func remembersTrailingWhitespace() throws {
    #expect(try parse("{}").trailingWhitespace == "")
    #expect(try parse("{}\n\n").trailingWhitespace == "\n\n")
  }

  @Test func reportsLineAndColumnOfSyntaxErrors() {
    let error = syntaxError("{\n  \"a\" : 1,\n  \"b\" 2\n}")
    #expect(error?.line == 3)
    #expect(error?.column == 7)
    #expect(error?.message == "expected ':' after the key \"b\" but found '2'")
  }

  @Test func countsColumnsInCharactersNotBytes() {
    let error = syntaxError("[\"日本\", x]")
    #expect(error?.line == 1)
    #expect(error?.column == 8)
  }

  @Test(arguments: [
    ("", "the file holds no JSON value (it is empty)"),
    ("{\"a\" : [1, 2", "the array is not closed: expected ']'"),
    ("{\"a\" : 1,}", "expected a key in quotes but found '}'"),
    ("[1 2]", "expected ',' or ']' after an element but found '2'"),
    ("[01]", "a number cannot start with 0"),
    ("[1.]", "expected a digit after the decimal point"),
    ("[tru]", "expected true but found 't'"),
    ("{} x", "unexpected text after the JSON value"),
    ("[\"a\u{1}\"]", "a control character (0x01) inside a string must be escaped"),
    ("[\"\\x\"]", "an unknown escape sequence \\'x'"),
    ("[\"\\ud800\"]", "a lone high surrogate \\uD800"),
    ("[\"abc", "the string is not closed: expected '\"'"),
  ])
  func describesSyntaxErrors(text: String, message: String) {
    #expect(syntaxError(text)?.message == message)
  }

  @Test func refusesInvalidUTF8WithItsPosition() {
    do {
      _ = try JSONParser.parse([0x7B, 0x0A, 0x20, 0xFF, 0x7D])
      Issue.record("invalid UTF-8 was accepted")
    } catch {
      #expect(error.line == 2)
      #expect(error.column == 2)
      #expect(error.message.hasPrefix("the file is not UTF-8 text (byte 0xFF"))
    }
  }

  @Test func refusesByteOrderMark() {
    #expect(
      syntaxError("\u{FEFF}{}")?.message == "the file starts with a byte-order mark; remove it")
  }

  @Test func refusesNestingDeeperThanTheLimit() {
    let deep = String(repeating: "[", count: 100_000)
    #expect(syntaxError(deep)?.message == "nesting deeper than 512 levels")
    let fine = String(repeating: "[", count: 500) + String(repeating: "]", count: 500)
    #expect(syntaxError(fine) == nil)
  }

  @Test func rejectsOverlongAndSurrogateUTF8() {
    for bytes: [UInt8] in [
      [0xC0, 0x80], [0xED, 0xA0, 0x80], [0xF4, 0x90, 0x80, 0x80], [0xE2, 0x82],
    ] {
      let invalid = bytes.withUnsafeBufferPointer { firstInvalidUTF8Offset($0) }
      #expect(invalid == 0, "\(bytes)")
    }
    let valid = Array("aé日😀".utf8).withUnsafeBufferPointer { firstInvalidUTF8Offset($0) }
    #expect(valid == nil)
  }
}
