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
}
