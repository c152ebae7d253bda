import Foundation
import HTTPTypes
import Testing

@testable import StoreServer

/// Upload Image takes a PNG only when the whole file is one (Apple answers 4000161 otherwise):
/// its chunks, CRCs, header, palette and image data, inflated.
@Suite struct PNGCheckTests {
  /// A chunk: length, type, data, CRC.
  static func chunk(_ type: String, _ data: [UInt8], crc: UInt32? = nil) -> [UInt8] {
    let body = Array(type.utf8) + data
    return bigEndian(UInt32(data.count)) + body + bigEndian(crc ?? crc32(body))
  }

  static func bigEndian(_ value: UInt32) -> [UInt8] {
    [UInt8(value >> 24), UInt8(value >> 16 & 0xFF), UInt8(value >> 8 & 0xFF), UInt8(value & 0xFF)]
  }

  static func crc32(_ bytes: [UInt8]) -> UInt32 {
    var crc: UInt32 = 0xFFFF_FFFF
    for byte in bytes {
      crc ^= UInt32(byte)
      for _ in 0..<8 { crc = crc & 1 == 1 ? 0xEDB8_8320 ^ (crc >> 1) : crc >> 1 }
    }
    return crc ^ 0xFFFF_FFFF
  }

  /// A zlib stream of stored (uncompressed) blocks holding `raw`.
  static func zlib(_ raw: [UInt8]) -> [UInt8] {
    var out: [UInt8] = [0x78, 0x01]
    var blocks = stride(from: 0, to: max(raw.count, 1), by: 65_535).map {
      Array(raw[$0..<min(raw.count, $0 + 65_535)])
    }
    if blocks.isEmpty { blocks = [[]] }
    for (index, block) in blocks.enumerated() {
      let length = UInt16(block.count)
      out += [index == blocks.count - 1 ? 1 : 0, UInt8(length & 0xFF), UInt8(length >> 8)]
      out += [UInt8(~length & 0xFF), UInt8(~length >> 8)] + block
    }
    var a: UInt32 = 1
    var b: UInt32 = 0
    for byte in raw {
      a = (a + UInt32(byte)) % 65_521
      b = (b + a) % 65_521
    }
    return out + bigEndian(b << 16 | a)
  }

  static let signature: [UInt8] = [0x89, 0x50, 0x4E, 0x47, 0x0D, 0x0A, 0x1A, 0x0A]

  /// A PNG of `width` × `height` with 8-bit samples of `colorType`, rows filtered with
  /// `filter`; `extra` chunks before the image data.
  static func png(
    _ width: Int, _ height: Int, colorType: UInt8 = 2, filter: UInt8 = 0,
    extra: [[UInt8]] = [], rows: Int? = nil, interlace: UInt8 = 0
  ) -> [UInt8] {
    let channels = [0: 1, 2: 3, 3: 1, 4: 2, 6: 4][Int(colorType)]!
    let row = [filter] + [UInt8](repeating: 0x80, count: width * channels)
    let raw = (0..<(rows ?? height)).flatMap { _ in row }
    let header =
      bigEndian(UInt32(width)) + bigEndian(UInt32(height)) + [8, colorType, 0, 0, interlace]
    return signature + chunk("IHDR", header) + extra.flatMap { $0 }
      + chunk("IDAT", zlib(raw)) + chunk("IEND", [])
  }

  func problem(_ bytes: [UInt8]) -> String? {
    do throws(PNGHeader.Problem) {
      _ = try PNGHeader(bytes)
      return nil
    } catch {
      return error.reason
    }
  }

  @Test func aWholePNGIsReadWithItsTransparency() throws {
    #expect(try PNGHeader(Self.png(4, 3)) == PNGHeader(width: 4, height: 3, transparent: false))
    #expect(try PNGHeader(Self.png(4, 3, colorType: 6)).transparent)
    let palette = Self.chunk("PLTE", [0, 0, 0, 255, 255, 255])
    #expect(try !PNGHeader(Self.png(2, 2, colorType: 3, extra: [palette])).transparent)
    let alpha = Self.chunk("tRNS", [0])
    #expect(try PNGHeader(Self.png(2, 2, colorType: 3, extra: [palette, alpha])).transparent)
    #expect(try PNGHeader(Self.png(5, 5, filter: 4)).width == 5)
  }

