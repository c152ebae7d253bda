/// What Upload Image needs to know of a PNG: its dimensions and whether it can be transparent
/// (an alpha channel, colour types 4 and 6, or a `tRNS` chunk), read from its chunks up to the
/// first `IDAT`.
struct PNGHeader: Equatable {
  var width: Int
  var height: Int
  var transparent: Bool

  private static let signature: [UInt8] = [0x89, 0x50, 0x4E, 0x47, 0x0D, 0x0A, 0x1A, 0x0A]

  /// The header of `bytes`, or `nil` when they are not a PNG.
  init?(_ bytes: [UInt8]) {
    guard bytes.count >= 33, Array(bytes[0..<8]) == Self.signature,
      Array(bytes[12..<16]) == Array("IHDR".utf8)
    else { return nil }
    func number(_ at: Int) -> Int {
      bytes[at..<at + 4].reduce(0) { $0 << 8 | Int($1) }
    }
    width = number(16)
    height = number(20)
    let colorType = bytes[25]
    transparent = colorType == 4 || colorType == 6
    var offset = 8
    while offset + 8 <= bytes.count {
      let length = number(offset)
      let type = String(decoding: bytes[offset + 4..<offset + 8], as: UTF8.self)
      if type == "IDAT" || type == "IEND" { break }
      if type == "tRNS" { transparent = true }
      offset += 12 + length
    }
    guard width > 0, height > 0 else { return nil }
  }
}
