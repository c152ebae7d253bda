import CZlib

/// The rows a PNG's image data holds: per pass (one, or Adam7's seven), how many rows of how
/// many bytes, each row led by its filter type.
struct PNGRows {
  /// Bytes a row takes (its filter byte included) and how many rows, per pass with pixels.
  private(set) var passes: [(rowBytes: Int, rows: Int)] = []
  /// Every byte the data inflates to.
  private(set) var total = 0

  private static let adam7 = [
    (0, 0, 8, 8), (4, 0, 8, 8), (0, 4, 4, 8), (2, 0, 4, 4), (0, 2, 2, 4), (1, 0, 2, 2),
    (0, 1, 1, 2),
  ]

  init(width: Int, height: Int, bitsPerPixel: Int, interlaced: Bool) throws(PNGHeader.Problem) {
    let grid = interlaced ? Self.adam7 : [(0, 0, 1, 1)]
    for (x, y, dx, dy) in grid {
      let columns = width > x ? (width - x + dx - 1) / dx : 0
      let rows = height > y ? (height - y + dy - 1) / dy : 0
      guard columns > 0, rows > 0 else { continue }
      let rowBytes = (columns * bitsPerPixel + 7) / 8 + 1
      let (bytes, over) = rowBytes.multipliedReportingOverflow(by: rows)
      let (sum, past) = total.addingReportingOverflow(bytes)
      guard !over, !past else {
        throw PNGHeader.Problem("\(width) × \(height) pixels are more than any image data holds")
      }
      passes.append((rowBytes, rows))
      total = sum
    }
  }
}

/// Inflates a PNG's `IDAT` data with zlib, a window at a time (nothing kept), and checks that it
/// is one whole zlib stream of exactly the image's rows, each with a filter type PNG has.
enum PNGInflater {
  /// - Throws: ``PNGHeader/Problem`` for damaged zlib data, a stream that ends early, too much or
  ///   too little data, or a row whose filter type is not 0 to 4.
  static func check(_ data: [ArraySlice<UInt8>], against rows: PNGRows) throws(PNGHeader.Problem) {
    var stream = z_stream()
    guard czlib_inflate_init(&stream) == Z_OK else {
      throw PNGHeader.Problem("zlib could not start (out of memory)")
    }
    defer { inflateEnd(&stream) }
    let window = 1 << 16
    let output = UnsafeMutablePointer<UInt8>.allocate(capacity: window)
    defer { output.deallocate() }
    var walker = RowWalker(rows)
    var ended = false
    for slice in data where !ended {
      let step = slice.withUnsafeBufferPointer { input in
        inflate(input, into: output, window, &stream, &walker)
      }
      switch step {
      case .more: continue
      case .ended: ended = true
      case .failed(let problem): throw problem
      }
    }
    guard ended else {
      throw PNGHeader.Problem(
        "the image data's zlib stream ends early (\(walker.seen) of \(rows.total) bytes)")
    }
    guard walker.seen == rows.total else {
      throw PNGHeader.Problem(
        "the image data holds \(walker.seen) bytes, not the \(rows.total) its rows need")
    }
  }

  private enum Step {
    case more
    case ended
    case failed(PNGHeader.Problem)
  }

  /// Inflates one chunk's data through `output`, each window handed to `walker`.
  private static func inflate(
    _ input: UnsafeBufferPointer<UInt8>, into output: UnsafeMutablePointer<UInt8>, _ window: Int,
    _ stream: inout z_stream, _ walker: inout RowWalker
  ) -> Step {
    stream.next_in = UnsafeMutablePointer(mutating: input.baseAddress)
    stream.avail_in = UInt32(input.count)
    while true {
      stream.next_out = output
      stream.avail_out = UInt32(window)
      let status = CZlib.inflate(&stream, Z_NO_FLUSH)
      let produced = window - Int(stream.avail_out)
      if let problem = walker.take(UnsafeBufferPointer(start: output, count: produced)) {
        return .failed(problem)
      }
      switch status {
      case Z_STREAM_END: return .ended
      case Z_OK where stream.avail_in > 0 || stream.avail_out == 0: continue
      case Z_OK, Z_BUF_ERROR: return .more
      default:
        let said = stream.msg.map { String(cString: $0) } ?? "error \(status)"
        return .failed(PNGHeader.Problem("the image data is not a whole zlib stream (\(said))"))
      }
    }
  }
}

/// Walks inflated image data row by row: each row's first byte is its filter type.
private struct RowWalker {
  let rows: PNGRows
  /// Bytes seen so far.
  private(set) var seen = 0
  private var pass = 0
  private var rowsLeft: Int
  private var leftInRow = 0
  private var rowNumber = 0

  init(_ rows: PNGRows) {
    self.rows = rows
    rowsLeft = rows.passes.first?.rows ?? 0
  }

  /// Takes the next bytes; a problem when a row's filter type is not PNG's or there are more
  /// bytes than rows.
  mutating func take(_ bytes: UnsafeBufferPointer<UInt8>) -> PNGHeader.Problem? {
    var index = 0
    while index < bytes.count {
      if leftInRow == 0 {
        while rowsLeft == 0 {
          pass += 1
          guard pass < rows.passes.count else {
            return PNGHeader.Problem("the image data holds more bytes than its rows need")
          }
          rowsLeft = rows.passes[pass].rows
        }
        guard bytes[index] <= 4 else {
          return PNGHeader.Problem(
            "row \(rowNumber + 1) has filter type \(bytes[index]), not 0 to 4")
        }
        leftInRow = rows.passes[pass].rowBytes
        rowsLeft -= 1
        rowNumber += 1
      }
      let step = min(leftInRow, bytes.count - index)
      leftInRow -= step
      index += step
      seen += step
    }
    return nil
  }
}
