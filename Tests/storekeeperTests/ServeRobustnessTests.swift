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

extension ServeRobustnessTests {
  /// A person can try the serve page's example: it runs as written (on a free port), the
  /// token from `storekeeper token` included.
  @Test func theServePagesExampleRunsAsWritten() throws {
    let readme = try String(
      contentsOf: packageRoot.appendingPathComponent("docs/serve.md"), encoding: .utf8)
    let start = try #require(readme.range(of: "```sh\nstorekeeper serve "))
    let end = try #require(readme.range(of: "\n```", range: start.upperBound..<readme.endIndex))
    var script = String(readme[readme.index(start.lowerBound, offsetBy: 6)..<end.lowerBound])
    #expect(script.contains("TOKEN=$(storekeeper token)"))
    let port = try freePort()
    script = script.replacingOccurrences(of: "8123", with: "\(port)")
    let folder = try temporaryFolder()
    defer { try? FileManager.default.removeItem(at: folder) }
    let result = try runProcess(
      "/usr/bin/env", ["timeout", "60", "bash", "-c", script],
      environment: [
        "PATH": productsDirectory.path + ":" + (ProcessInfo.processInfo.environment["PATH"] ?? ""),
        "XDG_STATE_HOME": folder.path,
      ])
    #expect(result.status == 0, "\(result.stderr)")
    #expect(result.stdout.contains(#""event":"paymentQueue""#), "\(result.stdout)")
    #expect(result.stdout.contains(#"{"signedTransactionInfo":"ey"#), "\(result.stdout)")
    #expect(result.stderr.contains("a bearer token for the App Store Server API"))
  }

  /// Apple's rule: `exp` at most 60 minutes after `iat`, and `iat` not in the future; with a
  /// registered key the control endpoint asks for a token too, or for `--control-token`.
  @Test func tokensLiveAsLongAsTheirIatSaysAndTheControlEndpointIsProtected() throws {
    let folder = try temporaryFolder()
    defer { try? FileManager.default.removeItem(at: folder) }
    let keyFile = folder.appendingPathComponent("AuthKey_TEST.p8")
    let key = try runProcess(
      "/usr/bin/env",
      ["openssl", "genpkey", "-algorithm", "EC", "-pkeyopt", "ec_paramgen_curve:P-256"])
    try key.stdout.write(to: keyFile, atomically: true, encoding: .utf8)
    let credentials = ["--api-key", keyFile.path, "--key-id", "TEST", "--issuer-id", "ISSUER"]
    let server = try ServeProcess(Self.paused + credentials)
    let good = try storekeeper(["token"] + credentials).stdout
      .trimmingCharacters(in: .whitespacesAndNewlines)
    #expect(
      try httpRequest(port: server.port, "GET", "/inApps/v1/transactions/0", bearer: good).status
        == 404)
    // Ten years ahead, an hour long: its iat is in the future.
    let now = Int(Date().timeIntervalSince1970)
    let future = try signedToken(
      keyFile, claims: ["iat": now + 315_360_000, "exp": now + 315_363_600])
    let refused = try httpRequest(
      port: server.port, "GET", "/inApps/v1/transactions/0", bearer: future)
    #expect(refused.status == 401 && refused.body.isEmpty)
    let skewed = try signedToken(keyFile, claims: ["iat": now + 30, "exp": now + 1_800])
    #expect(
      try httpRequest(port: server.port, "GET", "/inApps/v1/transactions/0", bearer: skewed)
        .status == 404, "half a minute of skew is allowed")
    // The control endpoint: no token, no commands.
    let open = try httpRequest(
      port: server.port, "POST", "/storekeeper/v1/commands", body: "buy socialfeed.monthly\n")
    #expect(open.status == 401, "\(open.body)")
    let allowed = try httpRequest(
      port: server.port, "POST", "/storekeeper/v1/commands", body: "buy socialfeed.monthly\n",
      bearer: good)
    #expect(allowed.status == 200)
    #expect(try httpRequest(port: server.port, "GET", "/storekeeper/v1/health").status == 200)
    #expect(server.stop() == 0)
    #expect(server.stderr.contains("iat is in the future"))
    let guarded = try ServeProcess(Self.paused + ["--control-token", "s3cret"])
    #expect(
      try httpRequest(port: guarded.port, "POST", "/storekeeper/v1/commands", body: "launch\n")
        .status == 401)
    #expect(
      try httpRequest(
        port: guarded.port, "POST", "/storekeeper/v1/commands", body: "launch\n", bearer: "s3cret"
      ).status == 200)
    #expect(guarded.stop() == 0)
  }

  /// A token signed with the `.p8` at `keyFile`, claims `iss` ISSUER, `kid` TEST, the default
  /// bundle id, and `claims`.
  func signedToken(_ keyFile: URL, claims: [String: Int]) throws -> String {
    let made = try storekeeper(
      ["token", "--api-key", keyFile.path, "--key-id", "TEST", "--issuer-id", "ISSUER"]
    ).stdout.trimmingCharacters(in: .whitespacesAndNewlines)
    // Re-sign the same header with the claims changed, by openssl (ES256 over the input).
    let parts = made.split(separator: ".")
    var payload =
      try JSONSerialization.jsonObject(
        with: try #require(Data(base64URL: String(parts[1])))) as? [String: Any] ?? [:]
    for (name, value) in claims { payload[name] = value }
    let body = try JSONSerialization.data(withJSONObject: payload, options: .sortedKeys)
    let input = String(parts[0]) + "." + base64URL(body)
    let folder = keyFile.deletingLastPathComponent()
    let message = folder.appendingPathComponent("input")
    try Data(input.utf8).write(to: message)
    let der = try runProcess(
      "/usr/bin/env",
      [
        "openssl", "dgst", "-sha256", "-sign", keyFile.path, "-out",
        folder.appendingPathComponent("sig.der").path, message.path,
      ])
    #expect(der.status == 0, "\(der.stderr)")
    let raw = try rawSignature(fromDER: Data(contentsOf: folder.appendingPathComponent("sig.der")))
    return input + "." + base64URL(raw)
  }
}

