import Foundation
import StoreCommands
import StoreConfiguration
import StoreJSON
import StoreSigning
import StoreSimulation
import StoreTestSupport
import Testing

@testable import StoreDelivery

/// The sender every front end attaches to its host (``PreparedSigning/attachSender(to:)``): it
/// maps a command's events to notifications, signs them, and hands them to the outbox only once
/// the journal holds the command.
@Suite struct NotificationSenderTests {
  /// A host whose sender writes its notifications to a fresh folder.
  func wired() throws -> (CommandHost, NotificationSender, String) {
    let path = bundledConfiguration("FoodTruck").path
    let configuration = try #require(StoreKitConfiguration.load(contentsOf: path).configuration)
    let host = CommandHost(
      JournaledSession(
        session: Session(
          configuration: configuration, start: Instant(iso8601: "2026-11-22T02:00:00Z")!),
        journal: nil))
    let folder = try temporaryFolder("sender").path
    let outbox = try NotificationOutbox(url: nil, directory: folder)
    let signer = Signer(identity: try SigningIdentity.makeSelfSigned(), environment: .xcode)
    let sender = try #require(
      PreparedSigning(signer: signer, outbox: outbox, signsEvents: false).attachSender(to: host))
    return (host, sender, folder)
  }

  @Test func aCommandsNotificationsAreSignedWrittenAndToldInOrder() throws {
    let (host, sender, folder) = try wired()
    var heard: [String] = []
    sender.listen { heard.append($0.notification.name) }
    host.perform(line: "buy socialfeed.premium.monthly")
    host.perform(line: "auto-renew last off")
    #expect(heard == ["SUBSCRIBED-INITIAL_BUY", "DID_CHANGE_RENEWAL_STATUS-AUTO_RENEW_DISABLED"])
    let history = sender.outbox.history
    #expect(history.count == 2 && history.allSatisfy { $0.attempts.isEmpty }, "no URL, no POST")
    let file = try #require(history[0].file)
    #expect(file == "0001-SUBSCRIBED-INITIAL_BUY.json", "named in order, for its type")
    let body = try String(contentsOfFile: folder + "/" + file, encoding: .utf8)
    let decoded = try JWS.decode(jwsOrNotificationBody: body)
    #expect(decoded.signatureIsValid)
    guard case .object(let payload) = decoded.payload else {
      Issue.record("\(decoded.payload)")
      return
    }
    #expect(payload["notificationType"] == .string("SUBSCRIBED"))
    #expect(payload["notificationUUID"] == .string(history[0].notification.uuid))
  }

  struct SigningFailed: Error {}

  @Test(arguments: [false, true])
  func aNotificationThatCannotBeSignedIsToldCountedAndTheRestSent(batched: Bool) throws {
    let (host, sender, _) = try wired()
    sender.signing = { notification in
      guard notification.subtype != "AUTO_RENEW_DISABLED" else { throw SigningFailed() }
      return try Signer(identity: Self.identity, environment: .xcode).signedPayload(notification)
    }
    sender.batchesAcrossCommands = batched
    var heard: [(String, Int?, String?)] = []
    sender.listen { heard.append(($0.notification.name, $0.entry, $0.error?.description)) }
    host.perform(line: "buy socialfeed.premium.monthly")
    host.perform(line: "auto-renew last off")
    host.perform(line: "auto-renew last on")
    try host.flush()
    #expect(heard.map(\.0).count == 3)
    #expect(heard.map { $0.1 == nil } == [false, true, false])
    #expect(heard[1].2?.contains("could not be signed") == true)
    #expect(sender.unsignedCount == 1)
    #expect(
      sender.outbox.history.map(\.notification.name) == [
        "SUBSCRIBED-INITIAL_BUY", "DID_CHANGE_RENEWAL_STATUS-AUTO_RENEW_ENABLED",
      ])
  }

  static let identity = try! SigningIdentity.makeSelfSigned()

  final class FailingObserver: CommandObserver {
    struct Broken: Error, CustomStringConvertible {
      var description: String { "the pipe is broken" }
    }
    func finished(_ outcome: CommandOutcome, session: Session) {}
    var wantsToPublish: Bool { true }
    func publish() throws { throw Broken() }
  }

  @Test func anObserverThatCannotPublishIsReportedNotSwallowed() throws {
    let (host, _, _) = try wired()
    host.attach(FailingObserver())
    let outcome = host.perform(line: "buy socialfeed.premium.monthly")
    #expect(outcome.publishError?.description.contains("the pipe is broken") == true)
    #expect(throws: CommandError.self) { try host.flush() }
  }

  @Test func aRefusedCommandOrOneWithoutNotificationsSendsNothing() throws {
    let (host, sender, _) = try wired()
    host.perform(line: "refund 7")
    host.perform(line: "advance 1s")
    host.perform(line: "set ask-to-buy on")
    #expect(sender.outbox.history.isEmpty)
    #expect(!sender.wantsToPublish)
  }

  @Test func notifyCommandsReachTheOutboxThroughTheHost() throws {
    let (host, sender, _) = try wired()
    let retry = host.perform(line: "notify retry")
    #expect(retry.error == nil)
    #expect(
      sender.perform(.retry, now: host.session.now)
        == .unavailable("no --notify-url: notifications are not POSTed, nothing to retry"))
    #expect(sender.perform(.fault(.drop), now: host.session.now) == .fault(.drop))
    let first = try sender.sendTest(at: host.session.now, number: 1)
    let second = try sender.sendTest(at: host.session.now, number: 2)
    let tests = [first, second].map { sender.outbox.entry($0).notification }
    #expect(tests.map(\.type) == ["TEST", "TEST"])
    #expect(tests[0].uuid != tests[1].uuid, "each test notification has its own UUID")
  }

  /// Batched across commands (a population), notifications are signed off the host's thread a
  /// chunk at a time: the listeners still hear each on the host's thread, in the order made;
  /// the flush returns once every one is in the outbox; and they are the notifications an
  /// unbatched sender sends for the same commands, in the same order.
  @Test func batchedNotificationsAreTheUnbatchedOnesInTheSameOrderByTheFlush() throws {
    let customers = NotificationSender.signingChunk + 90
    func run(batched: Bool) throws -> (heard: [Int], history: [NotificationOutbox.Entry]) {
      let (host, sender, _) = try wired()
      sender.batchesAcrossCommands = batched
      let caller = pthread_self()
      var heard: [Int] = []
      var onCaller = true
      sender.listen { sent in
        heard.append(sent.entry ?? -1)
        onCaller = onCaller && pthread_equal(pthread_self(), caller) != 0
      }
      for number in 1...customers {
        host.perform(line: "customer c\(number)")
        host.perform(line: "buy socialfeed.premium.monthly")
      }
      if batched { #expect(heard.count < customers, "the last part waits for the flush") }
      try host.flush()
      #expect(onCaller, "listeners are told on the host's thread")
      return (heard, sender.outbox.history)
    }
    let batched = try run(batched: true)
    #expect(batched.heard == Array(0..<customers), "every one heard once, in order")
    let unbatched = try run(batched: false)
    #expect(batched.history.map(\.notification.uuid) == unbatched.history.map(\.notification.uuid))
    // Each run signs with its own key: payloads are compared with nested JWS decoded.
    let same = try zip(batched.history, unbatched.history).allSatisfy {
      try Self.opened($0.signedPayload) == Self.opened($1.signedPayload)
    }
    #expect(same, "the same payloads, nested transactions and renewal infos included")
  }

  /// Turning batching off hands what is being signed to the outbox and its listeners at once;
  /// what waits for a chunk goes with the next publish, unbatched.
  @Test func turningBatchingOffFinishesWhatIsUnderWay() throws {
    let (host, sender, _) = try wired()
    sender.batchesAcrossCommands = true
    var heard = 0
    sender.listen { _ in heard += 1 }
    for number in 1...300 {
      host.perform(line: "customer c\(number)")
      host.perform(line: "buy socialfeed.premium.monthly")
    }
    sender.batchesAcrossCommands = false
    #expect(heard == SigningPipeline.chunk, "the whole chunk under way, told at once")
    try host.flush()
    #expect(heard == 300 && sender.outbox.history.count == 300)
  }

  /// A notification's payload with each nested JWS replaced by its payload, after checking
  /// every signature.
  static func opened(_ jws: String) throws -> JSONValue {
    let decoded = try JWS.decode(jws)
    guard decoded.signatureIsValid, case .object(var payload) = decoded.payload else {
      throw SigningError("not a valid signed object")
    }
    if case .object(var data)? = payload["data"] {
      for key in ["signedTransactionInfo", "signedRenewalInfo"] {
        if case .string(let nested)? = data[key] { data[key] = try opened(nested) }
      }
      payload["data"] = .object(data)
    }
    return .object(payload)
  }
}
