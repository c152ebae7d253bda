import Foundation
import StoreTestSupport
import Testing

/// `storekeeper serve` through the real binary: it listens, answers the control endpoint and
/// the App Store Server API with Apple's shapes, logs each request and stops on SIGTERM.
@Suite(.serialized) struct ServeCommandTests {
  @Test func itAnswersTheControlEndpointAndGetTransactionInfoInApplesShapes() throws {
    let server = try ServeProcess([
      "--paused", "--start", "2026-11-22T02:00:00Z", "Configs/FoodTruck.storekit",
    ])
    #expect(server.port > 0)
    let health = try httpRequest(port: server.port, "GET", "/storekeeper/v1/health")
    #expect(health.status == 200)
    #expect(health.body.contains(#""now":"2026-11-22T02:00:00.000Z""#))
    let applied = try httpRequest(
      port: server.port, "POST", "/storekeeper/v1/commands",
      body: "buy socialfeed.monthly\nadvance 31s\n")
    #expect(applied.status == 200)
    #expect(applied.headers["content-type"] == "application/x-ndjson")
    #expect(applied.body.split(separator: "\n").allSatisfy { $0.hasPrefix("{\"time\":") })
    #expect(applied.body.contains(#""delivery":"updates""#), "the renewal at 30 s")
    let refused = try httpRequest(
      port: server.port, "POST", "/storekeeper/v1/commands",
      body: "buy foodtruck.donuts.box\nrefund 99\nbuy foodtruck.donuts.box\n")
    #expect(refused.status == 422)
    let lines = refused.body.split(separator: "\n")
    #expect(lines.last?.contains(#""event":"error","line":2"#) == true)
    #expect(lines.filter { $0.contains("purchaseResult\",\"productID") }.count == 1)
    let info = try httpRequest(port: server.port, "GET", "/inApps/v1/transactions/1")
    #expect(info.status == 200)
    #expect(info.headers["content-type"] == "application/json")
    let jws = try #require(info.body.split(separator: "\"").dropFirst(3).first)
    let payload = try #require(Data(base64URL: String(jws.split(separator: ".")[1])))
    #expect(String(decoding: payload, as: UTF8.self).contains(#""transactionId":"1""#))
    // A server's payload, not the device's: no device verification.
    #expect(!String(decoding: payload, as: UTF8.self).contains("deviceVerification"))
    for (path, status, code) in [
      ("/inApps/v1/transactions/abc", 400, 4_000_006),
      ("/inApps/v1/transactions/12345", 404, 4_040_010),
      ("/inApps/v9/nothing", 404, 4_040_000),
    ] {
      let answer = try httpRequest(port: server.port, "GET", path)
      #expect(answer.status == status, "\(path)")
      #expect(answer.headers["content-type"] == "application/json")
      #expect(answer.body.hasPrefix("{\"errorCode\":\(code),\"errorMessage\":"), "\(path)")
    }
    #expect(server.stop() == 0)
    #expect(server.stderr.contains("GET /inApps/v1/transactions/1 200 "))
    #expect(server.stderr.contains("POST /storekeeper/v1/commands 422 "))
    // What the server applied is in the journal: run goes on from it.
    let journal = try #require(
      FileManager.default.enumerator(atPath: server.folder.path)?.compactMap { $0 as? String }
        .first { $0.hasSuffix(".journal") })
    let listed = try storekeeper([
      "transactions", "Configs/FoodTruck.storekit", "--journal",
      server.folder.appendingPathComponent(journal).path, "--format", "csv",
    ])
    #expect(listed.stdout.split(separator: "\n").count == 1 + 3)
  }

  @Test func rateSetsTheServedSessionsTimeRateAndABadOneIsAUsageError() throws {
    let server = try ServeProcess([
      "--paused", "--rate", "oneRenewalEveryTwoSeconds", "Configs/FoodTruck.storekit",
    ])
    let applied = try httpRequest(
      port: server.port, "POST", "/storekeeper/v1/commands",
      body: "buy socialfeed.monthly\nadvance 5s\n")
    let renewals = applied.body.split(separator: "\n").filter {
      $0.contains(#""delivery":"updates""#)
    }
    #expect(renewals.count == 2, "renewals at 2 s and 4 s: \(applied.body)")
    #expect(server.stop() == 0)
    let bad = try storekeeper(["serve", "--rate", "warp", "Configs/FoodTruck.storekit"])
    #expect(bad.status == 64)
    #expect(bad.stderr.contains("--rate \"warp\" is not a time rate"), "\(bad.stderr)")
  }

  @Test func historyPagesAreExactAndFiltered() throws {
    let server = try ServeProcess([
      "--paused", "--start", "2026-11-22T02:00:00Z", "Configs/FoodTruck.storekit",
    ])
    // 45 transactions: 44 donut boxes and a subscription's purchase, one refunded.
    let lines =
      (0..<44).map { _ in "buy foodtruck.donuts.box" } + ["buy socialfeed.monthly", "refund 3"]
    let applied = try httpRequest(
      port: server.port, "POST", "/storekeeper/v1/commands", body: lines.joined(separator: "\n"))
    #expect(applied.status == 200)
    func page(_ query: String) throws -> (ids: [Int], hasMore: Bool, revision: String) {
      let answer = try httpRequest(port: server.port, "GET", "/inApps/v2/history/0" + query)
      #expect(answer.status == 200, "\(query): \(answer.body)")
      let object = try #require(
        try JSONSerialization.jsonObject(with: Data(answer.body.utf8)) as? [String: Any])
      let signed = object["signedTransactions"] as? [String] ?? []
      let ids = try signed.map { jws -> Int in
        let payload = try #require(Data(base64URL: String(jws.split(separator: ".")[1])))
        let fields = try #require(
          try JSONSerialization.jsonObject(with: payload) as? [String: Any])
        return Int(fields["transactionId"] as? String ?? "") ?? -1
      }
      #expect(object["bundleId"] as? String == "com.example.storekeeper")
      return (ids, object["hasMore"] as? Bool ?? false, object["revision"] as? String ?? "")
    }
    var seen: [Int] = []
    var sizes: [Int] = []
    var revision: String?
    repeat {
      let result = try page(revision.map { "?revision=\($0)" } ?? "")
      seen += result.ids
      sizes.append(result.ids.count)
      revision = result.hasMore ? result.revision : nil
    } while revision != nil && sizes.count < 10
    #expect(sizes == [20, 20, 5])
    #expect(seen == Array(0..<45), "every id once, oldest first")
    #expect(try page("?sort=DESCENDING").ids.first == 44)
    #expect(try page("?productType=AUTO_RENEWABLE").ids == [44])
    #expect(try page("?productId=socialfeed.monthly&productId=foodtruck.saleshistory").ids == [44])
    #expect(try page("?revoked=True").ids == [3], "Apple's Python client sends True")
    #expect(try page("?inAppOwnershipType=FAMILY_SHARED").ids.isEmpty)
    for (query, code) in [
      ("?sort=UP", 4_000_021), ("?productType=GAME", 4_000_022),
      ("?startDate=yesterday", 4_000_015),
      ("?startDate=20&endDate=10", 4_000_013), ("?revision=xyz", 4_000_005),
    ] {
      let answer = try httpRequest(port: server.port, "GET", "/inApps/v1/history/0" + query)
      #expect(answer.status == 400 && answer.body.contains("\"errorCode\":\(code)"), "\(query)")
    }
    #expect(try httpRequest(port: server.port, "GET", "/inApps/v1/history/999").status == 404)
    #expect(server.stop() == 0)
  }

  @Test func allSubscriptionStatusesCarrySignedInfoAndFilterByStatus() throws {
    let server = try ServeProcess([
      "--paused", "--start", "2026-11-22T02:00:00Z", "Configs/FoodTruck.storekit",
    ])
    _ = try httpRequest(
      port: server.port, "POST", "/storekeeper/v1/commands",
      body: "set billing-retry on\nbuy socialfeed.monthly\nadvance 31s\nbuy foodtruck.donuts.box")
    let answer = try httpRequest(port: server.port, "GET", "/inApps/v1/subscriptions/1")
    #expect(answer.status == 200, "\(answer.body)")
    let object = try #require(
      try JSONSerialization.jsonObject(with: Data(answer.body.utf8)) as? [String: Any])
    let groups = try #require(object["data"] as? [[String: Any]])
    #expect(groups.count == 1)
    let last = try #require((groups.first?["lastTransactions"] as? [[String: Any]])?.first)
    #expect(last["status"] as? Int == 3, "in billing retry")
    #expect(last["originalTransactionId"] as? String == "0")
    let renewal = try #require(last["signedRenewalInfo"] as? String)
    let payload = try #require(Data(base64URL: String(renewal.split(separator: ".")[1])))
    #expect(String(decoding: payload, as: UTF8.self).contains(#""isInBillingRetryPeriod":true"#))
    let active = try httpRequest(port: server.port, "GET", "/inApps/v1/subscriptions/0?status=1")
    #expect(active.body.contains(#""data":[]"#))
    let bad = try httpRequest(port: server.port, "GET", "/inApps/v1/subscriptions/0?status=9")
    #expect(bad.status == 400 && bad.body.contains("4000031"))
    #expect(server.stop() == 0)
  }

  @Test func applesServerLibraryDrivesTheServerAndVerifiesWhatItSigns() throws {
    let python = try appleLibrary()
    let keyFolder = try temporaryFolder()
    defer { try? FileManager.default.removeItem(at: keyFolder) }
    let (server, backend, keyPath, token) = try serveForAppleLibrary(python, keys: keyFolder)
    defer { backend.stop() }
    // 24 consumables (one finished), a subscription and its renewal: 26 transactions.
    let lines =
      (0..<24).map { _ in "buy foodtruck.donuts.box" } + [
        "finish 0", "buy socialfeed.monthly", "advance 31s", "refund 5", "advance 1s", "refund 2",
        "refund-request 3",
      ]
    let applied = try httpRequest(
      port: server.port, "POST", "/storekeeper/v1/commands", body: lines.joined(separator: "\n"),
      bearer: token)
    let subscribed = try #require(
      applied.body.split(separator: "\n").first { $0.contains(#""transaction":{"id":24,"#) })
    let order = try #require(
      subscribed.firstMatch(of: /"orderID":"([0-9A-Z]{10})"/)?.output.1, "\(subscribed)")
    let script = packageRoot.appendingPathComponent("Tests/storekeeperTests/Python/api_client.py")
    let run = try runProcess(
      python, [script.path, "http://127.0.0.1:\(server.port)", keyPath, String(order)])
    try #require(run.status == 0, "api_client.py failed: \(run.stderr)")
    let seen = try #require(
      try JSONSerialization.jsonObject(with: Data(run.stdout.utf8)) as? [String: Any])
    #expect(seen["info"] as? String == "0")
    let v2 = try #require(seen["history_v2"] as? [String: Any])
    #expect(v2["ids"] as? [String] == (0..<26).map(String.init))
    #expect(v2["pages"] as? Int == 2)
    let v1 = try #require(seen["history_v1"] as? [String: Any])
    #expect(v1["ids"] as? [String] == (1..<26).map(String.init), "v1 leaves the finished one out")
    let statuses = try #require(seen["statuses"] as? [[String: Any]])
    #expect(statuses.count == 1)
    #expect(statuses.first?["status"] as? Int == 1)
    #expect(statuses.first?["transaction"] as? String == "25")
    #expect(statuses.first?["renewal"] as? String == "24")
    #expect(seen["refunds"] as? [String] == ["5", "2"], "in the order they were refunded")
    #expect(seen["app"] as? String == "com.example.storekeeper")
    let found = try #require(seen["order"] as? [String: Any])
    #expect(found["status"] as? Int == 0 && found["ids"] as? [String] == ["24"])
    func failure(_ key: String) -> (Int?, Int?) {
      let object = seen[key] as? [String: Any]
      return (object?["status"] as? Int, object?["code"] as? Int)
    }
    #expect(failure("unknown") == (404, 4_040_010))
    #expect(failure("malformed") == (400, 4_000_006))
    #expect(seen["stranger"] as? Int == 401, "a token signed with another key")
    #expect(server.stderr.contains("does not verify with the registered key"))
    #expect(failure("messaging") == (404, 4_040_020), "no default message: Apple's error shape")
    #expect(failure("consumption_without_request").0 == 400)
    #expect(seen["token"] as? String == "00000000-0000-0000-0000-000000000007")
    let extend = try #require(seen["extend"] as? [String: Any])
    #expect(extend["original"] as? String == "24" && extend["success"] as? Bool == true)
    #expect(failure("extend_too_far") == (400, 4_000_009))
    let mass = try #require(seen["mass"] as? [String: Any])
    #expect(mass["complete"] as? Bool == true && mass["succeeded"] as? Int == 1)
    let test = try #require(seen["test"] as? [String: Any])
    #expect(test["type"] as? String == "TEST" && test["attempts"] as? [String] == ["SUCCESS"])
    let history = try #require(seen["history"] as? [String: Any])
    let types = try #require(history["types"] as? [String])
    #expect(
      types
        == Array(repeating: "ONE_TIME_CHARGE", count: 24) + [
          "SUBSCRIBED:INITIAL_BUY", "DID_RENEW", "REFUND", "REFUND", "CONSUMPTION_REQUEST",
          "RENEWAL_EXTENDED", "RENEWAL_EXTENDED", "RENEWAL_EXTENSION:SUMMARY", "TEST",
        ], "what the session really sent, in order (the mass extension's subscriber too)")
    #expect(history["pages"] as? Int == 2)
    #expect(
      (history["results"] as? [[String]])?.allSatisfy { $0 == ["SUCCESS"] } == true,
      "\(history)")
    #expect(backend.requests().count == types.count)
    #expect(server.stop() == 0)
  }

  @Test func theBackendExampleRunsAsItsReadmeSays() throws {
    let python = try appleLibrary()
    // A free port for the example's webhook: take one, give it back.
    let probe = try WebhookServer(statuses: [])
    let listen = probe.port
    probe.stop()
    let server = try ServeProcess([
      "--paused", "--environment", "LocalTesting",
      "--notify-url", "http://127.0.0.1:\(listen)/notifications", "Configs/FoodTruck.storekit",
    ])
    let script = packageRoot.appendingPathComponent("Examples/python-backend/backend_test.py")
    let run = try runProcess(
      python,
      [script.path, "--server", "http://127.0.0.1:\(server.port)", "--listen", "\(listen)"])
    #expect(run.status == 0, "\(run.stdout)\n\(run.stderr)")
    #expect(run.stdout.contains("ok   REFUND revokes access"))
    #expect(run.stdout.hasSuffix("all steps passed\n"))
    #expect(server.stop() == 0)
  }

  @Test func aHugeOrMalformedRequestGetsApplesErrorAndTheServerGoesOn() throws {
    let server = try ServeProcess(["--paused", "Configs/FoodTruck.storekit"])
    let huge = try httpRequest(
      port: server.port, "POST", "/storekeeper/v1/commands",
      body: String(repeating: "# a comment that goes on\n", count: 60_000))
    #expect(huge.status == 413)
    #expect(huge.body.hasPrefix("{\"errorCode\":4000000"))
    let garbage = try rawHTTP(port: server.port, "THIS IS NOT HTTP\r\n\r\n")
    #expect(garbage.contains("400"))
    #expect(try httpRequest(port: server.port, "GET", "/storekeeper/v1/health").status == 200)
    #expect(server.stop() == 0)
  }

  @Test func aWrongMethodOrABadBodyGetsApplesErrorShape() throws {
    let server = try ServeProcess(["--paused", "Configs/FoodTruck.storekit"])
    _ = try httpRequest(
      port: server.port, "POST", "/storekeeper/v1/commands", body: "buy socialfeed.monthly")
    let wrong = try httpRequest(port: server.port, "DELETE", "/inApps/v1/transactions/0")
    #expect(wrong.status == 405 && wrong.headers["allow"] == "GET")
    #expect(wrong.headers["content-type"] == "application/json")
    #expect(wrong.body.contains(#""errorCode":4050000"#))
    #expect(wrong.body.contains("/inApps/v1/transactions/0 takes GET, not DELETE"))
    let extend = try httpRequest(port: server.port, "GET", "/inApps/v1/subscriptions/extend/0")
    #expect(extend.status == 405 && extend.headers["allow"] == "PUT", "\(extend)")
    let commands = try httpRequest(port: server.port, "GET", "/storekeeper/v1/commands")
    #expect(commands.status == 405 && commands.headers["allow"] == "POST")
    for path in [
      "/inApps/v1/subscriptions/extend/0", "/inApps/v2/transactions/consumption/0",
      "/inApps/v1/transactions/0/appAccountToken",
    ] {
      let bad = try httpRequest(port: server.port, "PUT", path, body: "{\"extendByDays\": ")
      #expect(bad.status == 400 && bad.body.hasPrefix(#"{"errorCode":4000000,"#), "\(path)")
      #expect(bad.headers["content-type"] == "application/json")
    }
    #expect(try httpRequest(port: server.port, "GET", "/inApps/v1/transactions/0").status == 200)
    #expect(server.stop() == 0)
  }

  @Test func aSlowClientGets408WhileOthersAreAnswered() throws {
    let server = try ServeProcess([
      "--paused", "--request-timeout", "3", "Configs/FoodTruck.storekit",
    ])
    // A body that never comes whole, on its own thread; the server answers the others meanwhile.
    final class Answer: @unchecked Sendable {
      var text: String?
      let done = DispatchSemaphore(value: 0)
    }
    let slow = Answer()
    let port = server.port
    Thread.detachNewThread {
      slow.text = try? rawHTTP(
        port: port,
        "POST /storekeeper/v1/commands HTTP/1.1\r\nHost: x\r\nContent-Length: 100\r\n\r\nbuy")
      slow.done.signal()
    }
    #expect(try httpRequest(port: server.port, "GET", "/storekeeper/v1/health").status == 200)
    #expect(slow.done.wait(timeout: .now()) == .timedOut, "answered before the slow one's 408")
    slow.done.wait()
    let answer = try #require(slow.text)
    #expect(answer.hasPrefix("HTTP/1.1 408"), "\(answer)")
    #expect(answer.contains(#"{"errorCode":4000000,"#))
    // A connection that never says anything is closed, unanswered.
    #expect(try rawHTTP(port: server.port, "").isEmpty)
    #expect(try httpRequest(port: server.port, "GET", "/storekeeper/v1/health").status == 200)
    #expect(server.stop() == 0)
    #expect(server.stderr.contains("POST /storekeeper/v1/commands 408"))
  }
}

