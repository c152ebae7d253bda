import Crypto
import Foundation
import StoreImport
import StoreJSON
import StoreServer
import StoreSigning
import StoreSimulation
import StoreTestSupport
import Testing

/// `storekeeper import`'s first half: one customer's whole history read from a server that
/// speaks the App Store Server API (`serve` as the App Store), every signed value verified
/// against the roots given; a second customer's nothing; each bad input a clear error.
@Suite(.serialized) struct ImportFetchTests {
  static let script = [
    "customer bob", "buy socialfeed.monthly", "customer alice", "set billing-retry on",
    "set grace-period off", "buy socialfeed.monthly", "advance 31s", "buy foodtruck.donuts.box",
    "refund last", "buy socialfeed.premium.monthly", "advance 32s", "customer",
  ]

  private func root(of server: ServeProcess) throws -> [UInt8] {
    try storekeeper(
      ["certificate", "--root", "--der"], environment: ["XDG_STATE_HOME": server.folder.path]
    ).stdoutBytes
  }

  @Test func oneCustomersWholeHistoryIsReadAndVerified() async throws {
    let backend = try WebhookServer(statuses: [])
    defer { backend.stop() }
    let server = try ServeProcess([
      "--paused", "--chain", "--notify-url", backend.url, "Configs/FoodTruck.storekit",
    ])
    defer { _ = server.stop() }
    let made = try httpRequest(
      port: server.port, "POST", "/storekeeper/v1/commands",
      body: Self.script.joined(separator: "\n"))
    try #require(made.status == 200, "\(made.body)")
    let alice = made.body.split(separator: "\n").filter {
      $0.contains(#""customer":"alice""#) && $0.contains(#""event":"transaction""#)
    }.compactMap { $0.firstMatch(of: /"id":([0-9]+)/).map { String($0.output.1) } }
    let any = try #require(alice.last)
    let verifier = try SignedDataVerifier(roots: [try root(of: server)])
    let fetcher = HistoryFetcher(
      base: "http://127.0.0.1:\(server.port)", verifier: verifier, token: { wellFormedToken() })
    let history = try await fetcher.fetch(transactionID: any)
    let ids = history.transactions.compactMap { value -> String? in
      if case .string(let id)? = value["transactionId"] { id } else { nil }
    }
    #expect(Set(ids) == Set(alice), "\(ids) vs \(alice)")
    #expect(history.statuses.count == 1)
    #expect(history.statuses.first?.status == 3, "billing retry")
    #expect(history.statuses.first?.renewalInfo["isInBillingRetryPeriod"] == .bool(true))
    #expect(history.refunds.count == 1)
    #expect(history.refunds.first?["productId"] == .string("foodtruck.donuts.box"))
    let types = (history.notifications ?? []).compactMap { value -> String? in
      if case .string(let type)? = value["notificationType"] { type } else { nil }
    }
    #expect(types.contains("DID_FAIL_TO_RENEW") && types.contains("REFUND"), "\(types)")
    #expect(history.latestSignedDate > 0)

    let stranger = HistoryFetcher(
      base: "http://127.0.0.1:\(server.port)",
      verifier: try SignedDataVerifier(roots: [try otherRoot()]),
      token: { wellFormedToken() })
    await #expect(throws: ImportError.self) { try await stranger.fetch(transactionID: any) }
    let unknown = await failure { try await fetcher.fetch(transactionID: "424242") }
    #expect(unknown?.appleCode == 4_040_010, "\(String(describing: unknown))")
    #expect(unknown?.description.contains("424242") == true, "the id is named")
    // Another app's, another environment's: refused as Apple's verifier refuses them.
    for (source, words) in [
      (SourceCheck(bundleID: "com.other.app"), "INVALID_APP_IDENTIFIER"),
      (SourceCheck(environment: "Production"), "INVALID_ENVIRONMENT"),
    ] {
      let refused = await failure {
        try await HistoryFetcher(
          base: "http://127.0.0.1:\(server.port)", verifier: verifier, source: source,
          token: { wellFormedToken() }
        ).fetch(transactionID: any)
      }
      #expect(refused?.description.contains(words) == true, "\(String(describing: refused))")
    }
  }

  /// A customer older than Apple's 180 days of notification history: the history is asked
  /// for the days Apple keeps (a start before them is refused), and read.
  @Test func anOldCustomersNotificationHistoryIsReadForTheDaysAppleKeeps() async throws {
    let backend = try WebhookServer(statuses: [])
    defer { backend.stop() }
    let server = try ServeProcess([
      "--paused", "--chain", "--notify-url", backend.url, "Configs/FoodTruck.storekit",
    ])
    defer { _ = server.stop() }
    let made = try httpRequest(
      port: server.port, "POST", "/storekeeper/v1/commands",
      body: "set time-rate realTime\nbuy socialfeed.yearly\nadvance 400d")
    try #require(made.status == 200, "\(made.body)")
    let fetcher = HistoryFetcher(
      base: "http://127.0.0.1:\(server.port)",
      verifier: try SignedDataVerifier(roots: [try root(of: server)]),
      token: { wellFormedToken() })
    let history = try await fetcher.fetch(transactionID: "0")
    #expect(history.notificationProblem == nil, "\(history.notificationProblem ?? "")")
    let types = (history.notifications ?? []).compactMap { value -> String? in
      if case .string(let type)? = value["notificationType"] { type } else { nil }
    }
    // The first year's renewal, 365 days in: within the latest 180.
    #expect(types == ["DID_RENEW"], "\(types)")
  }

  @Test func aRefusedTokenAndAnUnreachableServerAreSaidPlainly() async throws {
    let folder = try temporaryFolder()
    defer { try? FileManager.default.removeItem(at: folder) }
    let key = folder.appendingPathComponent("AuthKey_KEY.p8")
    try Data(APIKeyFile.generate().utf8).write(to: key)
    let server = try ServeProcess([
      "--paused", "--api-key", key.path, "--key-id", "KEY", "--issuer-id", "ISSUER",
      "Configs/FoodTruck.storekit",
    ])
    defer { _ = server.stop() }
    let stranger = P256.Signing.PrivateKey()
    let secret = try APIAuthentication.token(
      signedWith: stranger, keyID: "KEY", issuerID: "ISSUER",
      bundleID: Signer.defaultBundleID,
      issuedAt: Instant(milliseconds: Int64(Date().timeIntervalSince1970 * 1000)))
    let refused = await failure {
      try await HistoryFetcher(
        base: "http://127.0.0.1:\(server.port)", verifier: nil, token: { secret }
      ).fetch(transactionID: "0")
    }
    #expect(refused?.description.contains("HTTP 401") == true, "\(String(describing: refused))")
    #expect(refused?.description.contains(secret) == false, "the token never reaches a message")
    let nobody = await failure {
      try await HistoryFetcher(base: "http://127.0.0.1:9", verifier: nil, token: { secret })
        .fetch(transactionID: "0")
    }
    #expect(nobody?.description.contains("cannot reach http://127.0.0.1:9") == true)
    #expect(nobody?.description.contains("connection refused") == true)
  }

  /// The root of a chain made in a folder of its own.
  private func otherRoot() throws -> [UInt8] {
    let folder = try temporaryFolder()
    defer { try? FileManager.default.removeItem(at: folder) }
    return try storekeeper(
      ["certificate", "--root", "--der"], environment: ["XDG_STATE_HOME": folder.path]
    ).stdoutBytes
  }

  private func failure(_ body: () async throws -> FetchedHistory) async -> ImportError? {
    do {
      _ = try await body()
      return nil
    } catch {
      return error as? ImportError
    }
  }
}
