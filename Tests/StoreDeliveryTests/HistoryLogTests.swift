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
