import Foundation
import StoreTestSupport
import Testing

/// Retention Messaging end to end: a backend's whole round trip through Apple's App Store
/// Server Library against `storekeeper serve`, its real-time endpoint verifying every request.
@Suite(.serialized) struct RetentionMessagingTests {
  @Test func applesLibraryDrivesTheWholeRoundTrip() throws {
    let python = try appleLibrary()
    let folder = try temporaryFolder()
    defer { try? FileManager.default.removeItem(at: folder) }
    let (server, backend, keyPath, token) = try servedBackend(python, keys: folder)
    defer { backend.stop() }
    let (root, offerKey) = try backendSecrets(server, in: folder)
    let script = packageRoot.appendingPathComponent(
      "Tests/storekeeperTests/Python/retention_client.py")
    let run = try runProcess(
      python,
      [script.path, "http://127.0.0.1:\(server.port)", keyPath, root.path, token, offerKey.path])
    try #require(run.status == 0, "retention_client.py failed: \(run.stderr)\n\(server.stderr)")
    let seen = try #require(
      try JSONSerialization.jsonObject(with: Data(run.stdout.utf8)) as? [String: Any])
    try checkSetup(seen)
    try checkCustomerSide(seen)
    try checkPerformanceTest(seen)
    let types = backend.bodies.compactMap { body -> String? in
      guard let payload = body.firstMatch(of: /"signedPayload":"[^.]+\.([^.]+)\./)?.output.1,
        let data = Data(base64URL: String(payload))
      else { return nil }
      let text = String(decoding: data, as: UTF8.self)
      return text.firstMatch(of: /"notificationType":"([A-Z_]+)"/).map { String($0.output.1) }
    }
    #expect(types.contains("OFFER_REDEEMED"), "\(types)")
    #expect(types.filter { $0 == "SUBSCRIBED" }.count == 3, "\(types)")
    #expect(types.contains("DID_CHANGE_RENEWAL_PREF"), "the switch of plan: \(types)")
    #expect(server.stop() == 0)
  }

