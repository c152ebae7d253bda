import Foundation
import StoreSigning
import StoreSimulation
import StoreTestSupport
import Testing

@testable import StoreDelivery

/// The outbox every front end sends through: one POST at a time per URL, in order, each attempt
/// recorded with Apple's `sendAttemptResult`.
@Suite struct NotificationOutboxTests {
  let now = Instant(iso8601: "2026-11-22T02:00:00Z")!

  /// Adds `count` notifications whose payloads say their number.
  func add(_ count: Int, to outbox: NotificationOutbox) {
    for number in 0..<count {
      let notification = ServerNotification.test(at: now, uuid: "uuid-\(number)")
      outbox.add(notification, signedPayload: "n\(number)", now: now)
    }
  }

  /// The bodies of notifications `range` as the App Store POSTs them.
  func bodies(_ range: Range<Int>) -> [String] {
    range.map { #"{"signedPayload":"n\#($0)"}"# }
  }

  @Test func notificationsArriveInOrderOneAtATimeAndEachIsAttemptedOnce() throws {
    // A receiver that takes its time: every notification waits its turn and none times out.
    let server = try WebhookServer(reply: .after(seconds: 0.05))
    defer { server.stop() }
    let outbox = try NotificationOutbox(url: server.url, directory: nil, timeout: 5)
    add(20, to: outbox)
    #expect(outbox.drain() == 0)
    #expect(server.bodies == bodies(0..<20))
    #expect(outbox.history.allSatisfy { $0.attempts.map(\.result) == [.success] })
  }

  /// An outbox that keeps no history (a population's) holds only what is still on its way:
  /// the delivered are forgotten, the undelivered are still reported.
  @Test func anOutboxWithoutHistoryForgetsWhatWasDeliveredAndKeepsWhatWasNot() throws {
    let server = try WebhookServer(reply: .normal)
    defer { server.stop() }
    let outbox = try NotificationOutbox(
      url: server.url, directory: nil, timeout: 5, keepsHistory: false)
    add(50, to: outbox)
    #expect(outbox.drain() == 0)
    #expect(server.bodies == bodies(0..<50))
    add(1, to: outbox)  // settles the last one delivered
    #expect(outbox.history.count <= 2, "\(outbox.history.count) held")
    #expect(outbox.undelivered.count <= 1)
    let silent = try WebhookServer(reply: .raw("HTTP/1.1 500 Oops\r\nContent-Length: 0\r\n\r\n"))
    defer { silent.stop() }
    let failing = try NotificationOutbox(
      url: silent.url, directory: nil, policy: .none, timeout: 5, keepsHistory: false)
    add(5, to: failing)
    #expect(failing.drain() == 0)
    add(1, to: failing)
    #expect(failing.drain() == 0)
    #expect(
      failing.undelivered.map(\.notification.uuid) == (0..<5).map { "uuid-\($0)" } + ["uuid-0"])
    #expect(failing.history.count <= 1, "given up on, forgotten but for the report")
  }

  /// Without a URL, a forgetting outbox writes its files and holds nothing.
  @Test func aFileOnlyOutboxWithoutHistoryHoldsNothing() throws {
    let folder = try temporaryFolder()
    defer { try? FileManager.default.removeItem(at: folder) }
    let outbox = try NotificationOutbox(
      url: nil, directory: folder.path, layout: .lines("n.jsonl"), keepsHistory: false)
    add(1000, to: outbox)
    #expect(outbox.history.isEmpty && outbox.undelivered.isEmpty)
    let partial = folder.appendingPathComponent("n.jsonl.partial").path
    #expect(FileManager.default.fileExists(atPath: partial), "named only when finished")
    try outbox.finishFiles()
    #expect(!FileManager.default.fileExists(atPath: partial))
    let text = try String(contentsOf: folder.appendingPathComponent("n.jsonl"), encoding: .utf8)
    #expect(text == bodies(0..<1000).map { $0 + "\n" }.joined())
  }

