import Testing

@testable import StoreDelivery

/// When a failed notification is sent again: Apple's schedule, none, or waits a person writes.
@Suite struct RetryPolicyTests {
  @Test func applesScheduleIsFiveRetriesOverSixDays() {
    #expect(RetryPolicy.apple.waits.map { $0 / 3_600_000 } == [1, 12, 24, 48, 72])
    #expect(RetryPolicy.apple.wait(afterFailure: 1) == 3_600_000)
    #expect(RetryPolicy.apple.wait(afterFailure: 5) == 259_200_000, "72 h")
    #expect(RetryPolicy.apple.wait(afterFailure: 6) == nil, "gives up after the fifth retry")
    #expect(RetryPolicy.apple.wait(afterFailure: 0) == nil)
    #expect(RetryPolicy.none.wait(afterFailure: 1) == nil)
  }

  @Test func aWrittenPolicyReadsBackAsWritten() throws {
    for text in ["apple", "none", "10s,1m,1h", "2d", "90s,36h"] {
      #expect(try #require(RetryPolicy(text)).description == text)
    }
    #expect(RetryPolicy("60s")?.description == "1m", "the largest whole unit")
    #expect(RetryPolicy("1h,1h")?.waits == [3_600_000, 3_600_000])
  }

  @Test func anythingElseIsRefused() {
    for text in ["", "10", "10x", "s", "1h,", ",1h", "-1s", "1.5h", "1234567890s", "soon"] {
      #expect(RetryPolicy(text) == nil, "\(text)")
    }
    let many = Array(repeating: "1s", count: 21).joined(separator: ",")
    #expect(RetryPolicy(many) == nil, "at most 20 waits")
  }
}
