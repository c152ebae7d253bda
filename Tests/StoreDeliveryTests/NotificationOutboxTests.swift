import Foundation
import StoreDelivery
import StoreSigning
import StoreSimulation
import StoreTestSupport
import Testing

/// The outbox every front end sends through: one POST at a time per URL, in order, each attempt
/// recorded with Apple's `sendAttemptResult`.
@Suite struct NotificationOutboxTests {
  let now = Instant(iso8601: "2026-11-22T02:00:00Z")!

  /// Adds `count` notifications whose bodies say their number.
  func add(_ count: Int, to outbox: NotificationOutbox) {
    for number in 0..<count {
      let notification = ServerNotification.test(at: now, uuid: "uuid-\(number)")
      outbox.add(notification, body: #"{"n":\#(number)}"#, signedPayload: "jws", now: now)
    }
  }

  @Test func notificationsArriveInOrderOneAtATimeAndEachIsAttemptedOnce() throws {
    // A receiver that takes its time: every notification waits its turn and none times out.
    let server = try WebhookServer(reply: .after(seconds: 0.05))
    defer { server.stop() }
    let outbox = try NotificationOutbox(url: server.url, directory: nil, timeout: 5)
    add(20, to: outbox)
    #expect(outbox.drain() == 0)
    #expect(server.bodies == (0..<20).map { #"{"n":\#($0)}"# })
    #expect(outbox.history.allSatisfy { $0.attempts.map(\.result) == [.success] })
  }

  @Test func aFullQueueThatWaitsLosesNothingAndOneThatDropsSaysSo() throws {
    let server = try WebhookServer(reply: .after(seconds: 0.01))
    defer { server.stop() }
    let waiting = try NotificationOutbox(
      url: server.url, directory: nil, whenFull: .wait, queueLimit: 3, timeout: 5)
    add(30, to: waiting)  // each add past three waits for a POST to finish
    #expect(waiting.drain() == 0)
    #expect(server.bodies == (0..<30).map { #"{"n":\#($0)}"# })
    #expect(waiting.history.allSatisfy { !$0.isDropped && $0.isDelivered })
    let silent = try WebhookServer(reply: .silence(seconds: 2))
    defer { silent.stop() }
    let dropping = try NotificationOutbox(
      url: silent.url, directory: nil, policy: .none, queueLimit: 3, timeout: 0.5)
    add(10, to: dropping)  // one in flight, three waiting: the six oldest waiting are dropped
    #expect(dropping.history.filter(\.isDropped).count == 6)
    #expect(
      dropping.takeLines().filter { $0.text.contains("queue is full (3 waiting)") }.count == 6)
  }

  @Test func aReceiverThatNeverAnswersTimesOutEachNotificationInItsOwnTurn() throws {
    let server = try WebhookServer(reply: .silence(seconds: 3))
    defer { server.stop() }
    let outbox = try NotificationOutbox(
      url: server.url, directory: nil, policy: .none, timeout: 0.3)
    add(3, to: outbox)
    // The first is in flight: the others are waiting, not failed.
    #expect(outbox.history.dropFirst().allSatisfy { $0.attempts.isEmpty })
    outbox.drain()
    #expect(
      outbox.history.map { $0.attempts.map(\.result) } == Array(repeating: [.timedOut], count: 3))
  }

  @Test(arguments: [
    ("HELLO THERE\r\n\r\n", "not HTTP"), ("HTTP/1.", "a cut status line"),
    (
      "HTTP/1.1 200 OK\r\nX-Big: " + String(repeating: "a", count: 200_000) + "\r\n\r\n",
      "oversized headers"
    ),
  ])
  func anAnswerThatIsNotHTTPIsAnInvalidResponse(answer: String, what: String) throws {
    let server = try WebhookServer(reply: .raw(answer))
    defer { server.stop() }
    let outbox = try NotificationOutbox(
      url: server.url, directory: nil, policy: .none, timeout: 5)
    add(1, to: outbox)
    outbox.drain()
    let attempt = try #require(outbox.entry(0).attempts.first, "\(what)")
    #expect(attempt.result == .invalidResponse, "\(what): \(attempt.detail) \(attempt)")
  }

  @Test func aStatusOutside200To206IsUnsuccessfulAnd206IsDelivered() throws {
    for (status, result) in [
      (206, SendAttemptResult.success), (207, .unsuccessfulHTTPResponseCode),
    ] {
      let server = try WebhookServer(statuses: [status])
      defer { server.stop() }
      let outbox = try NotificationOutbox(url: server.url, directory: nil, policy: .none)
      add(1, to: outbox)
      outbox.drain()
      #expect(outbox.entry(0).attempts.map(\.result) == [result], "HTTP \(status)")
    }
  }

  @Test func aFailureIsRetriedWhenTheSessionsTimeReachesTheNextWait() throws {
    let server = try WebhookServer(statuses: [500])
    defer { server.stop() }
    let outbox = try NotificationOutbox(
      url: server.url, directory: nil, policy: RetryPolicy("10s")!)
    add(1, to: outbox)
    outbox.drain()
    #expect(outbox.entry(0).nextAttempt == now.adding(milliseconds: 10_000))
    outbox.pump(now: now.adding(milliseconds: 9_999))
    outbox.drain()
    #expect(server.bodies.count == 1, "not before its time")
    outbox.pump(now: now.adding(milliseconds: 10_000))
    outbox.drain()
    #expect(outbox.entry(0).isDelivered)
    #expect(outbox.entry(0).attempts.map(\.date) == [now, now.adding(milliseconds: 10_000)])
  }
}
