import Foundation
import StoreJSON
import StoreSigning
import StoreSimulation
import StoreTestSupport
import Testing

@testable import StoreDelivery

/// The outbox keeps payloads on disk and reads them back; notifications signed on every core
/// come out in the order given.
@Suite struct HistoryAndSigningTests {
  let now = Instant(iso8601: "2026-11-22T02:00:00Z")!

  @Test func theHistoryReadsEachPayloadBackAsItWasAdded() throws {
    let outbox = try NotificationOutbox(url: nil, directory: nil)
    let payloads = (0..<300).map { "payload \($0) " + String(repeating: "é", count: $0 % 7) }
    for (number, payload) in payloads.enumerated() {
      let notification = ServerNotification.test(at: now, uuid: "uuid-\(number)")
      outbox.add(notification, signedPayload: payload, now: now)
    }
    #expect(outbox.history.map(\.signedPayload) == payloads)
    #expect(outbox.entry(123).signedPayload == payloads[123])
    #expect(outbox.entry(299).notification.uuid == "uuid-299")
    #expect(outbox.history.map(\.notification.name) == Array(repeating: "TEST", count: 300))
  }

  @Test func notificationsSignedOnEveryCoreKeepTheirOrder() throws {
    let signer = Signer(identity: try SigningIdentity.makeSelfSigned(), environment: .xcode)
    let notifications = (0..<500).map {
      ServerNotification.test(at: now.adding(milliseconds: Int64($0)), uuid: "uuid-\($0)")
    }
    let payloads = signedPayloads(notifications, with: { try signer.signedPayload($0) })
    #expect(payloads.count == 500)
    for (index, payload) in payloads.enumerated() {
      let decoded = try JWS.decode(try payload.get())
      guard case .object(let claims) = decoded.payload else {
        Issue.record("not an object")
        return
      }
      #expect(claims["notificationUUID"] == .string("uuid-\(index)"))
      #expect(decoded.signatureIsValid)
    }
  }
}