extension Data {
  /// Base64url without padding, as a JWS has it.
  init?(base64URL text: String) {
    var base64 = text.replacingOccurrences(of: "-", with: "+").replacingOccurrences(
      of: "_", with: "/")
    while base64.count % 4 != 0 { base64 += "=" }
    self.init(base64Encoded: base64)
  }
}

/// `serve` as a backend's tests meet it: paused at 2026-11-22T02:00:00Z, `LocalTesting`, with a
/// backend's App Store Connect key made in `keys` registered (`--api-key`), notifications POSTed
/// to a local webhook; with the control endpoint's token (signed with that key too).
func serveForAppleLibrary(
  _ python: String, keys: URL
) throws -> (server: ServeProcess, backend: WebhookServer, keyPath: String, token: String) {
  let keyPath = try makeAPIKey(in: keys, python: python)
  let backend = try WebhookServer(statuses: [])
  let server = try ServeProcess([
    "--paused", "--start", "2026-11-22T02:00:00Z", "--environment", "LocalTesting",
    "--api-key", keyPath, "--key-id", "KEY_ID", "--issuer-id", "ISSUER_ID",
    "--notify-url", backend.url,
    "Configs/FoodTruck.storekit",
  ])
  let token = try storekeeper([
    "token", "--api-key", keyPath, "--key-id", "KEY_ID", "--issuer-id", "ISSUER_ID",
  ]).stdout.trimmingCharacters(in: .whitespacesAndNewlines)
  return (server, backend, keyPath, token)
}

/// A backend's App Store Connect key (`AuthKey_KEY_ID.p8`, P-256) made in `folder`.
func makeAPIKey(in folder: URL, python: String) throws -> String {
  let keyPath = folder.appendingPathComponent("AuthKey_KEY_ID.p8").path
  let made = try runProcess(
    python,
    [
      "-c",
      "import sys; from cryptography.hazmat.primitives import serialization as s; "
        + "from cryptography.hazmat.primitives.asymmetric import ec; "
        + "open(sys.argv[1], 'wb').write(ec.generate_private_key(ec.SECP256R1()).private_bytes("
        + "s.Encoding.PEM, s.PrivateFormat.PKCS8, s.NoEncryption()))",
      keyPath,
    ])
  try #require(made.status == 0, "making a key: \(made.stderr)")
  return keyPath
}