extension ServeRobustnessTests {
  /// A walk of Get Transaction History page by page returns every transaction that existed
  /// throughout it exactly once, whatever is finished, refunded or bought meanwhile: the
  /// revision is a cursor on the last transaction returned, not an offset.
  @Test func aHistoryWalkReturnsEveryTransactionOnceWhateverHappensMeanwhile() throws {
    let server = try ServeProcess(Self.paused)
    func command(_ lines: String) throws {
      let answer = try httpRequest(
        port: server.port, "POST", "/storekeeper/v1/commands", body: lines)
      #expect(answer.status == 200, "\(answer.body)")
    }
    func page(_ query: String) throws -> (ids: [Int], revision: String, hasMore: Bool) {
      let answer = try httpRequest(port: server.port, "GET", "/inApps/v1/history/0?" + query)
      let object = try #require(
        try JSONSerialization.jsonObject(with: Data(answer.body.utf8)) as? [String: Any])
      let ids = try (object["signedTransactions"] as? [String] ?? []).map { jws in
        let part = try #require(Data(base64URL: String(jws.split(separator: ".")[1])))
        let payload = try JSONSerialization.jsonObject(with: part) as? [String: Any]
        return Int(payload?["transactionId"] as? String ?? "") ?? -1
      }
      return (ids, object["revision"] as? String ?? "", object["hasMore"] as? Bool ?? false)
    }
    try command(Array(repeating: "buy foodtruck.donuts.box", count: 45).joined(separator: "\n"))
    // v1 leaves finished consumables out: finishing five during the walk hides nothing else.
    let first = try page("")
    #expect(first.ids == Array(0..<20) && first.hasMore)
    try command("finish 1\nfinish 2\nfinish 3\nfinish 4\nfinish 5")
    // A purchase back-dated before the walk's place is not part of it.
    try command("buy foodtruck.saleshistory date=2026-11-21T00:00:00Z")
    let second = try page("revision=\(first.revision)")
    #expect(second.ids == Array(20..<40), "\(second.ids)")
    try command("refund 41")
    let third = try page("revision=\(second.revision)&revoked=false")
    #expect(third.ids == [40, 42, 43, 44] && !third.hasMore, "\(third.ids)")
    // Descending while purchases go on: nothing twice.
    var seen: [Int] = []
    var revision = ""
    repeat {
      let next = try page("sort=DESCENDING" + (revision.isEmpty ? "" : "&revision=\(revision)"))
      seen += next.ids
      revision = next.revision
      try command("buy foodtruck.donuts.box")
      if !next.hasMore { break }
    } while seen.count < 200
    #expect(Set(seen).count == seen.count, "repeated: \(seen)")
    // Newest first: 44 down to 0 (v1 leaves out 1 to 5, finished), then the back-dated 45.
    #expect(seen == Array((6...44).reversed()) + [0, 45], "\(seen)")
    #expect(server.stop() == 0)
  }
}