  @Test func aFullQueueThatWaitsLosesNothingAndOneThatDropsSaysSo() throws {
    let server = try WebhookServer(reply: .after(seconds: 0.01))
    defer { server.stop() }
    let waiting = try NotificationOutbox(
      url: server.url, directory: nil, whenFull: .wait, queueLimit: 3, timeout: 5)
    add(30, to: waiting)  // each add past three waits for a POST to finish
    #expect(waiting.drain() == 0)
    #expect(server.bodies == bodies(0..<30))
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

  @Test func aServerWaitsForABackendThatKeepsUpAndDropsOnlyWhenItStopsAnswering() throws {
    let server = try WebhookServer(reply: .after(seconds: 0.01))
    defer { server.stop() }
    let keepingUp = try NotificationOutbox(
      url: server.url, directory: nil, whenFull: .waitWhileAnswered(30), queueLimit: 3,
      timeout: 5)
    add(30, to: keepingUp)
    #expect(keepingUp.drain() == 0)
    #expect(server.bodies == bodies(0..<30))
    #expect(keepingUp.history.allSatisfy { !$0.isDropped && $0.isDelivered })
    let silent = try WebhookServer(reply: .silence(seconds: 3))
    defer { silent.stop() }
    let stalled = try NotificationOutbox(
      url: silent.url, directory: nil, policy: .none, whenFull: .waitWhileAnswered(0.2),
      queueLimit: 3, timeout: 2)
    let dropped = LockedList()
    stalled.onDrop = { dropped.append($0.notification.uuid) }
    let started = Date()
    add(10, to: stalled)
    // Waited a moment for an answer, then dropped the six oldest waiting, each said so.
    #expect(Date().timeIntervalSince(started) >= 0.2)
    #expect(dropped.items == (1...6).map { "uuid-\($0)" })
    #expect(stalled.history.filter(\.isDropped).count == 6)
    #expect(stalled.takeLines().filter { $0.text.contains("did not answer within 0 s") }.count == 6)
  }

  /// Past the queue's limit every notification costs the same: 30,000 added behind one that
  /// never comes back, 20,000 of them dropped (each scanned the whole queue before).
  @Test(.timeLimit(.minutes(1)))
  func aFullQueueCostsTheSameForEachNotification() throws {
    let silent = try WebhookServer(reply: .silence(seconds: 30))
    defer { silent.stop() }
    let outbox = try NotificationOutbox(
      url: silent.url, directory: nil, policy: .none, timeout: 60)
    add(30_000, to: outbox)
    #expect(outbox.history.filter(\.isDropped).count == 30_000 - 1 - NotificationOutbox.queueLimit)
    #expect(!outbox.entry(0).isDropped && !outbox.entry(29_999).isDropped)
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

/// Strings gathered from another thread.
final class LockedList: @unchecked Sendable {
  // `@unchecked Sendable`: `stored` is read and written only under `lock`.
  private let lock = NSLock()
  private var stored: [String] = []
  func append(_ item: String) { lock.withLock { stored.append(item) } }
  var items: [String] { lock.withLock { stored } }
}

/// Files in a folder that already holds notifications number on from the highest, whole
/// numbers read (`14399-…` is 14399, not 1439).
@Suite struct NotificationFileNumberingTests {
  @Test func numberingGoesOnFromTheHighestWholeNumber() throws {
    let folder = try temporaryFolder("numbering")
    defer { try? FileManager.default.removeItem(at: folder) }
    for name in ["0007-TEST.json", "14399-DID_RENEW.json", "notes.txt", "12-a.txt"] {
      try Data("{}".utf8).write(to: folder.appendingPathComponent(name))
    }
    #expect(NotificationOutbox.numberedFiles(in: folder.path).sorted() == [7, 14399])
    let files = try NotificationFiles(directory: folder.path)
    #expect(try files.write(name: "TEST", line: "{}\n") == "14400-TEST.json")
    #expect(try files.write(name: "TEST", line: "{}\n") == "14401-TEST.json")
  }
}
