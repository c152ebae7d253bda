import Foundation
import StoreTestSupport
import Testing

/// `storekeeper serve` against what a hostile or careless client sends, and against Apple's
/// words: limits answered at once, CRLF scripts, tokens, history walks, descriptors, mass
/// extensions.
@Suite(.serialized) struct ServeRobustnessTests {
  static let paused = ["--paused", "--start", "2026-11-22T02:00:00Z", "Configs/FoodTruck.storekit"]

  /// Apple's Summary carries the request's storefronts, and only subscribers in them are
  /// extended (the session's storefront is the customer's, USA by default).
  @Test func massExtensionsHonourTheirStorefronts() throws {
    let folder = try temporaryFolder()
    defer { try? FileManager.default.removeItem(at: folder) }
    let notifications = folder.appendingPathComponent("asn")
    let server = try ServeProcess(Self.paused + ["--notifications", notifications.path])
    _ = try httpRequest(
      port: server.port, "POST", "/storekeeper/v1/commands", body: "buy socialfeed.monthly\n")
    func extend(_ codes: String, _ request: String) throws -> [String: Any] {
      let body =
        #"{"extendByDays":5,"extendReasonCode":3,"requestIdentifier":"\#(request)","#
        + #""productId":"socialfeed.monthly","storefrontCountryCodes":\#(codes)}"#
      let answer = try httpRequest(
        port: server.port, "POST", "/inApps/v1/subscriptions/extend/mass", body: body)
      #expect(answer.status == 200, "\(answer.body)")
      let status = try httpRequest(
        port: server.port, "GET",
        "/inApps/v1/subscriptions/extend/mass/socialfeed.monthly/\(request)")
      return try JSONSerialization.jsonObject(with: Data(status.body.utf8)) as? [String: Any] ?? [:]
    }
    let canada = try extend(#"["CAN"]"#, "only-canada")
    #expect(canada["succeededCount"] as? Int == 0 && canada["failedCount"] as? Int == 0)
    let both = try extend(#"["CAN","USA"]"#, "canada-and-us")
    #expect(both["succeededCount"] as? Int == 1)
    let everyone = try extend("[]", "everyone")
    #expect(everyone["succeededCount"] as? Int == 1)
    #expect(server.stop() == 0)
    let files = try FileManager.default.contentsOfDirectory(atPath: notifications.path).sorted()
    let summaries = try files.filter { $0.contains("RENEWAL_EXTENSION-SUMMARY") }.map {
      try payload(of: notifications.appendingPathComponent($0))["summary"] as? [String: Any] ?? [:]
    }
    #expect(
      summaries.map { $0["storefrontCountryCodes"] as? [String] ?? ["?"] } == [
        ["CAN"], ["CAN", "USA"], [],
      ])
    #expect(files.filter { $0.contains("RENEWAL_EXTENDED") }.count == 2)
  }
}

extension ServeRobustnessTests {
  /// A body announced larger than the limit is refused from its headers alone: 413 in Apple's
  /// shape, the connection closed, nothing of the body read; a chunked one once it passes the
  /// limit.
  @Test func anOversizedBodyIsAnsweredAtOnce() throws {
    let server = try ServeProcess(Self.paused)
    let started = Date()
    let announced = try rawHTTP(
      port: server.port,
      "POST /inApps/v1/notifications/history HTTP/1.1\r\nHost: x\r\nAuthorization: Bearer "
        + wellFormedToken() + "\r\nContent-Length: 67108864\r\n\r\n{\"a\":")
    #expect(announced.hasPrefix("HTTP/1.1 413"), "\(announced)")
    #expect(announced.contains(#"{"errorCode":4000000,"#))
    #expect(announced.lowercased().contains("connection: close"))
    #expect(Date().timeIntervalSince(started) < 5, "answered without waiting for the body")
    let chunk = String(repeating: "x", count: 1 << 20)
    let chunked = try rawHTTP(
      port: server.port,
      "POST /storekeeper/v1/commands HTTP/1.1\r\nHost: x\r\nTransfer-Encoding: chunked\r\n\r\n"
        + String(chunk.utf8.count, radix: 16) + "\r\n" + chunk + "\r\n"
        + String(chunk.utf8.count, radix: 16) + "\r\n" + chunk + "\r\n")
    #expect(chunked.hasPrefix("HTTP/1.1 413"), "\(chunked.prefix(200))")
    // The server goes on answering.
    let health = try httpRequest(port: server.port, "GET", "/storekeeper/v1/health")
    #expect(health.status == 200)
    #expect(server.stop() == 0)
    #expect(server.stderr.contains("POST /inApps/v1/notifications/history 413"))
  }

  /// A script is a script whatever its line endings: the control endpoint reads CRLF as `run`
  /// does.
  @Test func theControlEndpointTakesCRLFScripts() throws {
    let server = try ServeProcess(Self.paused)
    let crlf = try httpRequest(
      port: server.port, "POST", "/storekeeper/v1/commands",
      body: "buy socialfeed.monthly\r\nadvance 31s\r\nbuy foodtruck.donuts.box\r\n")
    #expect(crlf.status == 200, "\(crlf.body)")
    #expect(crlf.body.contains(#""reason":"renewal""#))
    #expect(crlf.body.contains(#""productID":"foodtruck.donuts.box""#))
    let run = try storekeeper(
      ["run", "Configs/FoodTruck.storekit", "-", "--start", "2026-11-22T02:00:00Z"],
      stdin: "buy socialfeed.monthly\r\nadvance 31s\r\nbuy foodtruck.donuts.box\r\n")
    #expect(run.status == 0)
    #expect(run.stdout == crlf.body, "run and the control endpoint make the same events")
    #expect(server.stop() == 0)
  }
}

/// The decoded payload of a notification file (`{"signedPayload": JWS}`).
func payload(of file: URL) throws -> [String: Any] {
  let body = try JSONSerialization.jsonObject(with: Data(contentsOf: file)) as? [String: Any]
  let jws = try #require(body?["signedPayload"] as? String)
  let part = try #require(Data(base64URL: String(jws.split(separator: ".")[1])))
  return try JSONSerialization.jsonObject(with: part) as? [String: Any] ?? [:]
}