extension ServeRobustnessTests {
  /// With macOS's default of 256 descriptors and 400 idle connections, the server neither spins
  /// nor stops answering: it keeps descriptors for itself and makes room by closing the
  /// connection idle longest.
  @Test func outOfDescriptorsTheServerStillAnswersAndDoesNotSpin() throws {
    let server = try ServeProcess(Self.paused, descriptors: 256)
    var idle: [Int32] = []
    defer { for descriptor in idle { close(descriptor) } }
    for _ in 0..<400 {
      guard let descriptor = try? connectTo(port: server.port) else { break }
      idle.append(descriptor)
    }
    #expect(idle.count == 400)
    let busyBefore = cpuTime(of: server.process.processIdentifier)
    sleep(2)
    let busy = cpuTime(of: server.process.processIdentifier) - busyBefore
    #expect(busy < 1, "it used \(busy) s of CPU in 2 s, idle connections aside")
    for _ in 0..<3 {
      let health = try httpRequest(port: server.port, "GET", "/storekeeper/v1/health")
      #expect(health.status == 200)
    }
    let applied = try httpRequest(
      port: server.port, "POST", "/storekeeper/v1/commands", body: "buy socialfeed.monthly\n")
    #expect(applied.status == 200, "the journal still has a descriptor: \(applied.body)")
    #expect(server.stop() == 0)
  }
}

extension ServeRobustnessTests {
  /// Clients trickling their bodies do not lock everyone out under a small descriptor limit:
  /// at the limit a new connection takes the place of the request that has been arriving
  /// longest, so a normal client is answered at once, not after their 408 at 30 s.
  @Test func slowBodiesDoNotLockOutANormalClient() throws {
    let server = try ServeProcess(Self.paused, descriptors: 64)
    var slow: [Int32] = []
    defer { for descriptor in slow { close(descriptor) } }
    let head = Array(
      ("POST /storekeeper/v1/commands HTTP/1.1\r\nHost: 127.0.0.1\r\n"
        + "Content-Length: 1000\r\n\r\nbuy").utf8)
    for _ in 0..<60 {
      guard let descriptor = try? connectTo(port: server.port) else { break }
      _ = head.withUnsafeBytes { send(descriptor, $0.baseAddress, $0.count, 0) }
      slow.append(descriptor)
    }
    usleep(300_000)
    for _ in 0..<5 {
      let asked = Date()
      let health = try httpRequest(port: server.port, "GET", "/storekeeper/v1/health")
      #expect(health.status == 200)
      #expect(Date().timeIntervalSince(asked) < 10, "answered after the slow ones' 408")
    }
    for descriptor in slow { close(descriptor) }
    slow = []
    #expect(server.stop() == 0)
  }

  /// A token of 100 KB is a bad token like any other: 401 with no body, not the parser's 400.
  @Test func anOversizedTokenIsRefusedAsAnyBadToken() throws {
    let server = try ServeProcess(Self.paused)
    for size in [1_000, 100_000, 500_000] {
      let refused = try httpRequest(
        port: server.port, "GET", "/inApps/v1/transactions/0",
        bearer: String(repeating: "a", count: size))
      #expect(refused.status == 401 && refused.body.isEmpty, "a \(size)-byte token")
    }
    let health = try httpRequest(port: server.port, "GET", "/storekeeper/v1/health")
    #expect(health.status == 200)
    #expect(server.stop() == 0)
  }

