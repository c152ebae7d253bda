import CZlib

/// What Upload Image needs to know of a PNG: its dimensions and whether it can be transparent
/// (an alpha channel, colour types 4 and 6, or a `tRNS` chunk), once the whole file is known to
/// be one (PNG's specification, ISO/IEC 15948): the signature; chunks whose lengths fit the
/// file and whose CRCs match; an `IHDR` first with dimensions and a bit depth its colour type
/// allows; a palette where one is needed; `IDAT`s in one run whose zlib stream inflates to
/// exactly the image's rows, each with a filter type PNG has; `IEND` last.
struct PNGHeader: Equatable {
  var width: Int
  var height: Int
  var transparent: Bool

  /// Why bytes are not a PNG, for Upload Image's message.
  struct Problem: Error, Equatable {
    var reason: String
    init(_ reason: String) { self.reason = reason }
  }

  private static let signature: [UInt8] = [0x89, 0x50, 0x4E, 0x47, 0x0D, 0x0A, 0x1A, 0x0A]
  /// The bit depths each colour type allows.
  private static let depths: [UInt8: Set<UInt8>] = [
    0: [1, 2, 4, 8, 16], 2: [8, 16], 3: [1, 2, 4, 8], 4: [8, 16], 6: [8, 16],
  ]
  /// Samples a pixel of each colour type holds.
  private static let channels: [UInt8: Int] = [0: 1, 2: 3, 3: 1, 4: 2, 6: 4]

  init(width: Int, height: Int, transparent: Bool) {
    self.width = width
    self.height = height
    self.transparent = transparent
  }

  /// The header of `bytes`, checked whole.
  ///
  /// - Throws: ``Problem`` saying the first thing that makes them not a PNG.
  init(_ bytes: [UInt8]) throws(Problem) {
    guard bytes.count >= 8, bytes[0..<8].elementsEqual(Self.signature) else {
      throw Problem("it does not start with PNG's signature")
    }
    let chunks = try PNGChunks(bytes)
    let header = try Self.header(chunks, bytes)
    width = header.width
    height = header.height
    let colorType = bytes[header.at + 9]
    transparent = colorType == 4 || colorType == 6 || chunks.has("tRNS")
    try Self.checkPalette(chunks, colorType: colorType)
    let layout = try PNGRows(
      width: width, height: height,
      bitsPerPixel: Int(bytes[header.at + 8])
        * Self.channels[colorType]!, interlaced: bytes[header.at + 12] == 1)
    try PNGInflater.check(chunks.data(of: "IDAT", in: bytes), against: layout)
  }

  /// The `IHDR` chunk's dimensions and where its data starts, checked.
  private static func header(
    _ chunks: PNGChunks, _ bytes: [UInt8]
  ) throws(Problem) -> (width: Int, height: Int, at: Int) {
    guard let first = chunks.list.first, first.type == "IHDR", first.length == 13 else {
      throw Problem("its first chunk is not a 13-byte IHDR")
    }
    let at = first.start
    let width = PNGChunks.number(bytes, at)
    let height = PNGChunks.number(bytes, at + 4)
    guard (1...0x7FFF_FFFF).contains(width), (1...0x7FFF_FFFF).contains(height) else {
      throw Problem("IHDR's width and height must be 1 to 2147483647 (\(width) × \(height))")
    }
    let depth = bytes[at + 8]
    let colorType = bytes[at + 9]
    guard let allowed = depths[colorType] else {
      throw Problem("IHDR's colour type \(colorType) is none of PNG's (0, 2, 3, 4, 6)")
    }
    guard allowed.contains(depth) else {
      throw Problem("IHDR's bit depth \(depth) is not one colour type \(colorType) allows")
    }
    guard bytes[at + 10] == 0, bytes[at + 11] == 0, bytes[at + 12] <= 1 else {
      throw Problem("IHDR's compression, filter or interlace method is not one PNG has")
    }
    return (width, height, at)
  }

