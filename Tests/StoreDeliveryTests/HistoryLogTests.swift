import Foundation
import Testing

@testable import StoreDelivery

/// The outbox's payloads wait on disk, gathered into blocks: every one reads back as it was,
/// whether its block was written yet or not.
@Suite struct HistoryLogTests {
  @Test func everyPayloadReadsBackBeforeAndAfterItsBlockIsWritten() {
    let log = HistoryLog()
    // 3 MiB in all: several blocks written, and the last still in the buffer.
    let payloads = (0..<600).map { number in
      String(repeating: "\(number % 10)", count: 5_000 + number) + "|\(number)"
    }
    var spans: [HistoryLog.Span] = []
    for payload in payloads {
      spans.append(log.append(payload))
      // The newest reads back at once, from the buffer.
      #expect(log.read(spans[spans.count - 1]) == payload)
    }
    #expect(zip(spans, payloads).allSatisfy { log.read($0) == $1 })
  }
}

extension HistoryLogTests {
  /// Read from other threads while payloads are appended and blocks written: each reads back
  /// as it was.
  @Test func readsFromOtherThreadsSeeWhatWasAppended() {
    let log = HistoryLog()
    let payloads = (0..<4_000).map { "\($0)|" + String(repeating: "\($0 % 10)", count: 3_000) }
    let spans = SpanBox()
    let group = DispatchGroup()
    let bad = SpanBox()
    DispatchQueue.global().async(group: group) {
      for payload in payloads { spans.add(log.append(payload)) }
    }
    for _ in 0..<3 {
      DispatchQueue.global().async(group: group) {
        var checked = 0
        while checked < 20_000 {
          let known = spans.all
          guard !known.isEmpty else { continue }
          let index = Int.random(in: 0..<known.count)
          if log.read(known[index]) != payloads[index] { bad.add(known[index]) }
          checked += 1
        }
      }
    }
    group.wait()
    #expect(bad.all.isEmpty, "\(bad.all.count) reads differed")
  }
}

/// Spans shared between threads.
final class SpanBox: @unchecked Sendable {
  private let lock = NSLock()
  private var spans: [HistoryLog.Span] = []
  func add(_ span: HistoryLog.Span) { lock.withLock { spans.append(span) } }
  var all: [HistoryLog.Span] { lock.withLock { spans } }
}