  /// Stepping back costs what it takes back: a thousand `undo` in one request after a thousand
  /// commands answer, and the server goes on answering; the journal reopens at the start.
  @Test func manyUndosInOneRequestAnswerAndTheServerGoesOn() throws {
    let server = try ServeProcess(Self.paused)
    let commands = (0..<1_000).map { $0 % 2 == 0 ? "buy foodtruck.donuts.box" : "advance 1s" }
    let made = try httpRequest(
      port: server.port, "POST", "/storekeeper/v1/commands",
      body: commands.joined(separator: "\n"))
    #expect(made.status == 200)
    let undone = try httpRequest(
      port: server.port, "POST", "/storekeeper/v1/commands",
      body: Array(repeating: "undo", count: 1_000).joined(separator: "\n"))
    #expect(undone.status == 200, "\(undone.body.suffix(300))")
    let health = try httpRequest(port: server.port, "GET", "/storekeeper/v1/health")
    #expect(health.body.contains(#""now":"2026-11-22T02:00:00.000Z""#), "\(health.body)")
    #expect(server.stop() == 0)
    let listed = try storekeeper([
      "transactions", "Configs/FoodTruck.storekit", "--journal", try journal(of: server),
      "--format", "csv",
    ])
    #expect(listed.status == 0 && listed.stdout.split(separator: "\n").count == 1)
  }

  /// SIGTERM stops the server between two commands of a long request: it exits at once, and
  /// the journal holds the commands applied, whole.
  @Test func sigtermStopsTheServerBetweenCommandsOfALongRequest() throws {
    let server = try ServeProcess(Self.paused)
    let body = Array(repeating: "buy foodtruck.donuts.box", count: 20_000).joined(separator: "\n")
    let port = server.port
    let answered = DispatchSemaphore(value: 0)
    DispatchQueue.global().async {
      _ = try? httpRequest(port: port, "POST", "/storekeeper/v1/commands", body: body)
      answered.signal()
    }
    // Stopped once the request is under way: its first commands are in the journal.
    let path = try journal(of: server)
    let empty = (try? FileManager.default.attributesOfItem(atPath: path)[.size] as? Int) ?? 0
    let deadline = Date().addingTimeInterval(15)
    while Date() < deadline,
      ((try? FileManager.default.attributesOfItem(atPath: path)[.size] as? Int) ?? 0) <= empty
    {
      usleep(10_000)
    }
    let asked = Date()
    #expect(server.stop() == 0)
    #expect(Date().timeIntervalSince(asked) < 15, "it stopped between two commands")
    _ = answered.wait(timeout: .now() + 15)
    let listed = try storekeeper([
      "transactions", "Configs/FoodTruck.storekit", "--journal", try journal(of: server),
      "--format", "csv",
    ])
    #expect(listed.status == 0, "\(listed.stderr)")
    let count = listed.stdout.split(separator: "\n").count - 1
    #expect(count <= 20_000)
  }

  /// Reads answer from the session as last committed while a long control request runs: health
  /// and the App Store Server API within a second or two (a busy machine), not after the write.
  @Test func readsAnswerWhileALongControlRequestRuns() throws {
    let server = try ServeProcess(Self.paused)
    let port = server.port
    let setup = try httpRequest(
      port: port, "POST", "/storekeeper/v1/commands",
      body: "set time-rate monthlyRenewalEveryThirtySeconds\nbuy socialfeed.monthly\n")
    #expect(setup.status == 200)
    let answered = DispatchSemaphore(value: 0)
    DispatchQueue.global().async {
      // 172,800 renewals: seconds of work in a debug build.
      _ = try? httpRequest(port: port, "POST", "/storekeeper/v1/commands", body: "advance 60d")
      answered.signal()
    }
    usleep(300_000)
    for path in ["/storekeeper/v1/health", "/inApps/v1/subscriptions/0", "/inApps/v2/history/0"] {
      let asked = Date()
      let read = try httpRequest(port: port, "GET", path)
      #expect(read.status == 200, "\(path): \(read.body.prefix(200))")
      #expect(Date().timeIntervalSince(asked) < 2, "\(path) waited for the write")
    }
    #expect(answered.wait(timeout: .now()) == .timedOut, "the write was still running")
    #expect(answered.wait(timeout: .now() + 120) == .success)
    // What the write did is what reads see next.
    let health = try httpRequest(port: port, "GET", "/storekeeper/v1/health")
    #expect(health.body.contains(#""now":"2027-01-2"#), "\(health.body)")
    #expect(server.stop() == 0)
  }

