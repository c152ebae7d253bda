import Foundation
import StoreTestSupport
import Testing

/// The Retention Messaging API's refusals, Apple's codes for each, and a setup that survives a
/// restart of `serve` on its journal; the customer's side refused where there is nothing to do.
@Suite struct RetentionSetupTests {
  private static let image = "11111111-1111-4111-8111-111111111111"
  private static let bullet = "22222222-2222-4222-8222-222222222222"
  private static let message = "33333333-3333-4333-8333-333333333333"

  private func put(_ server: ServeProcess, _ path: String, _ body: String) throws -> (Int, String) {
    let answer = try httpRequest(
      port: server.port, "PUT", "/inApps/v1/messaging/" + path, body: body)
    return (answer.status, answer.body)
  }

  private func control(_ server: ServeProcess, _ lines: [String]) throws -> (Int, String) {
    let answer = try httpRequest(
      port: server.port, "POST", "/storekeeper/v1/commands", body: lines.joined(separator: "\n"))
    return (answer.status, answer.body)
  }

  @Test func uploadMessageRefusesWhatAppleRefusesWithItsCodes() throws {
    let server = try ServeProcess(["--paused", "Configs/FoodTruck.storekit"])
    let setup = try control(
      server,
      [
        "retention upload-image \(Self.image) FULL_SIZE 3840x400",
        "retention upload-image \(Self.bullet) BULLET_POINT 96x96",
      ])
    #expect(setup.0 == 200, "\(setup.1)")
    func message(_ fields: String) throws -> (Int, String) {
      try put(server, "message/\(UUID().uuidString)", "{\(fields)}")
    }
    let long = String(repeating: "x", count: 67)
    let cases: [(String, Int)] = [
      (#""header":"\#(long)","body":"B""#, 4_000_162),
      (#""header":"H","body":"\#(String(repeating: "y", count: 145))""#, 4_000_163),
      (
        #""header":"H","body":"B","image":{"imageIdentifier":"\#(Self.image)","altText":"\#(String(repeating: "z", count: 151))"}"#,
        4_000_175
      ),
      (#""header":"H","body":"B","headerPosition":"ABOVE_IMAGE""#, 4_000_224),
      (
        #""header":"H","body":"B","bulletPoints":["#
          + Array(
            repeating: #"{"text":"t","imageIdentifier":"\#(Self.bullet)","altText":"a"}"#,
            count: 6
          ).joined(separator: ",") + "]",
        4_000_218
      ),
      (
        #""header":"H","body":"B","bulletPoints":[{"text":"\#(long)","imageIdentifier":"\#(Self.bullet)","altText":"a"}]"#,
        4_000_219
      ),
      (
        #""header":"H","body":"B","image":{"imageIdentifier":"\#(Self.bullet)","altText":"a"}"#,
        4_000_216
      ),
      (
        #""header":"H","body":"B","image":{"imageIdentifier":"\#(UUID().uuidString)","altText":"a"}"#,
        4_000_161
      ),
    ]
    for (fields, code) in cases {
      let (status, body) = try message(fields)
      #expect(status == 400 && body.contains("\(code)"), "\(code): \(status) \(body)")
    }
    let emoji = try message(#""header":"\#(String(repeating: "🍩", count: 66))","body":"B""#)
    #expect(emoji.0 == 200, "66 characters, however many bytes: \(emoji.1)")
    let notJSON = try put(server, "message/\(UUID().uuidString)", "header")
    #expect(notJSON.0 == 400)
    let badID = try put(server, "message/not-a-uuid", #"{"header":"H","body":"B"}"#)
    #expect(badID.0 == 400)
    let unknown = try httpRequest(
      port: server.port, "GET", "/inApps/v1/messaging/default/socialfeed.monthly/en_US")
    #expect(unknown.status == 400 && unknown.body.contains("4000164"), "\(unknown.body)")
    #expect(server.stop() == 0)
  }

  @Test func theSetupSurvivesARestartOnTheJournal() throws {
    let folder = try temporaryFolder()
    defer { try? FileManager.default.removeItem(at: folder) }
    let journal = folder.appendingPathComponent("retention.journal").path
    let arguments = ["--paused", "--journal", journal, "Configs/FoodTruck.storekit"]
    let first = try ServeProcess(arguments)
    let made = try control(
      first,
      [
        "retention upload-image \(Self.image) FULL_SIZE 3840x400",
        "retention upload-message \(Self.message) \"{\\\"header\\\":\\\"Stay\\\",\\\"body\\\":\\\"B\\\"}\"",
        "retention default socialfeed.monthly en-US \(Self.message)",
        "retention url https://retention.example.com/messages",
        "retention review image \(Self.image) rejected",
      ])
    #expect(made.0 == 200, "\(made.1)")
    #expect(first.stop() == 0)
    let second = try ServeProcess(arguments)
    let images = try httpRequest(port: second.port, "GET", "/inApps/v1/messaging/image/list")
    #expect(images.body.contains(#""imageState":"REJECTED""#), "\(images.body)")
    let messages = try httpRequest(port: second.port, "GET", "/inApps/v1/messaging/message/list")
    #expect(messages.body.contains(Self.message))
    let url = try httpRequest(port: second.port, "GET", "/inApps/v1/messaging/realtime/url")
    #expect(url.body == #"{"realtimeURL":"https://retention.example.com/messages"}"#)
    let setDefault = try httpRequest(
      port: second.port, "GET", "/inApps/v1/messaging/default/socialfeed.monthly/en-US")
    #expect(setDefault.body == #"{"messageIdentifier":"\#(Self.message)"}"#)
    #expect(second.stop() == 0)
  }

  @Test func theCustomersSideIsRefusedWhereThereIsNothingToDo() throws {
    let script = """
      retention show
      """
    let none = try storekeeper(["run", "Configs/FoodTruck.storekit", "-"], stdin: script)
    #expect(none.status == 1)
    #expect(none.stderr.contains("no active auto-renewable subscription"), "\(none.stderr)")
    let off = try storekeeper(
      ["run", "Configs/FoodTruck.storekit", "-"],
      stdin: "buy socialfeed.monthly\nauto-renew last off\nretention show\n")
    #expect(off.status == 1 && off.stderr.contains("already off"), "\(off.stderr)")
    let nothing = try storekeeper(
      ["run", "Configs/FoodTruck.storekit", "-"],
      stdin: "buy socialfeed.monthly\nretention show\nretention accept\n")
    #expect(nothing.status == 1 && nothing.stderr.contains("nothing is offered"))
    #expect(nothing.stdout.contains(#""event":"retentionMessage","source":"none""#))
    let typo = try storekeeper(
      ["run", "Configs/FoodTruck.storekit", "-"], stdin: "retention shwo\n")
    #expect(typo.status == 1 && typo.stderr.contains("show"), "\(typo.stderr)")
  }

  @Test func aRecordedAnswerReplaysToTheSameMessage() throws {
    let answer = #"{\"message\":{\"messageIdentifier\":\"\#(Self.message)\"}}"#
    let script = """
      set locale en_US
      buy socialfeed.monthly
      retention upload-message \(Self.message) "{\\"header\\":\\"Stay\\",\\"body\\":\\"B\\"}"
      retention url https://retention.example.com/messages
      retention show request=44444444-4444-4444-8444-444444444444 status=200 answer="\(answer)"
      retention review message \(Self.message) pending
      retention show request=55555555-5555-4555-8555-555555555555 status=200 answer="\(answer)"
      retention show request=66666666-6666-4666-8666-666666666666 failed=TIMED_OUT reason="no answer in time"
      """
    let run = try storekeeper(["run", "Configs/FoodTruck.storekit", "-"], stdin: script)
    #expect(run.status == 0, "\(run.stderr)")
    let shown = run.stdout.split(separator: "\n").filter { $0.contains("retentionMessage") }
    #expect(shown.count == 3)
    #expect(shown.first?.contains(#""source":"realtime""#) == true)
    #expect(shown.dropFirst().allSatisfy { $0.contains(#""source":"none""#) })
    #expect(run.stdout.contains(#"PENDING, not APPROVED"#))
    #expect(run.stdout.contains(#""result":"TIMED_OUT""#))
  }

  @Test func eachCustomerOpensTheirOwnPage() throws {
    let server = try ServeProcess(["--paused", "Configs/FoodTruck.storekit"])
    let made = try control(
      server,
      [
        "customer alice", "set locale en_US", "buy socialfeed.yearly", "customer bob",
        "set locale fr_FR", "buy socialfeed.monthly", "customer",
        "retention upload-message \(Self.message) \"{\\\"header\\\":\\\"Reste\\\",\\\"body\\\":\\\"B\\\"}\"",
        "retention default socialfeed.monthly fr-FR \(Self.message)",
      ])
    #expect(made.0 == 200, "\(made.1)")
    let bob = try httpRequest(
      port: server.port, "POST", "/storekeeper/v1/commands?customer=bob", body: "retention show")
    #expect(
      bob.body.contains(#""customer":"bob","event":"retentionMessage","source":"default""#),
      "\(bob.body)")
    let alice = try httpRequest(
      port: server.port, "POST", "/storekeeper/v1/commands?customer=alice", body: "retention show")
    #expect(
      alice.body.contains(#""source":"none","productID":"socialfeed.yearly""#), "\(alice.body)")
    let accept = try httpRequest(
      port: server.port, "POST", "/storekeeper/v1/commands?customer=bob", body: "retention accept")
    #expect(accept.status == 422 && accept.body.contains("nothing is offered"), "\(accept.body)")
    #expect(server.stop() == 0)
  }
}
