import Foundation
import StoreTestSupport
import Testing

/// The Python of a virtual environment holding Apple's App Store Server Library, made once per
/// machine in the user's cache folder; `nil` when Python or the package index is unavailable.
let appleLibraryPython: String? = {
  let version = "3.1.2"
  let cache =
    ProcessInfo.processInfo.environment["XDG_CACHE_HOME"]
    ?? FileManager.default.homeDirectoryForCurrentUser.appendingPathComponent(".cache").path
  let folder = cache + "/storekeeper-tests/app-store-server-library-\(version)"
  let python = folder + "/bin/python3"
  let marker = folder + "/.installed"
  if FileManager.default.fileExists(atPath: marker) { return python }
  try? FileManager.default.removeItem(atPath: folder)
  guard let made = try? runProcess("/usr/bin/env", ["python3", "-m", "venv", folder]),
    made.status == 0,
    let installed = try? runProcess(
      python,
      [
        "-m", "pip", "install", "-q", "--timeout", "20", "--retries", "1",
        "app-store-server-library==\(version)",
      ]),
    installed.status == 0
  else { return nil }
  _ = FileManager.default.createFile(atPath: marker, contents: nil)
  return python
}()

/// The Python holding Apple's library; the test is cancelled, saying why, when there is none.
func appleLibrary() throws -> String {
  guard let python = appleLibraryPython else {
    try Test.cancel(
      "Apple's App Store Server Library could not be installed (python3 -m venv, pip)")
  }
  return python
}

/// Verifies signed items (one JSON object per line) with Apple's library; one result each.
func verifyWithAppleLibrary(
  _ items: [String], environment: String, bundleID: String = "com.example.storekeeper",
  root: URL? = nil
) throws -> [[String: Any]] {
  let python = try appleLibrary()
  let script = packageRoot.appendingPathComponent("Tests/storekeeperTests/Python/verify.py").path
  let result = try runProcess(
    python, [script, environment, bundleID] + (root.map { [$0.path] } ?? []),
    stdin: items.joined(separator: "\n") + "\n")
  try #require(result.status == 0, "verify.py failed: \(result.stderr)")
  let decoded = try #require(
    JSONSerialization.jsonObject(with: Data(result.stdout.utf8)) as? [[String: Any]])
  // A notification's data fields are also at its top level, for brevity in checks.
  return decoded.map { entry in
    guard let data = entry["data"] as? [String: Any] else { return entry }
    return entry.merging(data) { current, _ in current }
  }
}

/// A scratch state folder (signing keys, journals) and a run of `storekeeper` inside it.
struct SigningScratch {
  let folder: URL
  init() throws { folder = try temporaryFolder() }

  var environment: [String: String] { ["XDG_STATE_HOME": folder.path] }
  var notifications: URL { folder.appendingPathComponent("notifications") }

  func run(_ arguments: [String], stdin: String? = nil) throws -> RunResult {
    try storekeeper(arguments, stdin: stdin, environment: environment)
  }

  /// The notification files, in order, and their bodies.
  func notificationFiles() throws -> [(name: String, body: String)] {
    try FileManager.default.contentsOfDirectory(atPath: notifications.path).sorted().map {
      ($0, try String(contentsOf: notifications.appendingPathComponent($0), encoding: .utf8))
    }
  }
}

let billingRetryScript = """
  set billing-retry on
  set grace-period on
  buy socialfeed.premium.monthly
  advance next
  advance next
  resolve last
  advance next
  advance next
  advance next
  buy foodtruck.donuts.box
  refund last
  """

let billingRetryNotifications = [
  "SUBSCRIBED-INITIAL_BUY", "DID_FAIL_TO_RENEW-GRACE_PERIOD", "GRACE_PERIOD_EXPIRED",
  "DID_RENEW-BILLING_RECOVERY", "DID_FAIL_TO_RENEW-GRACE_PERIOD", "GRACE_PERIOD_EXPIRED",
  "EXPIRED-BILLING_RETRY", "ONE_TIME_CHARGE", "REFUND",
]

/// `SUBSCRIBED-INITIAL_BUY` from `0001-SUBSCRIBED-INITIAL_BUY.json`.
func notificationName(ofFile file: String) -> String {
  String(file.dropFirst(5).dropLast(5))
}

func jsonLines(_ text: String) throws -> [[String: Any]] {
  try text.split(separator: "\n").map {
    try #require(JSONSerialization.jsonObject(with: Data($0.utf8)) as? [String: Any])
  }
}

