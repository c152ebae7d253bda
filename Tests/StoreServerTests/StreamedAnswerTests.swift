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

/// How the control endpoint reports a failed line, short answer or streamed.
@Suite struct ControlFailureTests {
  @Test func aHugeFailingLineIsAnsweredLikeAShortOne() async throws {
    let served = try makeServed()
    let line = "buy " + String(repeating: "x", count: 700_000)
    let answer = await served.call("POST", "/storekeeper/v1/commands", body: line)
    #expect(answer.status == 422, "its error quotes the line cut, so the answer stays small")
    #expect(answer.body.count < 4_000)
    #expect(answer.text.contains(#""event":"error""#) && answer.text.contains("(700004 bytes)"))
  }

  @Test func aStreamedAnswerEndsWithTheErrorOfItsFailedLine() async throws {
    let served = try makeServed()
    // A month of 30-second renewals is far past a megabyte of lines: the answer streams.
    let answer = await served.call(
      "POST", "/storekeeper/v1/commands", body: "buy socialfeed.monthly\nadvance 1d\nrefund 99999")
    #expect(answer.status == 200, "sent before the failure was known")
    #expect(answer.body.count > 1 << 20)
    let last = try #require(answer.text.split(separator: "\n").last)
    #expect(last.contains(#""event":"error""#) && last.contains(#""line":3"#))
  }
}

/// Small things a hostile probe found in serve's answers.
@Suite struct HostileRequestTests {
  @Test func aRepeatedCustomerOrMemberParameterIsRefused() async throws {
    let served = try makeServed()
    _ = await served.call("POST", "/storekeeper/v1/commands", body: "customer alice\ncustomer bob")
    let twice = await served.call(
      "POST", "/storekeeper/v1/commands?customer=alice&customer=bob", body: "buy socialfeed.monthly"
    )
    #expect(twice.status == 400)
    #expect(twice.text.contains("?customer= is given 2 times (alice, bob): give it once"))
    #expect(served.host.session.allTransactions().isEmpty, "nothing was bought, by anyone")
  }

  @Test func namesThatReadAsAnOptionOrAPathAreRefused() async throws {
    let served = try makeServed()
    for name in ["--fresh", "..", "-x", ".hidden"] {
      let answer = await served.call("POST", "/storekeeper/v1/commands", body: "customer \(name)")
      #expect(answer.status == 422 && answer.text.contains("cannot name a customer"), "\(name)")
      let member = await served.call(
        "POST", "/storekeeper/v1/commands", body: "family join \(name)")
      #expect(member.status == 422 && member.text.contains("cannot name a member"), "\(name)")
    }
  }

  @Test func aLongUnknownPathIsNotEchoedWhole() async throws {
    let served = try makeServed()
    let path = "/storekeeper/" + String(repeating: "a", count: 64_000)
    let answer = await served.call("GET", path)
    #expect(answer.status == 404)
    #expect(answer.body.count < 1_000 && answer.text.contains("(64013 bytes)"))
  }
}