  /// A palette image has its `PLTE` before the image data; a greyscale one has none.
  private static func checkPalette(_ chunks: PNGChunks, colorType: UInt8) throws(Problem) {
    let palette = chunks.list.first { $0.type == "PLTE" }
    if let palette, palette.length == 0 || palette.length % 3 != 0 || palette.length > 768 {
      throw Problem("PLTE holds \(palette.length) bytes, not 1 to 256 colours of 3")
    }
    if colorType == 3 && palette == nil {
      throw Problem("a palette image (colour type 3) has no PLTE chunk")
    }
    if (colorType == 0 || colorType == 4) && palette != nil {
      throw Problem("a greyscale image has a PLTE chunk")
    }
  }
}

/// A PNG's chunks after the signature, each whole and its CRC checked, in one run of `IDAT`s
/// ended by an empty `IEND` with nothing after it.
struct PNGChunks {
  struct Chunk {
    var type: String
    var start: Int
    var length: Int
  }

  private(set) var list: [Chunk] = []

  init(_ bytes: [UInt8]) throws(PNGHeader.Problem) {
    var offset = 8
    var ended = false
    while offset < bytes.count {
      if ended { throw PNGHeader.Problem("there are bytes after IEND") }
      guard offset + 12 <= bytes.count else {
        throw PNGHeader.Problem("a chunk is cut off at byte \(offset)")
      }
      let length = Self.number(bytes, offset)
      let kind = bytes[offset + 4..<offset + 8]
      guard kind.allSatisfy({ (65...90).contains($0) || (97...122).contains($0) }) else {
        throw PNGHeader.Problem("the chunk at byte \(offset) has no type of four letters")
      }
      let type = String(decoding: kind, as: UTF8.self)
      guard length <= 0x7FFF_FFFF, length <= bytes.count - offset - 12 else {
        throw PNGHeader.Problem("chunk \(type)'s length \(length) runs past the file's end")
      }
      let end = offset + 8 + length
      let crc = bytes[offset + 4..<end].withUnsafeBufferPointer {
        CZlib.crc32(0, $0.baseAddress, UInt32($0.count))
      }
      guard crc == UInt(Self.number(bytes, end)) else {
        throw PNGHeader.Problem("chunk \(type)'s CRC does not match its bytes")
      }
      list.append(Chunk(type: type, start: offset + 8, length: length))
      if type == "IEND" {
        guard length == 0 else { throw PNGHeader.Problem("IEND is not empty") }
        ended = true
      }
      offset = end + 4
    }
    guard ended else { throw PNGHeader.Problem("it has no IEND chunk") }
    try checkImageData()
  }

  /// The `IDAT`s are there, in one run.
  private func checkImageData() throws(PNGHeader.Problem) {
    let runs = list.indices.filter {
      list[$0].type == "IDAT" && ($0 == 0 || list[$0 - 1].type != "IDAT")
    }
    guard !runs.isEmpty else { throw PNGHeader.Problem("it has no IDAT chunk") }
    guard runs.count == 1 else {
      throw PNGHeader.Problem("its IDAT chunks are not consecutive")
    }
    if let palette = list.firstIndex(where: { $0.type == "PLTE" }), palette > runs[0] {
      throw PNGHeader.Problem("PLTE comes after the image data")
    }
  }

  func has(_ type: String) -> Bool { list.contains { $0.type == type } }

  /// The data of every chunk of `type`, in order.
  func data(of type: String, in bytes: [UInt8]) -> [ArraySlice<UInt8>] {
    list.filter { $0.type == type }.map { bytes[$0.start..<$0.start + $0.length] }
  }

  /// The big-endian 32-bit number at `at`.
  static func number(_ bytes: [UInt8], _ at: Int) -> Int {
    bytes[at..<at + 4].reduce(0) { $0 << 8 | Int($1) }
  }
}