@Suite struct SigningCommandTests {
  // Not parameterized: a cancelled test case would read as passed in the log.
  @Test func notificationsOfAScriptDecodeWithApplesLibrary() throws {
    try notificationsOfAScriptDecodeWithApplesLibrary(environment: "Xcode")
    try notificationsOfAScriptDecodeWithApplesLibrary(environment: "LocalTesting")
  }

  func notificationsOfAScriptDecodeWithApplesLibrary(environment: String) throws {
    let scratch = try SigningScratch()
    defer { try? FileManager.default.removeItem(at: scratch.folder) }
    let run = try scratch.run(
      [
        "run", "Configs/FoodTruck.storekit", "-", "--notifications", scratch.notifications.path,
        "--environment", environment, "--start", "2026-01-01T00:00:00Z",
      ], stdin: billingRetryScript)
    try #require(run.status == 0, "\(run.stderr)")
    let files = try scratch.notificationFiles()
    #expect(files.map { notificationName(ofFile: $0.name) } == billingRetryNotifications)
    let announced = try jsonLines(run.stdout).filter { $0["event"] as? String == "notification" }
    #expect(announced.map { $0["file"] as? String } == files.map(\.name))

    let decoded = try verifyWithAppleLibrary(files.map(\.body), environment: environment)
    try #require(decoded.count == files.count)
    for (entry, line) in zip(decoded, announced) {
      #expect(entry["error"] == nil)
      #expect(entry["notificationType"] as? String == line["notificationType"] as? String)
      #expect(entry["subtype"] as? String == line["subtype"] as? String)
      #expect(entry["notificationUUID"] as? String == line["notificationUUID"] as? String)
      #expect(entry["environment"] as? String == environment)
      #expect(entry["bundleId"] as? String == "com.example.storekeeper")
      let transaction = try #require(entry["transaction"] as? [String: Any])
      #expect(transaction["environment"] as? String == environment)
      #expect(transaction["bundleId"] as? String == "com.example.storekeeper")
    }
    let first = try #require(decoded.first?["transaction"] as? [String: Any])
    #expect(first["productId"] as? String == "socialfeed.premium.monthly")
    #expect(first["type"] as? String == "Auto-Renewable Subscription")
    #expect(first["transactionReason"] as? String == "PURCHASE")
    #expect(first["purchaseDate"] as? Int == 1_767_225_600_000)
    let grace = try #require(decoded[1]["renewal"] as? [String: Any])
    #expect(grace["isInBillingRetryPeriod"] as? Bool == true)
    #expect(grace["gracePeriodExpiresDate"] is Int)
    #expect(decoded[1]["status"] as? Int == 4)
    let expired = try #require(decoded[6]["renewal"] as? [String: Any])
    #expect(expired["expirationIntent"] as? Int == 2)
    #expect(expired["autoRenewStatus"] as? Int == 0)
    let refund = try #require(decoded[8]["transaction"] as? [String: Any])
    #expect(refund["type"] as? String == "Consumable")
    #expect(refund["revocationReason"] as? Int == 0)
    #expect(refund["revocationDate"] is Int)
  }