  private func checkSetup(_ seen: [String: Any]) throws {
    let errors = try #require(seen["errors"] as? [String: Any])
    func code(_ name: String) -> [Int]? { errors[name] as? [Int] }
    #expect(code("imageAgain") == [409, 4_090_000])
    #expect(code("transparent") == [400, 4_000_161])
    #expect(code("wrongSize") == [400, 4_000_161])
    #expect(code("notPNG") == [400, 4_000_161])
    #expect(code("messageAgain") == [409, 4_090_001])
    #expect(code("bulletImageAsMain") == [400, 4_000_216])
    #expect(code("noDefault") == [404, 4_040_020])
    #expect(code("badLocale") == [400, 4_000_164])
    #expect(code("notASubscription") == [400, 4_000_023])
    #expect(code("unknownMessage") == [404, 4_040_015])
    #expect(code("imageInUse") == [403, 4_030_019])
    #expect(code("unknownImage") == [404, 4_040_014])
    #expect(code("noURL") == [404, 4_040_021])
    #expect(code("badURL") == [400, 4_000_215])
    #expect(code("rejectedDefault") == [403, 4_030_017])
    #expect(code("urlGone") == [404, 4_040_021])
    let images = try #require(seen["images"] as? [[String]])
    #expect(
      images == [
        ["11111111-1111-4111-8111-111111111111", "APPROVED", "FULL_SIZE"],
        ["22222222-2222-4222-8222-222222222222", "APPROVED", "BULLET_POINT"],
      ])
    let messages = try #require(seen["messages"] as? [[String]])
    #expect(messages.count == 3 && messages.allSatisfy { $0[1] == "APPROVED" })
    let reviewed = try #require(seen["reviewed"] as? [[String]])
    #expect(reviewed.first { $0[0].hasPrefix("4444") }?[1] == "REJECTED")
    #expect(seen["default"] as? String == "33333333-3333-4333-8333-333333333333")
    #expect((seen["url"] as? String)?.hasPrefix("http://127.0.0.1:") == true)
    #expect(seen["imagesLeft"] as? [String] == ["22222222-2222-4222-8222-222222222222"])
  }

  private func checkCustomerSide(_ seen: [String: Any]) throws {
    func page(_ name: String) -> [String: Any] {
      ((seen[name] as? [String: Any])?["message"] as? [String: Any]) ?? [:]
    }
    func source(_ name: String) -> String? { page(name)["source"] as? String }
    #expect(source("text") == "realtime")
    #expect(page("text")["messageIdentifier"] as? String == "33333333-3333-4333-8333-333333333333")
    #expect(page("switch")["alternateProduct"] as? String == "socialfeed.premium.monthly")
    // The upgrade: the monthly period ends upgraded, premium starts now.
    #expect(
      seen["switchAccepted"] as? [String] == ["socialfeed.monthly", "socialfeed.premium.monthly"])
    for failure in ["failure", "slow", "garbage", "imageInSwitch"] {
      #expect(source(failure) == "default", "\(failure): \(page(failure))")
      let problem = (seen[failure] as? [String: Any])?["problem"] as? String
      #expect(problem != nil, "\(failure) says what was wrong")
    }
    let slow = try #require(seen["slow"] as? [String: Any])
    #expect((slow["seconds"] as? Double ?? 9) < 2, "a late answer is never waited for")
    #expect(((seen["acceptNothing"] as? [String]) ?? []).count == 1)
    #expect(page("offer")["promotionalOffer"] as? String == "socialfeed.monthly.loyalty")
    #expect(
      seen["offerAccepted"] as? [String] == ["OFFER_REDEEMED"], "\(seen["offerAccepted"] ?? "")")
    #expect(source("offerReplayed") == "default", "a spent nonce is refused")
    #expect(page("offerV1")["promotionalOffer"] as? String == "socialfeed.monthly.loyalty")
    #expect((seen["afterDeletes"] as? [[String: Any]])?.first?["source"] as? String == "none")
    let endpoint = try #require(seen["endpoint"] as? [String: Any])
    #expect((endpoint["failures"] as? [String]) == [], "every request verifies")
    let requests = try #require(endpoint["requests"] as? [[String: Any]])
    let first = try #require(requests.first)
    #expect(first["originalTransactionId"] as? String == String(seen["alice"] as? Int ?? -1))
    #expect(first["productId"] as? String == "socialfeed.monthly")
    #expect(first["userLocale"] as? String == "en-US")
    #expect(first["environment"] as? String == "Sandbox")
    let identifiers = Set(requests.compactMap { $0["requestIdentifier"] as? String })
    #expect(identifiers.count == requests.count, "a new requestIdentifier each time")
  }

  private func checkPerformanceTest(_ seen: [String: Any]) throws {
    let config = try #require(seen["performanceConfig"] as? [String: Any])
    let total = try #require(config["totalRequests"] as? Int)
    let concurrency = try #require(config["maxConcurrentRequests"] as? Int)
    let result = try #require(seen["performance"] as? [String: Any])
    #expect(result["result"] as? String == "PASS", "\(result)")
    #expect(result["sent"] as? Int == total)
    #expect((result["mostInFlight"] as? Int ?? 99) <= concurrency)
    #expect(result["successRate"] as? Int == 100 && result["numPending"] as? Int == 0)
    #expect(
      (result["failures"] as? [String: Any])?.isEmpty == true,
      "Apple's result has `failures`, an empty map when none: \(result)")
    let times = try #require(result["times"] as? [String: Any])
    for key in ["average", "p50", "p90", "p95", "p99"] {
      #expect((times[key] as? Int ?? -1) >= 50, "\(key): \(times)")
    }
    let errors = try #require(seen["errors"] as? [String: Any])
    #expect(errors["secondTest"] as? [Int] == [400, 4_000_213])
    #expect(errors["unknownTest"] as? [Int] == [400, 4_000_212])
    #expect(errors["testWithoutSubscription"] as? [Int] == [400, 4_000_211])
  }
}
