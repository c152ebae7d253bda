import Foundation
import StoreDelivery
import StoreSimulation
import StoreTestSupport
import Testing

@testable import StoreServer
@testable import StoreSigning

/// Notifications through the served session's outbox: history, attempts, Apple's retry
/// schedule in simulated time, injected faults and test notifications.
@Suite(.serialized) struct NotificationDeliveryTests {
  let range =
    #"{"startDate":\#(start.milliseconds - 1000),"endDate":\#(start.milliseconds + 400 * 86_400_000)"#

  func history(
    _ served: ServedSession, _ filters: String = "", token: String? = nil
  ) async -> ServerResponse {
    await served.call(
      "POST", "/inApps/v1/notifications/history" + (token.map { "?paginationToken=\($0)" } ?? ""),
      body: range + filters + "}")
  }

  func items(_ response: ServerResponse) -> [[String: Any]] {
    response.object["notificationHistory"] as? [[String: Any]] ?? []
  }

  func type(_ item: [String: Any]) throws -> String? {
    try ServedEndpointTests().payload(item["signedPayload"])["notificationType"] as? String
  }

  func results(_ item: [String: Any]) -> [String] {
    (item["sendAttempts"] as? [[String: Any]] ?? []).compactMap {
      $0["sendAttemptResult"] as? String
    }
  }

