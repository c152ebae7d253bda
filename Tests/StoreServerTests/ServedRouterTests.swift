import Foundation
import StoreSimulation
import Testing

@testable import StoreServer

/// The served router as Hummingbird runs it (through its test client): which middleware answers
/// what before a controller does, in Apple's shapes.
@Suite struct ServedRouterTests {
  @Test func aPathWithOtherMethodsIs405NamingThemInAllow() async throws {
    let served = try makeServed()
    let mass = await served.call("GET", "/inApps/v1/subscriptions/extend/mass")
    #expect(mass.status == 405 && mass.headers["allow"] == "PUT, POST", "\(mass.headers)")
    #expect(mass.object["errorCode"] as? Int == 4_050_000)
    #expect(
      mass.object["errorMessage"] as? String
        == "Method not allowed. /inApps/v1/subscriptions/extend/mass takes PUT or POST, not GET.")
    let nowhere = await served.call("GET", "/inApps/v9/nothing")
    #expect(nowhere.status == 404 && nowhere.object["errorCode"] as? Int == 4_040_000)
    let messaging = await served.call("POST", "/inApps/v1/messaging/message/list")
    #expect(messaging.status == 405 && messaging.headers["allow"]?.hasPrefix("GET") == true)
  }

  @Test func everyInAppsPathAsksForATokenFirstEvenOneThatIsNotThere() async throws {
    let served = try makeServed()
    let missing = await served.call("GET", "/inApps/v9/nothing", headers: [:])
    #expect(missing.status == 401 && missing.body.isEmpty)
    #expect(missing.note == "no Authorization header")
    let control = await served.call("GET", "/storekeeper/v9/nothing", headers: [:])
    #expect(control.status == 404, "Storekeeper's own paths are open")
    #expect(await served.call("GET", "/storekeeper/v1/health", headers: [:]).status == 200)
  }

  @Test func aBodyOverTheLimitIsRefusedAndTheConnectionClosed() async throws {
    let served = try makeServed()
    let huge = await served.call(
      "POST", "/storekeeper/v1/commands",
      body: String(repeating: "#", count: HTTPServer.bodyLimit + 1))
    #expect(huge.status == 413 && huge.headers["connection"] == "close")
    #expect(huge.note == "the body is larger than \(HTTPServer.bodyLimit) bytes")
    let unsigned = await served.call(
      "PUT", "/inApps/v1/transactions/0/appAccountToken",
      body: String(repeating: "#", count: HTTPServer.bodyLimit + 1), headers: [:])
    #expect(unsigned.status == 413, "the body is read before the token is judged")
  }

  @Test func queryValuesArePercentDecodedAndRepeatedNamesKeepEveryValue() async throws {
    let served = try makeServed()
    _ = await served.call(
      "POST", "/storekeeper/v1/commands",
      body: "buy foodtruck.donuts.box\nbuy foodtruck.saleshistory\n")
    let both = await served.call(
      "GET", "/inApps/v2/history/0?productType=CONSUMABLE&productType=NON%5FCONSUMABLE")
    #expect(both.status == 200, "\(both.text)")
    #expect((both.object["signedTransactions"] as? [String])?.count == 2)
    let one = await served.call("GET", "/inApps/v2/history/0?productId=foodtruck%2Edonuts%2Ebox")
    #expect((one.object["signedTransactions"] as? [String])?.count == 1)
  }

  @Test func aMembersIdPutsTheMemberInTheRequestsContext() async throws {
    let served = try makeServed()
    _ = await served.call(
      "POST", "/storekeeper/v1/commands",
      body: "buy foodtruck.saleshistory\nfamily join Anna\n")
    let member = try #require(served.host.session.familyMember(named: "Anna"))
    let id = Account.member(member).appTransactionID
    let app = await served.call("GET", "/inApps/v1/transactions/appTransactions/\(id)")
    #expect(app.status == 200, "\(app.text)")
    let payload = try ServedEndpointTests().payload(app.object["signedAppTransactionInfo"])
    #expect(payload["appTransactionId"] as? String == id, "the member's, not the purchaser's")
    let unknown = await served.call("GET", "/inApps/v2/history/abc")
    #expect(unknown.status == 400 && unknown.object["errorCode"] as? Int == 4_000_006)
  }
}
