import Foundation
import Testing

@testable import StoreServer

/// Each change endpoint reads its path's transaction, then its body, into typed values before
/// the session sees them: a request wrong in both is answered the path's error; a body wrong in
/// shape is answered Apple's error for that field, and changes nothing.
@Suite struct TypedRequestTests {
  /// A session with one subscription (transaction 0).
  func subscribed() async throws -> ServedSession {
    let served = try makeServed()
    let applied = await served.call(
      "POST", "/storekeeper/v1/commands", body: "buy socialfeed.monthly\n")
    #expect(applied.status == 200)
    return served
  }

  @Test(arguments: [
    ("PUT", "/inApps/v1/subscriptions/extend/abc", 4_000_008),
    ("PUT", "/inApps/v1/subscriptions/extend/999", 4_040_005),
    ("PUT", "/inApps/v1/transactions/999/appAccountToken", 4_040_010),
    ("PUT", "/inApps/v2/transactions/consumption/999", 4_040_010),
    ("POST", "/inApps/groups/v1/transactions/999/seats", 4_040_010),
    ("POST", "/advancedCommerce/v1/subscription/cancel/999", 4_040_010),
  ])
  func aRequestWrongInPathAndBodyIsAnsweredThePathsError(
    method: String, path: String, code: Int
  ) async throws {
    let served = try await subscribed()
    let answer = await served.call(method, path, body: "not json")
    #expect(answer.object["errorCode"] as? Int == code, "\(path): \(answer.text)")
  }

  @Test(arguments: [
    ("PUT", "/inApps/v1/subscriptions/extend/0", #"{"extendByDays":91}"#, 4_000_009),
    ("PUT", "/inApps/v1/subscriptions/extend/0", "[]", 4_000_000),
    ("PUT", "/inApps/v1/transactions/0/appAccountToken", #"{"appAccountToken":"none"}"#, 4_000_183),
    ("POST", "/inApps/groups/v1/transactions/0/seats", #"{"requestIdentifier":"x"}"#, 4_000_011),
    ("PUT", "/inApps/v1/messaging/realtime/url", "{}", 4_000_215),
  ])
  func aBodyWrongInShapeIsAnsweredItsFieldsErrorAndChangesNothing(
    method: String, path: String, body: String, code: Int
  ) async throws {
    let served = try await subscribed()
    let lines = served.host.journaled.timeline.count
    let answer = await served.call(method, path, body: body)
    #expect(answer.object["errorCode"] as? Int == code, "\(path) \(body): \(answer.text)")
    #expect(served.host.journaled.timeline.count == lines, "nothing journaled")
  }
}