  @Test func chainSignaturesVerifyAgainstTheLocalRootInSandboxMode() throws {
    let scratch = try SigningScratch()
    defer { try? FileManager.default.removeItem(at: scratch.folder) }
    let run = try scratch.run(
      [
        "run", "Configs/FoodTruck.storekit", "-", "--chain", "--notifications",
        scratch.notifications.path,
      ],
      stdin: "buy socialfeed.monthly\nadvance next\n")
    try #require(run.status == 0, "\(run.stderr)")
    let root = scratch.folder.appendingPathComponent("root.pem")
    let certificate = try scratch.run(["certificate", "--root"])
    try #require(certificate.status == 0)
    try Data(certificate.stdout.utf8).write(to: root)
    let der = try scratch.run(["certificate", "--root", "--der"])
    let base64 = certificate.stdout.split(separator: "\n").filter { !$0.hasPrefix("-----") }
      .joined()
    #expect(der.stdoutBytes == [UInt8](try #require(Data(base64Encoded: base64))))
    let bodies = try scratch.notificationFiles().map(\.body)

    let verified = try verifyWithAppleLibrary(bodies, environment: "Sandbox", root: root)
    #expect(verified.map { $0["notificationType"] as? String } == ["SUBSCRIBED", "DID_RENEW"])
    #expect(verified.allSatisfy { $0["error"] == nil && $0["environment"] as? String == "Sandbox" })

    let otherApp = try verifyWithAppleLibrary(
      bodies, environment: "Sandbox", bundleID: "com.example.other", root: root)
    #expect(
      otherApp.map { $0["error"] as? String } == [
        "INVALID_APP_IDENTIFIER", "INVALID_APP_IDENTIFIER",
      ])
    let selfSigned = scratch.folder.appendingPathComponent("self-signed.pem")
    try Data(try scratch.run(["certificate"]).stdout.utf8).write(to: selfSigned)
    let wrongRoot = try verifyWithAppleLibrary(bodies, environment: "Sandbox", root: selfSigned)
    #expect(wrongRoot.allSatisfy { $0["error"] as? String == "VERIFICATION_FAILURE" })
  }

  @Test func signedTransactionsRenewalInfosAndTheAppTransactionDecodeWithApplesLibrary() throws {
    let scratch = try SigningScratch()
    defer { try? FileManager.default.removeItem(at: scratch.folder) }
    let run = try scratch.run(
      ["run", "Configs/FoodTruck.storekit", "-", "--sign", "--bundle-id", "com.example.food"],
      stdin: "buy socialfeed.monthly\nbuy foodtruck.saleshistory\n")
    try #require(run.status == 0, "\(run.stderr)")
    var items: [String] = []
    var expected: [(id: String?, product: String?)] = []
    for line in try jsonLines(run.stdout) {
      if let transaction = line["transaction"] as? [String: Any], line["delivery"] != nil {
        let jws = try #require(transaction["jwsRepresentation"] as? String)
        items.append(#"{"transaction": "\#(jws)"}"#)
        expected.append(
          ((transaction["id"] as? Int).map(String.init), transaction["productID"] as? String))
      }
      if let renewal = line["renewalInfo"] as? [String: Any] {
        let jws = try #require(renewal["jwsRepresentation"] as? String)
        items.append(#"{"renewal": "\#(jws)"}"#)
        expected.append((nil, renewal["autoRenewPreference"] as? String))
      }
    }
    let app = try scratch.run(["app-transaction", "--bundle-id", "com.example.food"])
    try #require(app.status == 0)
    items.append(#"{"app": "\#(app.stdout.trimmingCharacters(in: .whitespacesAndNewlines))"}"#)

    let decoded = try verifyWithAppleLibrary(
      items, environment: "Xcode", bundleID: "com.example.food")
    try #require(decoded.count == expected.count + 1)
    for (entry, want) in zip(decoded, expected) {
      #expect(entry["error"] == nil)
      if let id = want.id {
        #expect(entry["transactionId"] as? String == id)
        #expect(entry["productId"] as? String == want.product)
      } else {
        #expect(entry["autoRenewProductId"] as? String == want.product)
      }
    }
    #expect(decoded.last?["bundleId"] as? String == "com.example.food")
    #expect(decoded.last?["environment"] as? String == "Xcode")
  }

  @Test func notificationsArePostedInOrderAndRetriedOnTheChosenScheduleWhenTheServerFails()
    throws
  {
    let server = try WebhookServer(statuses: [500])
    defer { server.stop() }
    let scratch = try SigningScratch()
    defer { try? FileManager.default.removeItem(at: scratch.folder) }
    let run = try scratch.run(
      [
        "run", "Configs/FoodTruck.storekit", "-", "--notify-url",
        "http://127.0.0.1:\(server.port)/asn", "--notify-retries", "1s",
      ],
      stdin: billingRetryScript)
    try #require(run.status == 0, "\(run.stderr)")
    #expect(
      run.stderr.contains("notification SUBSCRIBED-INITIAL_BUY → HTTP 200 (attempt 2)"),
      "\(run.stderr)")
    let requests = server.requests()
    #expect(requests.count == billingRetryNotifications.count + 1)
    #expect(requests.allSatisfy { $0.path == "/asn" && $0.contentType == "application/json" })
    var names: [String] = []
    for request in requests.dropFirst() {
      let decoded = try storekeeper(["decode", "-"], stdin: request.body)
      #expect(decoded.status == 0)
      #expect(decoded.stderr.contains("signature: valid"))
      let payload = try #require(
        (try JSONSerialization.jsonObject(with: Data(decoded.stdout.utf8)) as? [String: Any])?[
          "payload"]
          as? [String: Any])
      let type = try #require(payload["notificationType"] as? String)
      names.append((payload["subtype"] as? String).map { "\(type)-\($0)" } ?? type)
    }
    #expect(names == billingRetryNotifications)
  }

  @Test func aFailedNotificationIsRetriedAnHourLaterInSimulatedTimeAsApplesAre() throws {
    let scratch = try SigningScratch()
    defer { try? FileManager.default.removeItem(at: scratch.folder) }
    for (advance, status, posts) in [("59m", 1, 1), ("1h", 0, 2)] {
      let server = try WebhookServer(statuses: [500])
      defer { server.stop() }
      let run = try scratch.run(
        [
          "run", "Configs/FoodTruck.storekit", "-", "--start", "2026-11-22T02:00:00Z",
          "--notify-url", "http://127.0.0.1:\(server.port)/",
        ], stdin: "buy foodtruck.saleshistory\nadvance \(advance)\n")
      #expect(run.status == status, "advance \(advance): \(run.stderr)")
      #expect(server.requests().count == posts, "advance \(advance)")
      #expect(
        run.stderr.contains(
          "notification ONE_TIME_CHARGE failed: HTTP 500; retry at 2026-11-22T03:00:00.000Z (+1 h)"),
        "\(run.stderr)")
      if status == 1 {
        #expect(
          run.stderr.contains(
            "notification ONE_TIME_CHARGE not delivered: its next retry is due at "
              + "2026-11-22T03:00:00.000Z, after the script's end"), "\(run.stderr)")
      } else {
        #expect(run.stderr.contains("notification ONE_TIME_CHARGE → HTTP 200 (attempt 2)"))
      }
    }
  }

  @Test func aRunDeliversEveryNotificationToTheWebhookAndDropsNone() throws {
    let server = try WebhookServer(statuses: [])
    defer { server.stop() }
    let scratch = try SigningScratch()
    defer { try? FileManager.default.removeItem(at: scratch.folder) }
    // An hour of renewals every 30 seconds: 121 notifications, each waiting its turn (a full
    // queue waits in a run: NotificationOutboxTests.aFullQueueThatWaitsLosesNothing…).
    let run = try scratch.run(
      [
        "run", "Configs/FoodTruck.storekit", "-", "--notify-url",
        "http://127.0.0.1:\(server.port)/",
      ],
      stdin: "buy socialfeed.premium.monthly\nadvance 1h\n")
    #expect(run.status == 0, "\(run.stderr.suffix(3000))")
    #expect(!run.stderr.contains("dropped"))
    #expect(server.requests().count == 121)
  }

  @Test func anUnreachableWebhookFailsTheRunButKeepsTheFiles() throws {
    let port = refusingPort
    let scratch = try SigningScratch()
    defer { try? FileManager.default.removeItem(at: scratch.folder) }
    let run = try scratch.run(
      [
        "run", "Configs/FoodTruck.storekit", "-", "--notify-url", "http://127.0.0.1:\(port)/",
        "--notifications", scratch.notifications.path,
      ], stdin: "buy socialfeed.monthly\nadvance next\n")
    #expect(run.status == 1)
    for name in ["SUBSCRIBED-INITIAL_BUY", "DID_RENEW"] {
      #expect(
        run.stderr.contains(
          "notification \(name) failed: no connection (connection refused); retry at "),
        "\(run.stderr)")
      #expect(
        run.stderr.contains("notification \(name) not delivered: its next retry is due at "))
    }
    #expect(try scratch.notificationFiles().count == 2)
  }

  @Test(arguments: [
    "http://:18501/asn", "ftp://127.0.0.1/asn", "127.0.0.1:8080/asn", "http://127.0.0.1:0/",
    "http://127.0.0.1:99999/", "http://127.0.0.1/a\r\nX-Injected: 1", "http://[::1/asn",
    "http://::1:8080/asn", "http://user:secret@127.0.0.1/", "http:/127.0.0.1/",
    "http://127.0.0.1:/",
  ])
  func aNotifyURLThatIsNotACompleteHTTPURLIsRefused(url: String) throws {
    let scratch = try SigningScratch()
    defer { try? FileManager.default.removeItem(at: scratch.folder) }
    let run = try scratch.run(
      ["run", "Configs/FoodTruck.storekit", "-", "--notify-url", url], stdin: "")
    #expect(run.status == 64, "\(url.debugDescription): \(run.stderr)")
    #expect(run.stderr.contains("is not a complete http(s) URL"), "\(run.stderr)")
  }

  /// Each server answers the one notification of a purchase; exactly one POST arrives.
  @Test(arguments: [
    WebhookServer.Reply.withoutReasonPhrase, .after(seconds: 6), .endlessBody,
  ])
  func serversThatAnswerOddlyOrSlowlyGetEachNotificationOnce(reply: WebhookServer.Reply) throws {
    let server = try WebhookServer(statuses: [], reply: reply)
    defer { server.stop() }
    let scratch = try SigningScratch()
    defer { try? FileManager.default.removeItem(at: scratch.folder) }
    let run = try scratch.run(
      [
        "run", "Configs/FoodTruck.storekit", "-", "--notify-url",
        "http://127.0.0.1:\(server.port)/asn",
      ], stdin: "buy foodtruck.saleshistory\n")
    #expect(run.status == 0, "\(run.stderr)")
    #expect(run.stderr.contains("notification ONE_TIME_CHARGE → HTTP 200"), "\(run.stderr)")
    #expect(server.requests().count == 1)
  }

  @Test func anIPv6LoopbackWebhookIsReached() throws {
    let server: WebhookServer
    do {
      server = try WebhookServer(statuses: [], ipv6: true)
    } catch {
      return  // no IPv6 on this machine
    }
    defer { server.stop() }
    let scratch = try SigningScratch()
    defer { try? FileManager.default.removeItem(at: scratch.folder) }
    let run = try scratch.run(
      ["run", "Configs/FoodTruck.storekit", "-", "--notify-url", "http://[::1]:\(server.port)/v6"],
      stdin: "buy foodtruck.saleshistory\n")
    #expect(run.status == 0, "\(run.stderr)")
    #expect(server.requests().map(\.path) == ["/v6"])
  }

  @Test func anHTTPSWebhookIsReachedTrustingTheCAGivenAndRefusedOtherwise() throws {
    let folder = try temporaryFolder()
    defer { try? FileManager.default.removeItem(at: folder) }
    let cert = folder.appendingPathComponent("cert.pem").path
    let key = folder.appendingPathComponent("key.pem").path
    // A self-signed certificate for 127.0.0.1: its own CA.
    guard
      let made = try? runProcess(
        "/usr/bin/env",
        [
          "openssl", "req", "-x509", "-newkey", "ec", "-pkeyopt", "ec_paramgen_curve:P-256",
          "-nodes", "-keyout", key, "-out", cert, "-days", "2", "-subj", "/CN=127.0.0.1",
          "-addext", "subjectAltName=IP:127.0.0.1",
        ]), made.status == 0
    else { try Test.cancel("openssl cannot make a certificate here") }
    let server = Process()
    server.executableURL = URL(fileURLWithPath: "/usr/bin/env")
    server.arguments = [
      "python3", "-c",
      """
      import http.server, ssl, sys
      class H(http.server.BaseHTTPRequestHandler):
          def do_POST(self):
              self.rfile.read(int(self.headers["Content-Length"]))
              self.send_response(200); self.send_header("Content-Length", "0"); self.end_headers()
              print("POST " + self.path, flush=True)
          def log_message(self, *a): pass
      s = http.server.HTTPServer(("127.0.0.1", 0), H)
      c = ssl.SSLContext(ssl.PROTOCOL_TLS_SERVER); c.load_cert_chain(sys.argv[1], sys.argv[2])
      s.socket = c.wrap_socket(s.socket, server_side=True)
      print(s.server_port, flush=True)
      s.serve_forever()
      """,
      cert, key,
    ]
    let output = Pipe()
    server.standardOutput = output
    server.standardError = FileHandle(forWritingAtPath: "/dev/null")
    try server.run()
    defer {
      // SIGKILL: a child of the test process inherits its blocked SIGTERM.
      kill(server.processIdentifier, SIGKILL)
      server.waitUntilExit()
    }
    let first = String(decoding: output.fileHandleForReading.availableData, as: UTF8.self)
    guard let port = Int(first.trimmingCharacters(in: .whitespacesAndNewlines)) else {
      try Test.cancel("python3 cannot serve https here")
    }
    let scratch = try SigningScratch()
    defer { try? FileManager.default.removeItem(at: scratch.folder) }
    let url = "https://127.0.0.1:\(port)/tls"
    let trusted = try scratch.run(
      ["run", "Configs/FoodTruck.storekit", "-", "--notify-url", url, "--notify-ca", cert],
      stdin: "buy foodtruck.saleshistory\n")
    #expect(trusted.status == 0, "\(trusted.stderr)")
    #expect(
      trusted.stderr.contains("notification ONE_TIME_CHARGE → HTTP 200"), "\(trusted.stderr)")
    let untrusted = try scratch.run(
      ["run", "Configs/FoodTruck.storekit", "-", "--notify-url", url],
      stdin: "buy foodtruck.saleshistory\n")
    #expect(untrusted.status == 1, "a certificate nobody vouches for is refused")
    #expect(untrusted.stderr.contains("--notify-ca"), "\(untrusted.stderr)")
    // The subscription page's real-time call trusts the same CA.
    let page = "buy socialfeed.monthly\nretention url \(url)\nretention show\n"
    let shown = try scratch.run(
      ["run", "Configs/FoodTruck.storekit", "-", "--notify-ca", cert], stdin: page)
    #expect(
      shown.stdout.contains(#""event":"retentionRequest""#)
        && shown.stdout.contains(#""status":200"#), "\(shown.stdout)")
    let refused = try scratch.run(["run", "Configs/FoodTruck.storekit", "-"], stdin: page)
    #expect(refused.stdout.contains(#""result":"TLS_ISSUE""#), "\(refused.stdout)")
  }

  @Test func aNotificationFolderThatCannotBeWrittenFailsTheRunNamingTheFile() throws {
    let scratch = try SigningScratch()
    defer { try? FileManager.default.removeItem(at: scratch.folder) }
    let file = scratch.folder.appendingPathComponent("not-a-folder")
    FileManager.default.createFile(atPath: file.path, contents: Data("x".utf8))
    let onAFile = try scratch.run(
      ["run", "Configs/FoodTruck.storekit", "-", "--notifications", file.path],
      stdin: "buy foodtruck.saleshistory\n")
    #expect(onAFile.status == 1)
    #expect(onAFile.stderr.contains("--notifications \(file.path): it is a file, not a folder"))
    #expect(!onAFile.stderr.contains("NSError") && !onAFile.stderr.contains("Domain="))
    let locked = scratch.folder.appendingPathComponent("locked")
    try FileManager.default.createDirectory(at: locked, withIntermediateDirectories: true)
    try FileManager.default.setAttributes([.posixPermissions: 0o500], ofItemAtPath: locked.path)
    defer {
      try? FileManager.default.setAttributes([.posixPermissions: 0o700], ofItemAtPath: locked.path)
    }
    guard access(locked.path, W_OK) != 0 else { return }  // root writes anywhere
    let run = try scratch.run(
      ["run", "Configs/FoodTruck.storekit", "-", "--notifications", locked.path],
      stdin: "buy foodtruck.saleshistory\n")
    #expect(run.status == 1)
    #expect(
      run.stderr.contains(
        "cannot write the notification \(locked.path)/0001-ONE_TIME_CHARGE.json: Permission denied")
    )
    #expect(!run.stdout.contains(#""file""#))
    let test = try scratch.run(["notify", "test", "--notifications", locked.path])
    #expect(test.status == 1)
    #expect(!test.stdout.contains("wrote"))
  }

  @Test func decodeChecksTheSignatureAndRejectsATamperedPayload() throws {
    let scratch = try SigningScratch()
    defer { try? FileManager.default.removeItem(at: scratch.folder) }
    let test = try scratch.run(["notify", "test", "--notifications", scratch.notifications.path])
    try #require(test.status == 0)
    let body = try #require(try scratch.notificationFiles().first)
    #expect(body.name == "0001-TEST.json")
    let good = try scratch.run(["decode", "-"], stdin: body.body)
    #expect(good.status == 0)
    #expect(good.stdout.contains(#""notificationType" : "TEST""#))

    let object = try #require(
      try JSONSerialization.jsonObject(with: Data(body.body.utf8)) as? [String: String])
    let parts = try #require(object["signedPayload"]).split(separator: ".").map(String.init)
    let forged = Data(#"{"notificationType":"REFUND"}"#.utf8).base64EncodedString()
      .replacingOccurrences(of: "=", with: "")
    let bad = try scratch.run(["decode", [parts[0], forged, parts[2]].joined(separator: ".")])
    #expect(bad.status == 1)
    #expect(bad.stderr.contains("signature: INVALID"))
    let garbage = try scratch.run(["decode", "not-a-jws"])
    #expect(garbage.status == 1)
    #expect(garbage.stderr.contains("storekeeper:"))
  }
}
