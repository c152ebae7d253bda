import Foundation
import NIOConcurrencyHelpers
import StoreJSON
import StoreSimulation

/// Apple's performance test of a Get Retention Message endpoint (Initiate Performance Test):
/// ``Config/totalRequests`` signed requests sent to the URL, never more than
/// ``Config/maxConcurrentRequests`` at once, each timed, within ``Config/totalDuration`` (what is
/// still out or unsent when it ends is a `TIMED_OUT` failure); the result judged against the
/// config's thresholds. It runs as tasks awaiting the HTTP client's event loop: no thread waits
/// for an answer, so the session and the server's reads go on meanwhile.
public final class PerformanceTest: Sendable {
  /// `PerformanceTestConfig`.
  public struct Config: Sendable, Equatable {
    /// The most requests in flight at once.
    public var maxConcurrentRequests = 5
    /// How many requests the test sends.
    public var totalRequests = 50
    /// How long the test may run, in milliseconds.
    public var totalDuration: Int64 = 30_000
    /// The slowest answer that counts as a success, in milliseconds (Apple: about 700 ms).
    public var responseTimeThreshold = 700
    /// The share of successes a passing test needs, in percent.
    public var successRateThreshold = 95

    /// Storekeeper's defaults ([unverified]: Apple does not publish its own).
    public init() {}

    /// As Apple writes it.
    public var json: JSONValue {
      .object(
        JSONObject([
          JSONMember("maxConcurrentRequests", .number(JSONNumber(maxConcurrentRequests))),
          JSONMember("totalRequests", .number(JSONNumber(totalRequests))),
          JSONMember("totalDuration", .number(JSONNumber(text: String(totalDuration)))),
          JSONMember("responseTimeThreshold", .number(JSONNumber(responseTimeThreshold))),
          JSONMember("successRateThreshold", .number(JSONNumber(successRateThreshold))),
        ]))
    }
  }

  /// What the test has counted so far.
  private struct Tally {
    var times: [Int] = []
    var successes = 0
    var failures: [String: Int] = [:]
    var finished = 0
    var inFlight = 0
    var mostInFlight = 0
  }

  /// The test's `requestId`.
  public let requestID: String
  /// Its parameters.
  public let config: Config
  /// The URL tested.
  public let target: String
  private let tally = NIOLockedValueBox(Tally())

  /// Starts a test of `request`'s URL, signing each request at `now`; it runs on as tasks.
  public init(
    request: RetentionRequest, at now: Instant, config: Config, caller: RealtimeRetention
  ) {
    requestID = UUID().uuidString.lowercased()
    self.config = config
    target = request.url ?? ""
    Task { [self] in await run(request, at: now, caller: caller) }
  }

  /// Sends the requests, `maxConcurrentRequests` at a time, until all are answered or the
  /// test's duration ends; what never finished fails `TIMED_OUT`.
  private func run(_ request: RetentionRequest, at now: Instant, caller: RealtimeRetention) async {
    let total = config.totalRequests
    let width = max(1, min(config.maxConcurrentRequests, total))
    let duration = Duration.milliseconds(config.totalDuration)
    // Each task says whether it is a request that ended (`false`: the test's end came).
    await withTaskGroup(of: Bool.self) { group in
      group.addTask {
        try? await Task.sleep(for: duration)
        return false
      }
      var started = 0
      while started < width {
        group.addTask { await self.send(request, at: now, caller: caller) }
        started += 1
      }
      while let requestEnded = await group.next(), requestEnded {
        if started < total {
          group.addTask { await self.send(request, at: now, caller: caller) }
          started += 1
        } else if tally.withLockedValue({ $0.finished == total }) {
          break
        }
      }
      group.cancelAll()
    }
    tally.withLockedValue { tally in
      let missing = total - tally.finished
      if missing > 0 { tally.failures["TIMED_OUT", default: 0] += missing }
      tally.finished = total
      tally.inFlight = 0
    }
  }

  private func send(
    _ request: RetentionRequest, at now: Instant, caller: RealtimeRetention
  ) async -> Bool {
    tally.withLockedValue {
      $0.inFlight += 1
      $0.mostInFlight = max($0.mostInFlight, $0.inFlight)
    }
    let id = UUID().uuidString.lowercased()
    var outcome = RealtimeExchange.Outcome.failed(result: "OTHER", reason: "not signed")
    var seconds = 0.0
    if let body = try? caller.body(for: request, at: now, requestID: id) {
      (outcome, seconds) = await caller.post(body, to: target)
    }
    // A request the test's end cancelled is counted with the unsent ones.
    guard !Task.isCancelled else { return true }
    let milliseconds = Int((seconds * 1000).rounded())
    tally.withLockedValue { test in
      test.inFlight -= 1
      test.finished += 1
      switch outcome {
      case .answered(let status, let text, _):
        test.times.append(milliseconds)
        if !(200...299).contains(status) {
          test.failures["UNSUCCESSFUL_HTTP_RESPONSE_CODE", default: 0] += 1
        } else if case .object? = try? JSONParser.parse(Array(text.utf8)).root {
          test.successes += 1
        } else {
          test.failures["INVALID_RESPONSE", default: 0] += 1
        }
      case .failed(let result, _): test.failures[result, default: 0] += 1
      }
    }
    return true
  }

  /// Whether every request has been answered (or given up on).
  public var isFinished: Bool {
    tally.withLockedValue { $0.finished == config.totalRequests }
  }

  /// The most requests that were in flight at once.
  public var peakConcurrency: Int { tally.withLockedValue { $0.mostInFlight } }

  /// `PerformanceTestResultResponse`: `PENDING` while requests are out, then `PASS` or `FAIL`
  /// (a success rate at or above the threshold; a late answer is a `TIMED_OUT` failure).
  public var result: JSONValue {
    let (times, successes, failures, finished) = tally.withLockedValue {
      ($0.times, $0.successes, $0.failures, $0.finished)
    }
    let pending = config.totalRequests - finished
    let rate = finished == 0 ? 0 : successes * 100 / finished
    let verdict = pending > 0 ? "PENDING" : rate >= config.successRateThreshold ? "PASS" : "FAIL"
    var members = [
      JSONMember("config", config.json), JSONMember("target", .string(target)),
      JSONMember("result", .string(verdict)), JSONMember("successRate", .number(JSONNumber(rate))),
      JSONMember("numPending", .number(JSONNumber(pending))),
    ]
    if !times.isEmpty { members.append(JSONMember("responseTimes", Self.responseTimes(times))) }
    // Apple's `PerformanceTestResultResponse` always has `failures`: an empty map when none.
    let failed = failures.sorted { $0.key < $1.key }.map {
      JSONMember($0.key, .number(JSONNumber($0.value)))
    }
    members.append(JSONMember("failures", .object(JSONObject(failed))))
    return .object(JSONObject(members))
  }

  /// `PerformanceTestResponseTimes`: average and nearest-rank percentiles, in milliseconds.
  static func responseTimes(_ times: [Int]) -> JSONValue {
    let sorted = times.sorted()
    func percentile(_ p: Int) -> Int {
      sorted[max(0, min(sorted.count - 1, (p * sorted.count + 99) / 100 - 1))]
    }
    let average = sorted.reduce(0, +) / sorted.count
    return .object(
      JSONObject(
        [
          ("average", average), ("p50", percentile(50)), ("p90", percentile(90)),
          ("p95", percentile(95)), ("p99", percentile(99)),
        ].map {
          JSONMember($0.0, .number(JSONNumber($0.1)))
        }))
  }
}
