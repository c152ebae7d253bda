import Foundation
import StoreSigning
import StoreTestSupport
import Testing

/// `storekeeper import` end to end: a customer of a `serve` playing the App Store (an
/// introductory offer, renewals, an upgrade, a refund, billing retry), beside a second customer,
/// brought home by any of their ids; Apple's library reads the same from a `serve` of the new
/// journal; the clock continues their life; bad input writes nothing.
@Suite(.serialized) struct ImportCommandTests {
  static let configuration = "Configs/FoodTruck.storekit"
  static let script = [
    "customer bob", "buy socialfeed.monthly", "customer alice",
    "buy socialfeed.monthly offer=intro token=3f0c8a3e-1111-4222-8333-444455556666",
    "advance 31s", "buy foodtruck.donuts.box", "refund last", "buy socialfeed.premium.monthly",
    "set billing-retry on", "set grace-period off", "advance 32s", "customer",
  ]

  /// A source `serve` with the script applied, and the ids of each customer's transactions.
  struct Source {
    let server: ServeProcess
    let alice: [String]
    let bob: [String]
    let root: URL
  }

  static func source(_ script: [String] = script, notify: String? = nil) throws -> Source {
    let server = try ServeProcess(
      ["--paused", "--chain"] + (notify.map { ["--notify-url", $0] } ?? []) + [configuration])
    let made = try httpRequest(
      port: server.port, "POST", "/storekeeper/v1/commands",
      body: script.joined(separator: "\n"))
    try #require(made.status == 200, "\(made.body)")
    func ids(_ name: String) -> [String] {
      var seen: [String] = []
      for line in made.body.split(separator: "\n")
      where line.contains(#""customer":"\#(name)""#) && line.contains(#""event":"transaction""#) {
        if let id = line.firstMatch(of: /"id":([0-9]+)/).map({ String($0.output.1) }),
          !seen.contains(id)
        {
          seen.append(id)
        }
      }
      return seen
    }
    let root = try Self.root(
      of: server.folder, into: server.folder.appendingPathComponent("root.der"))
    return Source(server: server, alice: ids("alice"), bob: ids("bob"), root: root)
  }

  /// The root certificate (DER) of the `serve` whose state is in `state`, written to `file`.
  static func root(of state: URL, into file: URL) throws -> URL {
    try Data(
      storekeeper(["certificate", "--root", "--der"], environment: ["XDG_STATE_HOME": state.path])
        .stdoutBytes
    ).write(to: file)
    return file
  }

