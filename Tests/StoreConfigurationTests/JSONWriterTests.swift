import Testing

@testable import StoreConfiguration

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
