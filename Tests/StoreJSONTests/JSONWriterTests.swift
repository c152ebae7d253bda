import StoreUtilities
import Testing

@testable import StoreJSON

@Suite struct JSONWriterTests {
  func written(_ text: String) throws -> String {
    let document = try JSONParser.parse(Array(text.utf8))
    return String(decoding: JSONWriter.xcodeFormatted(document), as: UTF8.self)
  }

  @Test func writesXcodeLayout() throws {
    let text = try written(#"{"b":[1,{"c":true}],"a":{},"d":[],"e":null}"#)
    #expect(
      text == """
        {
          "a" : {

          },
          "b" : [
            1,
            {
              "c" : true
            }
          ],
          "d" : [

          ],
          "e" : null
        }
        """)
  }

  @Test func sortsKeysCaseInsensitivelyAsXcodeDoes() throws {
    let text = try written(#"{"_storeKitErrors":1,"_storefront":2,"B":3,"a":4}"#)
    #expect(
      text == "{\n  \"_storefront\" : 2,\n  \"_storeKitErrors\" : 1,\n  \"a\" : 4,\n  \"B\" : 3\n}")
  }

  @Test func writesRawUTF8AndUnescapedSlashes() throws {
    let text = try written(#"{"u":"https:\/\/addy.io\/privacy","j":"\u65e5\u672c"}"#)
    #expect(text.contains(#""u" : "https://addy.io/privacy""#))
    #expect(text.contains(#""j" : "日本""#))
  }

  @Test func escapesQuotesBackslashesAndControlCharacters() throws {
    let text = try written(#"["a\"b\\c\n\u0001"]"#)
    #expect(text == "[\n  \"a\\\"b\\\\c\\n\\u0001\"\n]")
  }

  @Test func keepsTrailingWhitespaceAsFound() throws {
    #expect(try written("{}").hasSuffix("}"))
    #expect(try written("{}\n\n").hasSuffix("}\n\n"))
  }

  @Test func compactFormKeepsOrderAndEscapesTerminalControls() {
    let value = JSONValue.object(
      JSONObject([
        JSONMember("z", .number(JSONNumber(1))), JSONMember("a", .string("x\u{1B}[2J\u{9B}")),
      ]))
    #expect(JSONWriter.compact(value) == #"{"z":1,"a":"x\u001b[2J\u009b"}"#)
  }
}

/// The byte-level escaping against the scalar-by-scalar definition it replaced.
@Suite struct SafeStringTests {
  /// The definition: every scalar a terminal could act on as `\uXXXX`, JSON's own escapes for
  /// the quote, the backslash and the usual controls.
  static func reference(_ text: String) -> String {
    var result = "\""
    for scalar in text.unicodeScalars {
      switch scalar {
      case "\"": result += "\\\""
      case "\\": result += "\\\\"
      case "\n": result += "\\n"
      case "\r": result += "\\r"
      case "\t": result += "\\t"
      case "\u{08}": result += "\\b"
      case "\u{0C}": result += "\\f"
      default:
        if scalar.isUnsafeForTerminal {
          let hex = String(scalar.value, radix: 16)
          result += "\\u" + String(repeating: "0", count: 4 - hex.count) + hex
        } else {
          result.unicodeScalars.append(scalar)
        }
      }
    }
    return result + "\""
  }

  @Test func everyUnsafeScalarIsEscapedAndEverythingElseKept() {
    let pool: [Unicode.Scalar] =
      (0...0xA0).compactMap(Unicode.Scalar.init)
      + [0x2029, 0x202A, 0x202B, 0x202E, 0x202F, 0x2065, 0x2066, 0x2069, 0x206A, 0x3042, 0x1F600]
      .compactMap(Unicode.Scalar.init)
    for scalar in pool {
      var bytes: [UInt8] = []
      JSONWriter.safeString("a\(scalar)b", to: &bytes)
      #expect(String(decoding: bytes, as: UTF8.self) == Self.reference("a\(scalar)b"))
    }
    var generator = SystemRandomNumberGenerator()
    for _ in 0..<2_000 {
      var text = String.UnicodeScalarView()
      for _ in 0..<Int.random(in: 0...12, using: &generator) {
        text.append(pool.randomElement(using: &generator)!)
      }
      var bytes: [UInt8] = []
      JSONWriter.safeString(String(text), to: &bytes)
      #expect(String(decoding: bytes, as: UTF8.self) == Self.reference(String(text)))
    }
  }

  /// Plain text is skipped eight bytes at a time: a byte to escape is found at every place in a
  /// word, and in the tail after the last whole word.
  @Test func anUnsafeByteIsFoundAtEveryPlaceOfALongPlainText() {
    let plain = Array("abcdefghijklmnopqrstuvwxyz0123456789".unicodeScalars)
    let unsafe: [Unicode.Scalar] = ["\"", "\\", "\u{0}", "\u{1F}", "\u{7F}", "\u{85}", "\u{202E}"]
    for scalar in unsafe {
      for place in 0..<plain.count {
        var scalars = plain
        scalars[place] = scalar
        let text = String(String.UnicodeScalarView(scalars))
        var bytes: [UInt8] = []
        JSONWriter.safeString(text, to: &bytes)
        #expect(String(decoding: bytes, as: UTF8.self) == Self.reference(text), "at \(place)")
      }
    }
    var long: [UInt8] = []
    JSONWriter.safeString(String(String.UnicodeScalarView(plain)), to: &long)
    #expect(long == Array("\"\(String(String.UnicodeScalarView(plain)))\"".utf8))
  }
}