  /// A control request's answer past a megabyte is streamed as it is made (chunked, status
  /// 200), the same lines `run` prints, and the server's memory does not hold it: 180 MB of
  /// answer grow the server's peak by less than half of that (the session itself grows).
  @Test func aLongAnswerIsStreamedAndNotHeld() throws {
    let setup = "set time-rate monthlyRenewalEveryThirtySeconds\nbuy socialfeed.monthly\n"
    let server = try ServeProcess(Self.paused)
    _ = try httpRequest(port: server.port, "POST", "/storekeeper/v1/commands", body: setup)
    var streamed: [UInt8] = []
    let small = try httpStream(
      port: server.port, "POST", "/storekeeper/v1/commands", body: "advance 3d"
    ) { streamed += $0 }
    #expect(small.status == 200 && small.headers["transfer-encoding"] == "chunked")
    #expect(streamed.count > 1 << 20)
    // The same lines as run's for the same script.
    let script = try temporaryFolder().appendingPathComponent("script")
    try (setup + "advance 3d\n").write(to: script, atomically: true, encoding: .utf8)
    let run = try storekeeper([
      "run", "Configs/FoodTruck.storekit", script.path, "--start", "2026-11-22T02:00:00Z",
    ])
    let lines = run.stdout.split(separator: "\n")
    let tail = lines.dropFirst(lines.count - streamed.split(separator: 0x0A).count)
    #expect(
      String(decoding: streamed, as: UTF8.self) == tail.joined(separator: "\n") + "\n",
      "the streamed answer differs from run's output")
    #if os(Linux)
      let before = try peakMemory(of: server)
      var bytes = 0
      let long = try httpStream(
        port: server.port, "POST", "/storekeeper/v1/commands", body: "advance 60d"
      ) { bytes += $0.count }
      #expect(long.status == 200 && bytes > 150 << 20, "\(bytes) bytes")
      let growth = try peakMemory(of: server) - before
      #expect(growth < bytes / 2, "peak grew \(growth >> 20) MB for \(bytes >> 20) MB")
    #endif
    #expect(server.stop() == 0)
  }

  /// A burst of notifications past the queue's limit (11,520 renewals) never outruns a backend
  /// that answers: the command waits for it, every notification is delivered once and in
  /// order, and the answer lists each as sent and none as dropped.
  @Test func aBurstOfNotificationsWaitsForABackendThatKeepsUp() throws {
    let webhook = try WebhookServer()
    defer { webhook.stop() }
    let server = try ServeProcess(Self.paused + ["--notify-url", webhook.url])
    let setup = "set time-rate monthlyRenewalEveryThirtySeconds\nbuy socialfeed.monthly\n"
    _ = try httpRequest(port: server.port, "POST", "/storekeeper/v1/commands", body: setup)
    var sent: [String] = []
    var dropped = 0
    var pending: [UInt8] = []
    let answer = try httpStream(
      port: server.port, "POST", "/storekeeper/v1/commands", body: "advance 4d"
    ) { piece in
      pending += piece
      while let end = pending.firstIndex(of: 0x0A) {
        let line = String(decoding: pending[..<end], as: UTF8.self)
        pending.removeSubrange(...end)
        if line.contains(#""event":"notification""#),
          let uuid = line.split(separator: "\"").drop(while: { $0 != "notificationUUID" })
            .dropFirst(2).first
        {
          sent.append(String(uuid))
        }
        if line.contains(#""event":"notificationDropped""#) { dropped += 1 }
      }
    }
    #expect(answer.status == 200)
    #expect(sent.count == 11_520 && dropped == 0, "\(sent.count) sent, \(dropped) dropped")
    let deadline = Date().addingTimeInterval(60)
    while webhook.bodies.count < 11_521 && Date() < deadline { usleep(100_000) }
    let uuids = webhook.bodies.compactMap { body -> String? in
      guard let payload = body.split(separator: "\"").dropFirst(3).first,
        let middle = payload.split(separator: ".").dropFirst().first,
        let json = Data(base64URL: String(middle)),
        let object = try? JSONSerialization.jsonObject(with: json) as? [String: Any]
      else { return nil }
      return object["notificationUUID"] as? String
    }
    // What serve's log said of attempts that failed or notifications it dropped, if any: why
    // one was not delivered once, in turn.
    let failures = server.stderr.split(separator: "\n")
      .filter { $0.contains("failed") || $0.contains("dropped") }.prefix(5)
    #expect(
      uuids.count == 11_521 && Set(uuids).count == 11_521,
      "each delivered once (\(uuids.count), \(Set(uuids).count) distinct); \(failures)")
    let delivered = Array(uuids.dropFirst())
    let differ = delivered.indices.first { $0 >= sent.count || delivered[$0] != sent[$0] }
    #expect(
      delivered == sent,
      "in the order the answer lists them (first difference at \(differ ?? -1)); \(failures)")
    #expect(server.stop() == 0)
  }

  /// The peak resident memory of a served process, in bytes (Linux's `VmHWM`).
  func peakMemory(of server: ServeProcess) throws -> Int {
    let status = try String(
      contentsOfFile: "/proc/\(server.process.processIdentifier)/status", encoding: .utf8)
    let line = try #require(status.split(separator: "\n").first { $0.hasPrefix("VmHWM:") })
    let kilobytes = try #require(Int(line.split(separator: " ").dropFirst().first ?? ""))
    return kilobytes << 10
  }

  /// The journal a served session kept in its state folder.
  func journal(of server: ServeProcess) throws -> String {
    let name = try #require(
      FileManager.default.enumerator(atPath: server.folder.path)?.compactMap { $0 as? String }
        .first { $0.hasSuffix(".journal") })
    return server.folder.appendingPathComponent(name).path
  }
}

