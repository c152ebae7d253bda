import Foundation
import NIOConcurrencyHelpers
import Testing

@testable import StoreServer

/// An answer past its threshold goes out as it is made, and its writer waits while the client
/// has too much unread: memory stays flat whatever the answer's length.
@Suite struct StreamedAnswerTests {
  @Test func aSmallAnswerIsSentWholeWithItsStatus() {
    let received = NIOLockedValueBox<ServerResponse?>(nil)
    let answer = StreamedAnswer(contentType: "text/plain", threshold: 100) { response in
      received.withLockedValue { $0 = response }
    }
    answer.write(Array("one\n".utf8))
    #expect(received.withLockedValue { $0 } == nil, "nothing goes out before the end")
    answer.finish(status: 422)
    let response = received.withLockedValue { $0 }
    #expect(response?.status == 422 && response?.body == Array("one\n".utf8))
    #expect(response?.stream == nil)
  }

  @Test func aLongAnswerStreamsAndItsWriterWaitsForTheReader() async throws {
    let received = NIOLockedValueBox<ServerResponse?>(nil)
    // A patience far beyond the test's: a loaded machine may start the reader late.
    let answer = StreamedAnswer(contentType: "text/plain", threshold: 10, patience: 600) {
      response in received.withLockedValue { $0 = response }
    }
    let chunk = [UInt8](repeating: 0x41, count: 1 << 20)
    let written = NIOLockedValueBox(0)
    let done = DispatchSemaphore(value: 0)
    DispatchQueue.global().async {
      for _ in 0..<32 {
        answer.write(chunk)
        written.withLockedValue { $0 += 1 }
      }
      answer.finish(status: 200)
      done.signal()
    }
    try await Task.sleep(for: .milliseconds(500))
    let response = try #require(received.withLockedValue { $0 })
    #expect(response.status == 200 && response.stream === answer)
    // Nobody read: the writer waits with about the buffer's limit unread.
    let early = written.withLockedValue { $0 }
    #expect(early <= (StreamedAnswer.bufferLimit >> 20) + 2, "\(early) MB written unread")
    var total = 0
    for await piece in answer.chunks {
      total += piece.count
      answer.consumed(piece.count)
    }
    #expect(total == 32 << 20)
    #expect(done.wait(timeout: .now() + 10) == .success)
  }

  @Test func aClientThatGoesAwayStopsTheWriting() {
    let answer = StreamedAnswer(contentType: "text/plain", threshold: 0) { _ in }
    answer.write([1, 2, 3])
    answer.drop()
    // Dropped: the writer does not wait for a reader that is gone.
    for _ in 0..<64 { answer.write([UInt8](repeating: 0, count: 1 << 20)) }
    answer.finish(status: 200)
  }
}
