import Foundation
import Testing

@testable import StoreServer

/// The Retention Messaging routes in process (Hummingbird's test client): each change answers
/// 200 and shows in its list or get, each bad request Apple's error object, and a change the
/// engine refuses changes nothing.
@Suite struct RetentionRouteTests {
  static let message = "11111111-1111-4111-8111-111111111111"
  static let messaging = "/inApps/v1/messaging"

  @Test func messagesDefaultsAndTheRealtimeURLRoundTrip() async throws {
    let served = try makeServed()
    let put = await served.call(
      "PUT", "\(Self.messaging)/message/\(Self.message)",
      body: #"{"header":"Stay","body":"Your streak is waiting."}"#)
    #expect(put.status == 200, "\(put.text)")
    let list = await served.call("GET", "\(Self.messaging)/message/list")
    let messages = try #require(list.object["messageIdentifiers"] as? [[String: Any]])
    #expect(messages.first?["messageIdentifier"] as? String == Self.message)
    #expect(messages.first?["messageState"] as? String != nil)

    let place = "\(Self.messaging)/default/socialfeed.monthly/en-US"
    let setDefault = await served.call(
      "PUT", place, body: #"{"messageIdentifier":"\#(Self.message)"}"#)
    #expect(setDefault.status == 200, "\(setDefault.text)")
    let readDefault = await served.call("GET", place)
    #expect(
      readDefault.object["messageIdentifier"] as? String == Self.message, "\(readDefault.text)")
    #expect(await served.call("DELETE", place).status == 200)
    #expect(await served.call("GET", place).status == 404)

    let url = "\(Self.messaging)/realtime/url"
    let setURL = await served.call(
      "PUT", url, body: #"{"realtimeURL":"https://example.com/retention"}"#)
    #expect(setURL.status == 200, "\(setURL.text)")
    #expect(
      await served.call("GET", url).object["realtimeURL"] as? String
        == "https://example.com/retention")
    #expect(await served.call("DELETE", url).status == 200)

    #expect(await served.call("DELETE", "\(Self.messaging)/message/\(Self.message)").status == 200)
    let emptied = await served.call("GET", "\(Self.messaging)/message/list")
    #expect((emptied.object["messageIdentifiers"] as? [Any])?.isEmpty == true, "\(emptied.text)")
  }

  @Test func badRequestsAnswerApplesErrorsAndChangeNothing() async throws {
    let served = try makeServed()
    let journaled = served.host.journaled.timeline.count
    for (method, path, body) in [
      ("PUT", "message/not-a-uuid", #"{"header":"H","body":"B"}"#),
      ("PUT", "message/\(Self.message)", #"{"header":"H"}"#),
      ("PUT", "default/socialfeed.monthly/en-US", #"{"messageIdentifier":"\#(Self.message)"}"#),
      ("PUT", "default/socialfeed.monthly/en-US", "{}"),
      ("PUT", "realtime/url", #"{"realtimeURL":"http://example.com/not-https"}"#),
      ("PUT", "realtime/url", "{}"),
      ("DELETE", "image/not-a-uuid", ""),
    ] {
      let answer = await served.call(method, "\(Self.messaging)/\(path)", body: body)
      #expect((400...499).contains(answer.status), "\(method) \(path): \(answer.text)")
      #expect(answer.object["errorCode"] is Int, "\(method) \(path): \(answer.text)")
    }
    #expect(served.host.journaled.timeline.count == journaled, "a refused change was journaled")
    let list = await served.call("GET", "\(Self.messaging)/message/list")
    #expect((list.object["messageIdentifiers"] as? [Any])?.isEmpty == true)
  }
}