  @Test func historyHoldsWhatWasSentWithItsAttemptsPagedAndFiltered() async throws {
    let backend = try Backend()
    let served = try makeServed(notifyingURL: backend.url)
    let applied = await served.call(
      "POST", "/storekeeper/v1/commands",
      body: "buy socialfeed.monthly\n" + "advance 31s\n"
        + (0..<43).map { _ in "buy foodtruck.donuts.box" }
        .joined(separator: "\n"))
    #expect(applied.text.contains(#""event":"notification","notificationType":"SUBSCRIBED""#))
    #expect(eventually(served) { backend.bodies.count == 45 })
    #expect(
      eventually(served) {
        served.sender?.outbox.history.allSatisfy { $0.isDelivered } == true
      })
    var seen: [String] = []
    var pages: [Int] = []
    var token: String?
    repeat {
      let page = await history(served, token: token)
      #expect(page.status == 200, "\(page.text)")
      pages.append(items(page).count)
      for item in items(page) {
        seen.append(try type(item) ?? "?")
        #expect(results(item) == ["SUCCESS"])
      }
      token =
        page.object["hasMore"] as? Bool == true ? page.object["paginationToken"] as? String : nil
    } while token != nil
    #expect(pages == [20, 20, 5])
    #expect(seen.prefix(2) == ["SUBSCRIBED", "DID_RENEW"])
    #expect(seen.filter { $0 == "ONE_TIME_CHARGE" }.count == 43)
    let renewals = await history(served, #","notificationType":"DID_RENEW""#)
    #expect(items(renewals).count == 1)
    #expect(items(await history(served, #","onlyFailures":true"#)).isEmpty)
    let bad: [(String, Int)] = [
      (#","notificationType":"NOPE""#, 4_000_018),
      (#","transactionId":"0","notificationType":"DID_RENEW""#, 4_000_019),
    ]
    for (filters, code) in bad {
      #expect(await history(served, filters).object["errorCode"] as? Int == code, "\(filters)")
    }
    let backwards = await served.call(
      "POST", "/inApps/v1/notifications/history", body: #"{"startDate":5,"endDate":1}"#)
    #expect(backwards.object["errorCode"] as? Int == 4_000_013)
    #expect(await history(served, token: "nonsense").object["errorCode"] as? Int == 4_000_014)
  }

  @Test func aFailedDeliveryIsRetriedOnApplesScheduleInSimulatedTime() async throws {
    let backend = try Backend()
    backend.status = 500
    let served = try makeServed(notifyingURL: backend.url)
    _ = await served.call("POST", "/storekeeper/v1/commands", body: "buy foodtruck.donuts.box\n")
    let outbox = try #require(served.sender?.outbox)
    #expect(eventually(served) { outbox.history.first?.attempts.count == 1 })
    #expect(outbox.entry(0).attempts[0].result == .unsuccessfulHTTPResponseCode)
    #expect(outbox.entry(0).nextAttempt?.milliseconds == start.milliseconds + 3_600_000)
    _ = await served.call("POST", "/storekeeper/v1/commands", body: "advance 59m\n")
    served.tick()
    #expect(backend.bodies.count == 1, "not before the hour")
    _ = await served.call("POST", "/storekeeper/v1/commands", body: "advance 1m\n")
    #expect(eventually(served) { outbox.entry(0).attempts.count == 2 })
    #expect(outbox.entry(0).nextAttempt?.milliseconds == start.milliseconds + 13 * 3_600_000)
    backend.status = 200
    _ = await served.call("POST", "/storekeeper/v1/commands", body: "advance 12h\n")
    #expect(eventually(served) { outbox.entry(0).isDelivered })
    let dates = outbox.entry(0).attempts.map {
      ($0.date.milliseconds - start.milliseconds) / 3_600_000
    }
    #expect(dates == [0, 1, 13])
    #expect(
      await served.call("POST", "/storekeeper/v1/commands", body: "notify retry\n").text.contains(
        #""count":0"#), "nothing left to send")
    let item = try #require(items(await history(served)).first)
    #expect(
      results(item) == [
        "UNSUCCESSFUL_HTTP_RESPONSE_CODE", "UNSUCCESSFUL_HTTP_RESPONSE_CODE", "SUCCESS",
      ])
  }

  @Test func notifyRetrySendsOneWaitingForItsNextRetryNow() async throws {
    let backend = try Backend()
    backend.status = 500
    let served = try makeServed(notifyingURL: backend.url)
    _ = await served.call("POST", "/storekeeper/v1/commands", body: "buy foodtruck.donuts.box\n")
    let outbox = try #require(served.sender?.outbox)
    #expect(eventually(served) { outbox.entry(0).nextAttempt != nil }, "a retry in 1 h")
    backend.status = 200
    let retried = await served.call("POST", "/storekeeper/v1/commands", body: "notify retry\n")
    #expect(retried.text.contains(#""count":1"#), "\(retried.text)")
    #expect(eventually(served) { outbox.entry(0).isDelivered })
    #expect(outbox.entry(0).attempts.count == 2, "at once, not an hour later")
    #expect(outbox.entry(0).nextAttempt == nil)
  }

  @Test func afterFiveRetriesTheAppStoreGivesUpAndNotifyRetrySendsAgain() async throws {
    let backend = try Backend()
    backend.status = 503
    let served = try makeServed(notifyingURL: backend.url)
    _ = await served.call("POST", "/storekeeper/v1/commands", body: "buy foodtruck.donuts.box\n")
    let outbox = try #require(served.sender?.outbox)
    for (hours, attempts) in [(0, 1), (1, 2), (12, 3), (24, 4), (48, 5), (72, 6)] {
      if hours > 0 {
        _ = await served.call("POST", "/storekeeper/v1/commands", body: "advance \(hours)h\n")
      }
      #expect(eventually(served) { outbox.entry(0).attempts.count == attempts }, "\(hours) h")
    }
    #expect(outbox.entry(0).nextAttempt == nil, "given up")
    #expect(items(await history(served, #","onlyFailures":true"#)).count == 1)
    backend.status = 200
    let retried = await served.call("POST", "/storekeeper/v1/commands", body: "notify retry\n")
    #expect(retried.text.contains(#""action":"retry","count":1"#), "\(retried.text)")
    #expect(eventually(served) { outbox.entry(0).isDelivered })
    #expect(items(await history(served, #","onlyFailures":true"#)).isEmpty)
  }

  @Test func faultsDropDuplicateAndDelayWhatTheBackendGets() async throws {
    let backend = try Backend()
    let served = try makeServed(notifyingURL: backend.url)
    let outbox = try #require(served.sender?.outbox)
    _ = await served.call(
      "POST", "/storekeeper/v1/commands", body: "set notify-fault drop\nbuy foodtruck.donuts.box\n")
    #expect(outbox.entry(0).attempts.map(\.result) == [.timedOut])
    #expect(backend.bodies.isEmpty)
    _ = await served.call(
      "POST", "/storekeeper/v1/commands",
      body: "set notify-fault duplicate\nbuy foodtruck.donuts.box\n")
    #expect(eventually(served) { backend.bodies.count == 2 })
    #expect(backend.bodies[0] == backend.bodies[1], "the same notification twice")
    _ = await served.call(
      "POST", "/storekeeper/v1/commands",
      body: "set notify-fault delay 10m\nbuy foodtruck.donuts.box\n")
    served.tick()
    #expect(outbox.entry(2).attempts.isEmpty)
    _ = await served.call(
      "POST", "/storekeeper/v1/commands", body: "set notify-fault off\nadvance 10m\n")
    #expect(eventually(served) { outbox.entry(2).isDelivered })
    // The dropped one is retried an hour after its attempt, fault off now.
    _ = await served.call("POST", "/storekeeper/v1/commands", body: "advance 50m\n")
    #expect(eventually(served) { outbox.entry(0).isDelivered })
    #expect(backend.bodies.count == 4)
  }

  @Test func aTestNotificationGoesThroughTheRealDeliveryAndReportsItsAttempts() async throws {
    let backend = try Backend()
    let served = try makeServed(notifyingURL: backend.url)
    let requested = await served.call("POST", "/inApps/v1/notifications/test")
    #expect(requested.status == 200)
    let token = try #require(requested.object["testNotificationToken"] as? String)
    #expect(eventually(served) { backend.bodies.count == 1 })
    var status = await served.call("GET", "/inApps/v1/notifications/test/\(token)")
    #expect(
      await eventually(served) {
        status = await served.call("GET", "/inApps/v1/notifications/test/\(token)")
        return results(status.object) == ["SUCCESS"]
      })
    #expect(try type(status.object) == "TEST")
    #expect(backend.bodies[0].contains(status.object["signedPayload"] as? String ?? "-"))
    let unknown = await served.call(
      "GET", "/inApps/v1/notifications/test/7e3fb20b-4cdb-47cc-936d-99d65f608138_1")
    #expect(unknown.status == 404 && unknown.object["errorCode"] as? Int == 4_040_008)
    let malformed = await served.call("GET", "/inApps/v1/notifications/test/abc")
    #expect(malformed.status == 400 && malformed.object["errorCode"] as? Int == 4_000_020)
    let nowhere = await (try makeServed()).call("POST", "/inApps/v1/notifications/test")
    #expect(nowhere.status == 404 && nowhere.object["errorCode"] as? Int == 4_040_007)
  }

  @Test func noticesWithNoPurchaseAreDeliveredAndListedInTheHistory() async throws {
    let backend = try Backend()
    let served = try makeServed(notifyingURL: backend.url)
    let applied = await served.call(
      "POST", "/storekeeper/v1/commands",
      body: "notify rescind-consent\nnotify external-purchase-token unreported")
    #expect(applied.status == 200, "\(applied.text)")
    #expect(eventually(served) { backend.bodies.count == 2 })
    #expect(
      eventually(served) {
        served.sender?.outbox.history.allSatisfy { $0.isDelivered } == true
      })
    let all = items(await history(served))
    #expect(try all.map { try type($0) } == ["RESCIND_CONSENT", "EXTERNAL_PURCHASE_TOKEN"])
    let tokens = items(await history(served, #","notificationType":"EXTERNAL_PURCHASE_TOKEN""#))
    #expect(tokens.count == 1 && results(tokens[0]) == ["SUCCESS"])
    let payload = try ServedEndpointTests().payload(tokens[0]["signedPayload"])
    #expect(payload["subtype"] as? String == "UNREPORTED")
    let token = try #require(payload["externalPurchaseToken"] as? [String: Any])
    #expect(token["tokenCreationDate"] as? Int == Int(start.milliseconds) - 10 * 86_400_000)
    #expect(payload["data"] == nil)
  }

  /// Every redirect keeps the POST and its body (AsyncHTTPClient's own following turns a POST
  /// answered 301, 302 or 303 into a GET without it, which was recorded as delivered).
  @Test(arguments: [301, 302, 303, 307, 308])
  func aRedirectIsFollowedWithTheMethodAndTheBody(status: Int) async throws {
    let target = try Backend()
    let redirecting = try Backend()
    redirecting.status = status
    redirecting.location = target.url
    let served = try makeServed(notifyingURL: redirecting.url)
    _ = await served.call("POST", "/storekeeper/v1/commands", body: "buy foodtruck.donuts.box\n")
    let outbox = try #require(served.sender?.outbox)
    #expect(eventually(served) { outbox.history.first?.isDelivered == true }, "HTTP \(status)")
    #expect(target.bodies.first?.hasPrefix(#"{"signedPayload":"ey"#) == true, "the body went along")
    #expect(target.bodies.count == 1)
  }

  @Test func aRedirectCircleIsCircularRedirect() async throws {
    let circle = try Backend()
    circle.status = 307
    circle.location = circle.url
    let looping = try makeServed(notifyingURL: circle.url)
    _ = await looping.call("POST", "/storekeeper/v1/commands", body: "buy foodtruck.donuts.box\n")
    let failed = try #require(looping.sender?.outbox)
    #expect(eventually(looping) { failed.history.first?.attempts.count == 1 })
    #expect(failed.entry(0).attempts[0].result == .circularRedirect)
  }

  @Test func anUnreachableBackendIsASocketIssue() async throws {
    // A port nothing listens on, and no other test's server can be given.
    let url = "http://127.0.0.1:\(refusingPort)/notifications"
    let served = try makeServed(notifyingURL: url)
    _ = await served.call("POST", "/storekeeper/v1/commands", body: "buy foodtruck.donuts.box\n")
    let outbox = try #require(served.sender?.outbox)
    #expect(eventually(served) { outbox.history.first?.attempts.count == 1 })
    #expect(outbox.entry(0).attempts[0].result == .socketIssue, "\(outbox.entry(0).attempts)")
  }
}
