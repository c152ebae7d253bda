import Foundation
import StoreImport
import StoreSigning
import StoreTestSupport
import Testing

/// What a hostile server cannot do to `import`: keep it forever, feed it pages in a circle,
/// or fill the terminal with its error message; and what it says while it waits.
@Suite struct ImportBoundsTests {
  func fetcher(
    _ port: UInt16, timeout: Duration = .seconds(300), heard: Locked<[String]> = Locked([])
  ) -> HistoryFetcher {
    HistoryFetcher(
      base: "http://127.0.0.1:\(port)", verifier: nil, timeout: timeout,
      waiting: { line in heard.change { $0.append(line) } }, token: { wellFormedToken() })
  }

  func failure(_ body: () async throws -> FetchedHistory) async -> ImportError? {
    do {
      _ = try await body()
      return nil
    } catch {
      return error as? ImportError
    }
  }

  static func answer(_ status: Int, _ json: String) -> WebhookServer.Reply {
    .raw(
      "HTTP/1.1 \(status) X\r\nContent-Type: application/json\r\nContent-Length: "
        + "\(json.utf8.count)\r\nConnection: close\r\n\r\n\(json)")
  }

  /// `import` through the binary against `port`, in a process of its own (its clock is not
  /// this test process's busy pool), with a fresh key; its result and how long it took.
  static func importing(
    from port: UInt16, timeout: Int = 300
  ) async throws -> (run: RunResult, seconds: Double) {
    let folder = try temporaryFolder()
    defer { try? FileManager.default.removeItem(at: folder) }
    let key = folder.appendingPathComponent("AuthKey_KEY.p8")
    try Data(APIKeyFile.generate().utf8).write(to: key)
    let arguments = [
      "import", "Configs/FoodTruck.storekit", "--transaction-id", "1", "--api-url",
      "http://127.0.0.1:\(port)", "--no-verify", "--journal",
      folder.appendingPathComponent("out.journal").path, "--api-key", key.path, "--key-id", "KEY",
      "--issuer-id", "ISSUER", "--timeout", "\(timeout)",
    ]
    return try await onOwnThread {
      let started = Date()
      let run = try await storekeeperAwaiting(arguments)
      return (run, Date().timeIntervalSince(started))
    }
  }

  @Test func aTrickledAnswerEndsAtTheDeadlineSayingWhatItWaitedFor() async throws {
    let server = try WebhookServer(reply: .endlessBody)
    defer { server.stop() }
    let (run, seconds) = try await Self.importing(from: server.port, timeout: 4)
    #expect(run.status == 1)
    #expect(run.stderr.contains("did not finish within 4 s"), "\(run.stderr)")
    #expect(run.stderr.contains("waiting for Get Transaction History"), "\(run.stderr)")
    #expect(seconds < 15, "ended by its deadline (\(seconds) s), not by the server")
  }

  /// A refused connection is said at once, not after a connect timeout's retries (5 s each).
  @Test func aRefusedConnectionIsSaidAtOnce() async throws {
    let (run, seconds) = try await Self.importing(from: 9)
    #expect(run.status == 1)
    #expect(run.stderr.contains("cannot reach http://127.0.0.1:9"), "\(run.stderr)")
    #expect(run.stderr.contains("connection refused"), "\(run.stderr)")
    #expect(seconds < 4.5, "\(seconds) s")
  }

  @Test func pagesThatGoRoundInACircleAreStopped() async throws {
    let server = try WebhookServer(
      reply: Self.answer(200, #"{"signedTransactions":[],"hasMore":true,"revision":"same"}"#))
    defer { server.stop() }
    let error = await failure { try await fetcher(server.port).fetch(transactionID: "1") }
    #expect(
      error?.description.contains("go round in a circle") == true, "\(String(describing: error))")
  }

  @Test func aServersLongErrorMessageIsCut() async throws {
    let long = String(repeating: "x", count: 2 << 20)
    let server = try WebhookServer(
      reply: Self.answer(400, #"{"errorCode":4000000,"errorMessage":"\#(long)"}"#))
    defer { server.stop() }
    let error = await failure { try await fetcher(server.port).fetch(transactionID: "1") }
    let text = try #require(error?.description)
    #expect(text.contains("4000000") && text.count < 500, "\(text.count) characters")
  }
}

/// docs/import.md's local recipe, run as written in a fresh folder (bash, `storekeeper` on the
/// PATH): a `serve --chain` plays the App Store and alice comes home.
@Suite(.serialized) struct ImportRecipeTests {
  @Test func theLocalRecipeRunsAsWritten() throws {
    let page = try String(
      contentsOf: packageRoot.appendingPathComponent("docs/import.md"), encoding: .utf8)
    let section = try #require(page.range(of: "## Try it locally"))
    let open = try #require(page.range(of: "```sh\n", range: section.upperBound..<page.endIndex))
    let close = try #require(page.range(of: "```", range: open.upperBound..<page.endIndex))
    let block = String(page[open.upperBound..<close.lowerBound])
    let folder = try temporaryFolder("import-recipe")
    defer { try? FileManager.default.removeItem(at: folder) }
    try FileManager.default.createSymbolicLink(
      at: folder.appendingPathComponent("Configs"),
      withDestinationURL: packageRoot.appendingPathComponent("Configs"))
    let path = productsDirectory.path + ":" + (ProcessInfo.processInfo.environment["PATH"] ?? "")
    // A port of its own, so that runs side by side do not meet.
    let port = Int.random(in: 20_000..<40_000)
    // A recipe that fails leaves no serve behind (the test would wait for its output).
    let script =
      "set -e\ntrap 'kill $(jobs -p) 2>/dev/null || true' EXIT\n"
      + block.replacingOccurrences(of: "8124", with: String(port))
    let run = try runProcess(
      "/bin/bash", ["-c", script], in: folder,
      environment: ["PATH": path, "XDG_STATE_HOME": folder.path])
    #expect(run.status == 0, "\(run.stderr)")
    #expect(run.stderr.contains("imported 2 transactions"), "\(run.stderr)")
    let lines = run.stdout.split(separator: "\n").filter { $0.contains(#""productID""#) }
    #expect(lines.count == 2, "\(run.stdout)")
    #expect(lines.allSatisfy { $0.contains(#""customer":"alice""#) }, "\(run.stdout)")
  }
}