  @Test func anInterlacedPNGHoldsAdam7sPasses() throws {
    // 3 × 3 under Adam7: passes 1 (1 × 1), 4 (1 × 1), 5 (2 × 1), 6 (1 × 2), 7 (3 × 1).
    let rows: [[UInt8]] =
      [[0, 1, 1, 1], [0, 2, 2, 2], [0, 3, 3, 3, 3, 3, 3]]
      + [[0, 4, 4, 4], [0, 4, 4, 4]] + [[0] + [UInt8](repeating: 5, count: 9)]
    let header = Self.bigEndian(3) + Self.bigEndian(3) + [8, 2, 0, 0, 1]
    let file =
      Self.signature + Self.chunk("IHDR", header)
      + Self.chunk("IDAT", Self.zlib(rows.flatMap { $0 }))
      + Self.chunk("IEND", [])
    #expect(try PNGHeader(file) == PNGHeader(width: 3, height: 3, transparent: false))
  }

  @Test func whatIsNotAWholePNGIsRefusedSayingWhy() {
    let good = Self.png(4, 3)
    let ihdrOnly = Array(good.prefix(8 + 25))
    #expect(problem(ihdrOnly) == "it has no IEND chunk")
    var badCRC = good
    badCRC[8 + 21] ^= 0xFF
    #expect(problem(badCRC) == "chunk IHDR's CRC does not match its bytes")
    let header9 = Self.bigEndian(4) + Self.bigEndian(3) + [8, 9, 0, 0, 0]
    let type9 = Self.signature + Self.chunk("IHDR", header9) + Array(good.dropFirst(33))
    #expect(problem(type9) == "IHDR's colour type 9 is none of PNG's (0, 2, 3, 4, 6)")
    let garbage =
      Array(good.prefix(33)) + Self.chunk("IDAT", Array("garbage, not zlib".utf8))
      + Self.chunk("IEND", [])
    #expect(problem(garbage)?.hasPrefix("the image data is not a whole zlib stream") == true)
    let hugeLength =
      Array(good.prefix(33)) + [0xFF, 0xFF, 0xFF, 0xFF] + Array("IDAT".utf8) + [0, 0, 0, 0]
      + Self.chunk("IEND", [])
    #expect(problem(hugeLength) == "chunk IDAT's length 4294967295 runs past the file's end")
    #expect(
      problem(Self.png(4, 3, rows: 2)) == "the image data holds 26 bytes, not the 39 its rows need")
    #expect(
      problem(Self.png(4, 3, rows: 4)) == "the image data holds more bytes than its rows need")
    #expect(problem(Self.png(4, 3, filter: 7)) == "row 1 has filter type 7, not 0 to 4")
    #expect(problem(good + [0]) == "there are bytes after IEND")
    #expect(
      problem(Self.png(2, 2, colorType: 3)) == "a palette image (colour type 3) has no PLTE chunk")
    #expect(problem(Array("GIF89a".utf8)) == "it does not start with PNG's signature")
    let noIDAT = Array(good.prefix(33)) + Self.chunk("IEND", [])
    #expect(problem(noIDAT) == "it has no IDAT chunk")
    // A zlib header, then deflate data that is not.
    let lying =
      Array(good.prefix(33)) + Self.chunk("IDAT", [0x78, 0x9C, 0xFF, 0xFF, 0xFF, 0xFF])
      + Self.chunk("IEND", [])
    #expect(problem(lying)?.hasPrefix("the image data is not a whole zlib stream") == true)
  }

  /// Through the served router: a damaged PNG is 4000161 naming what is wrong, and a body past
  /// the image limit names that limit.
  @Test func uploadImageAnswersWhatIsWrong() async throws {
    let served = try makeServed()
    let id = "4b2cd2a6-1e5c-4b8f-9a0e-6f4f3f0a9c11"
    var badCRC = Self.png(4, 3)
    badCRC[8 + 21] ^= 0xFF
    let token = try StoreServerTests.token(key: anyKey, claims: goodClaims())
    var headers = HTTPFields()
    headers[.authorization] = "Bearer \(token)"
    let answer = try await served.answer(
      .put, "/inApps/v1/messaging/image/\(id)", headers: headers, body: badCRC)
    #expect(answer.status == 400)
    #expect(answer.object["errorCode"] as? Int == 4_000_161)
    #expect(
      answer.object["errorMessage"] as? String
        == "Invalid image. The body is not a PNG file: chunk IHDR's CRC does not match its bytes.")
    let large = try await served.answer(
      .put, "/inApps/v1/messaging/image/\(id)", headers: headers,
      body: [UInt8](repeating: 0, count: (32 << 20) + 1))
    #expect(large.status == 413)
    #expect(
      large.object["errorMessage"] as? String == "Bad request. The body is larger than 32 MB.")
  }
}
