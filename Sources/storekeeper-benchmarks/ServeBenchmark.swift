import ArgumentParser
import AsyncHTTPClient
import Crypto
import Foundation
import NIOCore
import StoreSigning
import StoreSimulation

/// `storekeeper serve` under load: a journal of many purchases served by the release binary,
/// then a burst of concurrent App Store Server API requests (transaction info, history pages,
/// subscription statuses, refund history, order lookups) over as many connections, each timed
/// from sending to the whole answer.
struct ServeBenchmark: ParsableCommand {
  static let configuration = CommandConfiguration(
    commandName: "serve",
    abstract: "Time concurrent App Store Server API requests against a large served session.")

  @Option(help: "How many transactions the served session holds.")
  var transactions = 100_000

  @Option(help: "How many requests go out at once (each on its own connection).")
  var concurrent = 1_000

  @Option(help: "How many bursts to send.")
  var rounds = 3

  @Option(help: "The storekeeper binary.")
  var binary = ".build/release/storekeeper"

  func run() throws {
    let folder = NSTemporaryDirectory() + "storekeeper-serve-\(getpid())"
    try FileManager.default.createDirectory(atPath: folder, withIntermediateDirectories: true)
    defer { try? FileManager.default.removeItem(atPath: folder) }
    // A subscription renewing, refunds, and consumables: every endpoint has something to say.
    var script = "buy socialfeed.monthly\n"
    for index in 1..<transactions {
      script += "buy foodtruck.donuts.box\n" + (index % 1_000 == 0 ? "refund last\n" : "")
    }
    try script.write(toFile: folder + "/script", atomically: true, encoding: .utf8)
    let journal = folder + "/bench.journal"
    let config = "Configs/FoodTruck.storekit"
    let made = try timedShell(
      "\(binary) run \(config) \(folder)/script --journal \(journal) "
        + "--start 2026-01-01T00:00:00Z > /dev/null")
    let server = try ServedProcess(binary: binary, ["--journal", journal, config])
    defer { withExtendedLifetime(server) {} }
    let (port, startup) = (server.port, server.startup)
    let base = "http://127.0.0.1:\(port)"
    let token = Self.token()
    var configuration = HTTPClient.Configuration()
    configuration.connectionPool = .init(
      idleTimeout: .seconds(60), concurrentHTTP1ConnectionsPerHostSoftLimit: concurrent)
    configuration.timeout = .init(connect: .seconds(30), read: .seconds(60))
    let client = HTTPClient(eventLoopGroupProvider: .singleton, configuration: configuration)
    defer { try? client.syncShutdown() }
    var latencies: [Double] = []
    var failures: [String] = []
    var bursts: [Double] = []
    var generator = SplitMix(seed: 42)
    for _ in 0..<rounds {
      let paths = (0..<concurrent).map { _ in path(&generator) }
      let burst = ContinuousClock.now
      let results = try Self.send(paths, to: base, token: token, client: client)
      bursts.append((ContinuousClock.now - burst).seconds)
      for result in results {
        switch result {
        case .success(let milliseconds): latencies.append(milliseconds)
        case .failure(let reason): failures.append(reason)
        }
      }
    }
    latencies.sort()
    func percentile(_ fraction: Double) -> String {
      guard !latencies.isEmpty else { return "-" }
      let index = min(
        latencies.count - 1, Int((Double(latencies.count) * fraction).rounded(.up)) - 1)
      return String(format: "%.1f ms", latencies[max(0, index)])
    }
    print(
      """
      serve: \(transactions) transactions (journal made in \(String(format: "%.1f", made.time)) s, \
      served after \(String(format: "%.2f", startup)) s)
        \(rounds) bursts of \(concurrent) concurrent requests: \(latencies.count) answered, \
      \(failures.count) errors\(failures.first.map { " (first: \($0))" } ?? "")
        latency p50 \(percentile(0.5)), p90 \(percentile(0.9)), p99 \(percentile(0.99)), \
      max \(percentile(1)); a burst in \(bursts.map { String(format: "%.2f s", $0) }.joined(separator: ", "))
      """)
    if !failures.isEmpty { throw ExitCode(1) }
  }

  /// A request of each kind in turn, at random transactions.
  private func path(_ generator: inout SplitMix) -> String {
    let id = generator.next() % UInt64(transactions)
    switch generator.next() % 6 {
    case 0: return "/inApps/v1/transactions/\(id)"
    case 1:
      // Every purchase is at the start (2026-01-01T00:00:00Z): a page after a random one.
      let after = generator.next() % UInt64(transactions)
      return "/inApps/v2/history/\(id)?revision=sk2-1767225600000-\(after)"
    case 2: return "/inApps/v2/history/\(id)?sort=DESCENDING&productId=socialfeed.monthly"
    case 3: return "/inApps/v1/subscriptions/\(id)"
    case 4: return "/inApps/v2/refund/lookup/\(id)"
    default: return "/inApps/v1/lookup/\(OrderID.make(id))"
    }
  }

  enum Outcome {
    case success(Double)
    case failure(String)
  }

  /// Sends every path at once and waits for all the answers.
  private static func send(
    _ paths: [String], to base: String, token: String, client: HTTPClient
  ) throws -> [Outcome] {
    let futures = paths.map { path -> EventLoopFuture<Outcome> in
      let sent = ContinuousClock.now
      do {
        var request = try HTTPClient.Request(url: base + path, method: .GET)
        request.headers.add(name: "Authorization", value: "Bearer \(token)")
        return client.execute(request: request).map { response in
          let milliseconds = (ContinuousClock.now - sent).seconds * 1000
          guard response.status == .ok else {
            let body = response.body.map { String(buffer: $0) } ?? ""
            return .failure("\(path): \(response.status.code) \(body)")
          }
          return .success(milliseconds)
        }.flatMapErrorThrowing { error in .failure("\(path): \(error)") }
      } catch {
        return client.eventLoopGroup.next().makeSucceededFuture(.failure("\(path): \(error)"))
      }
    }
    return try EventLoopFuture.whenAllComplete(futures, on: client.eventLoopGroup.next()).wait()
      .map { result in
        switch result {
        case .success(let outcome): outcome
        case .failure(let error): .failure("\(error)")
        }
      }
  }

  /// A bearer token as Apple's library makes one (ES256, kid, iss, aud, bid, exp).
  static func token() -> String {
    let key = P256.Signing.PrivateKey()
    let header = #"{"alg":"ES256","kid":"BENCH","typ":"JWT"}"#
    let expiry = Int(Date().timeIntervalSince1970) + 3_000
    let claims =
      #"{"iss":"bench","aud":"appstoreconnect-v1","bid":"com.example.storekeeper","exp":\#(expiry)}"#
    let input = JWS.base64URL(Array(header.utf8)) + "." + JWS.base64URL(Array(claims.utf8))
    let signature = try! key.signature(for: Array(input.utf8))
    return input + "." + JWS.base64URL(Array(signature.rawRepresentation))
  }
}

/// A small deterministic generator (SplitMix64): the same requests every run.
struct SplitMix {
  var state: UInt64
  init(seed: UInt64) { state = seed }
  mutating func next() -> UInt64 {
    state &+= 0x9E37_79B9_7F4A_7C15
    var value = state
    value = (value ^ (value >> 30)) &* 0xBF58_476D_1CE4_E5B9
    value = (value ^ (value >> 27)) &* 0x94D0_49BB_1331_11EB
    return value ^ (value >> 31)
  }
}