/// Seconds of CPU a process used so far (user and system), from /proc; 0 where there is none.
func cpuTime(of pid: Int32) -> Double {
  guard let stat = try? String(contentsOfFile: "/proc/\(pid)/stat", encoding: .utf8),
    let close = stat.lastIndex(of: ")")
  else { return 0 }
  let fields = stat[stat.index(after: close)...].split(separator: " ")
  guard fields.count > 13, let user = Double(fields[11]), let system = Double(fields[12]) else {
    return 0
  }
  return (user + system) / Double(sysconf(Int32(_SC_CLK_TCK)))
}

/// base64url without padding.
func base64URL(_ data: Data) -> String {
  data.base64EncodedString().replacingOccurrences(of: "+", with: "-")
    .replacingOccurrences(of: "/", with: "_").replacingOccurrences(of: "=", with: "")
}

/// An ECDSA DER signature (SEQUENCE of two INTEGERs) as the 64 raw bytes JWS wants.
func rawSignature(fromDER der: Data) throws -> Data {
  let bytes = [UInt8](der)
  var index = 2
  if bytes[1] & 0x80 != 0 { index = 2 + Int(bytes[1] & 0x7F) }
  func integer() -> [UInt8] {
    let length = Int(bytes[index + 1])
    let value = Array(bytes[(index + 2)..<(index + 2 + length)])
    index += 2 + length
    let trimmed = Array(value.drop { $0 == 0 })
    return Array(repeating: 0, count: max(0, 32 - trimmed.count)) + trimmed.suffix(32)
  }
  return Data(integer() + integer())
}

/// A port nothing listens on now.
func freePort() throws -> Int {
  let descriptor = socket(AF_INET, Int32(SOCK_STREAM.rawValue), 0)
  defer { close(descriptor) }
  var address = sockaddr_in()
  address.sin_family = sa_family_t(AF_INET)
  address.sin_addr.s_addr = inet_addr("127.0.0.1")
  var length = socklen_t(MemoryLayout<sockaddr_in>.size)
  _ = withUnsafePointer(to: &address) {
    $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { bind(descriptor, $0, length) }
  }
  _ = withUnsafeMutablePointer(to: &address) {
    $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { getsockname(descriptor, $0, &length) }
  }
  return Int(UInt16(bigEndian: address.sin_port))
}

/// The decoded payload of a notification file (`{"signedPayload": JWS}`).
func payload(of file: URL) throws -> [String: Any] {
  let body = try JSONSerialization.jsonObject(with: Data(contentsOf: file)) as? [String: Any]
  let jws = try #require(body?["signedPayload"] as? String)
  let part = try #require(Data(base64URL: String(jws.split(separator: ".")[1])))
  return try JSONSerialization.jsonObject(with: part) as? [String: Any] ?? [:]
}