  /// What Apple's library reads for `ids` from the server on `port`.
  static func dump(port: Int, root: URL, key: URL, ids: [String]) throws -> NSDictionary {
    let python = try appleLibrary()
    let script = packageRoot.appendingPathComponent("Tests/storekeeperTests/Python/import_dump.py")
    let result = try runProcess(
      python, [script.path, "http://127.0.0.1:\(port)", key.path, root.path] + ids)
    try #require(result.status == 0, "import_dump.py: \(result.stderr)")
    return try #require(
      JSONSerialization.jsonObject(with: Data(result.stdout.utf8)) as? NSDictionary)
  }

  static func importArguments(
    _ id: String, port: Int, root: URL, journal: URL, key: URL
  ) -> [String] {
    [
      "import", configuration, "--transaction-id", id, "--api-url", "http://127.0.0.1:\(port)",
      "--root", root.path, "--journal", journal.path, "--api-key", key.path, "--key-id", "KEY",
      "--issuer-id", "ISSUER",
    ]
  }

  @Test func aCustomerImportedByAnyIdIsServedBackFieldByField() throws {
    let folder = try temporaryFolder()
    defer { try? FileManager.default.removeItem(at: folder) }
    let key = folder.appendingPathComponent("AuthKey_KEY.p8")
    try Data(APIKeyFile.generate().utf8).write(to: key)
    let backend = try WebhookServer(statuses: [])
    defer { backend.stop() }
    let source = try Self.source(notify: backend.url)
    try #require(source.alice.count == 4 && !source.bob.isEmpty, "\(source.alice)")
    let asked = [source.alice[0], source.alice[2], source.alice[3]]
    let before = try Self.dump(
      port: source.server.port, root: source.root, key: key, ids: asked)
    // Imported by a renewal's id: not the original, not the latest.
    let journal = folder.appendingPathComponent("alice.journal")
    let imported = try storekeeper(
      Self.importArguments(
        source.alice[1], port: source.server.port, root: source.root, journal: journal, key: key))
    #expect(imported.status == 0, "\(imported.stderr)")
    #expect(imported.stderr.contains("imported 4 transactions"), "\(imported.stderr)")
    let secret = try String(contentsOf: key, encoding: .utf8)
    let written = try String(contentsOf: journal, encoding: .utf8)
    #expect(!imported.stderr.contains(secret) && !written.contains(secret))
    #expect(!written.contains("eyJ"), "neither a token nor a JWS is kept: decoded values only")
    _ = source.server.stop()

    let served = try ServeProcess([
      "--paused", "--chain", "--journal", journal.path, Self.configuration,
    ])
    defer { _ = served.stop() }
    let servedRoot = try Self.root(
      of: served.folder, into: folder.appendingPathComponent("served-root.der"))
    let after = try Self.dump(port: served.port, root: servedRoot, key: key, ids: asked)
    let history = (before[asked[0]] as? NSDictionary)?["history"] as? [Any]
    #expect(history?.count == 4 && before.count == 3, "what is compared is all there")
    #expect(before == after, "Apple's library reads the same, field by field:\n\(before)\n\(after)")
    let bob = try httpRequest(
      port: served.port, "GET", "/inApps/v1/transactions/\(source.bob[0])")
    #expect(bob.status == 404, "the second customer was not imported: \(bob.body)")
    // Apple's appTransactionId names the imported customer, in their app transaction too.
    let appTransactionID = try #require(
      (history?.first as? NSDictionary)?["appTransactionId"] as? String)
    let app = try httpRequest(
      port: served.port, "GET", "/inApps/v1/transactions/appTransactions/\(appTransactionID)")
    let jws = try #require(
      app.body.firstMatch(of: /"signedAppTransactionInfo":"[^.]+\.([^.]+)\./)?.output.1,
      "\(app.status) \(app.body)")
    var base64 = jws.replacingOccurrences(of: "-", with: "+").replacingOccurrences(
      of: "_", with: "/")
    while base64.count % 4 != 0 { base64 += "=" }
    let payload = String(decoding: Data(base64Encoded: base64) ?? Data(), as: UTF8.self)
    #expect(payload.contains(#""appTransactionId":"\#(appTransactionID)""#), "\(payload)")
    _ = served.stop()

    // The clock continues their life: billing retry recovers with resolve, same original id.
    let resolved = try storekeeper(
      ["run", Self.configuration, "-", "--journal", journal.path],
      stdin: "customer imported\nresolve last:socialfeed.premium.monthly\n")
    #expect(resolved.status == 0, "\(resolved.stderr)")
    #expect(
      resolved.stdout.contains(#""state":"subscribed""#)
        && resolved.stdout.contains(#""originalID":\#(source.alice[0])"#),
      "\(resolved.stdout.prefix(2_000))")
  }

  @Test func whatABackendKeptImportsAndTheSubscriptionRenewsOnTime() throws {
    let folder = try temporaryFolder()
    defer { try? FileManager.default.removeItem(at: folder) }
    let backend = try WebhookServer(statuses: [])
    defer { backend.stop() }
    let source = try Self.source(
      [
        "customer alice", "buy socialfeed.monthly token=3f0c8a3e-1111-4222-8333-444455556666",
        "advance 31s", "customer",
      ], notify: backend.url)
    let kept = folder.appendingPathComponent("kept")
    try FileManager.default.createDirectory(at: kept, withIntermediateDirectories: true)
    let deadline = Date().addingTimeInterval(20)
    while backend.bodies.count < 2 && Date() < deadline { usleep(50_000) }
    for (index, body) in backend.bodies.enumerated() {
      try Data(body.utf8).write(to: kept.appendingPathComponent("notification-\(index).json"))
    }
    try #require(backend.bodies.count >= 2, "SUBSCRIBED and DID_RENEW reached the backend")
    let journal = folder.appendingPathComponent("kept.journal")
    let imported = try storekeeper([
      "import", Self.configuration, "--signed", kept.path, "--root", source.root.path,
      "--journal", journal.path, "--customer", "alice",
    ])
    #expect(imported.status == 0, "\(imported.stderr)")
    let listed = try storekeeper([
      "transactions", Self.configuration, "--journal", journal.path, "--format", "json",
    ])
    let expirations = listed.stdout.matches(of: /"expirationDate":"([^"]+)"/).map {
      String($0.output.1)
    }
    let latest = try #require(expirations.max(), "\(listed.stdout)")
    #expect(listed.stdout.contains(source.alice[1]), "the renewal is there under Apple's id")
    let customers = try storekeeper([
      "customers", Self.configuration, "--journal", journal.path, "--format", "json",
    ])
    #expect(
      customers.stdout.contains(#""customer":"alice","status":"subscribed""#),
      "\(customers.stdout)")
    let receipt = try storekeeper([
      "receipt", Self.configuration, "--journal", journal.path, "--customer", "alice",
    ]).stdout.trimmingCharacters(in: .whitespacesAndNewlines)
    let decoded = try storekeeper(["decode", receipt])
    #expect(
      source.alice.allSatisfy { decoded.stdout.contains(#""transaction_id" : "\#($0)""#) },
      "the receipt lists them: \(decoded.stdout.prefix(1_000))")
    // The inspector opens the journal on them, their transactions under Apple's ids.
    let tmux = try TmuxSession(
      [Self.configuration, "--journal", journal.path, "--paused"], width: 120, height: 32)
    tmux.waitFor("Transactions of alice")
    let screen = tmux.waitFor(source.alice[1])
    #expect(screen.contains("customer alice"), "\(screen)")
    tmux.send("q")

    let renewed = try storekeeper(
      ["run", Self.configuration, "-", "--journal", journal.path],
      stdin: "customer alice\nadvance next\n")
    #expect(renewed.status == 0, "\(renewed.stderr)")
    let renewal = try #require(
      renewed.stdout.split(separator: "\n").first { $0.contains(#""reason":"renewal""#) },
      "\(renewed.stdout.prefix(2_000))")
    #expect(renewal.contains(#""purchaseDate":"\#(latest)""#), "renews at its expiration date")
    #expect(renewal.contains(#""originalID":\#(source.alice[0])"#), "with the same original id")
    #expect(renewal.contains("3f0c8a3e-1111-4222-8333-444455556666"), "and its account token")
  }

  @Test func badInputIsToldPlainlyAndWritesNothing() throws {
    let folder = try temporaryFolder()
    defer { try? FileManager.default.removeItem(at: folder) }
    let key = folder.appendingPathComponent("AuthKey_KEY.p8")
    let secret = APIKeyFile.generate()
    try Data(secret.utf8).write(to: key)
    let source = try Self.source()
    let port = source.server.port
    let out = folder.appendingPathComponent("out.journal")
    func refused(_ arguments: [String], _ expected: String) throws {
      let result = try storekeeper(arguments)
      #expect(result.status == 1, "\(arguments): \(result.stderr)")
      #expect(result.stderr.contains(expected), "\(expected): \(result.stderr)")
      #expect(!result.stderr.contains(secret) && !result.stderr.contains("eyJ"), "no secret told")
      #expect(!FileManager.default.fileExists(atPath: out.path), "nothing written")
    }
    let args = { (id: String) in
      Self.importArguments(id, port: port, root: source.root, journal: out, key: key)
    }
    try refused(args("424242"), "4040010")
    var unreachable = args(source.alice[0])
    unreachable[5] = "http://127.0.0.1:9"
    try refused(unreachable, "cannot reach http://127.0.0.1:9")
    let other = try ServeProcess(["--paused", "--chain", Self.configuration])
    let otherRoot = try Self.root(
      of: other.folder, into: folder.appendingPathComponent("other.der"))
    _ = other.stop()
    var stranger = args(source.alice[0])
    stranger[7] = otherRoot.path
    try refused(stranger, "does not lead to a trusted root (--root)")
    var elsewhere = args(source.alice[0])
    elsewhere[1] = "Configs/Everything.storekit"
    try refused(elsewhere, #"has no product "socialfeed.monthly""#)
    try refused(args(source.alice[0]) + ["--at", "2020-01-01T00:00:00Z"], "choose a later --at")
    try Data("keep me\n".utf8).write(to: out)
    let existing = try storekeeper(args(source.alice[0]))
    #expect(existing.status == 1 && existing.stderr.contains("exists"), "\(existing.stderr)")
    #expect(try String(contentsOf: out, encoding: .utf8) == "keep me\n", "never overwritten")
    try FileManager.default.removeItem(at: out)
    _ = source.server.stop()

    let guarded = try ServeProcess([
      "--paused", "--api-key", key.path, "--key-id", "KEY", "--issuer-id", "ISSUER",
      Self.configuration,
    ])
    defer { _ = guarded.stop() }
    let otherKey = folder.appendingPathComponent("AuthKey_OTHER.p8")
    try Data(APIKeyFile.generate().utf8).write(to: otherKey)
    try refused(
      [
        "import", Self.configuration, "--transaction-id", "0", "--api-url",
        "http://127.0.0.1:\(guarded.port)", "--no-verify", "--journal", out.path, "--api-key",
        otherKey.path, "--key-id", "KEY", "--issuer-id", "ISSUER",
      ], "401")
  }
}
