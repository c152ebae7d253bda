import Foundation
import StoreJSON
import StoreSimulation

/// Apple's performance test of a Get Retention Message endpoint (Initiate Performance Test):
/// ``Config/totalRequests`` signed requests sent to the URL, never more than
/// ``Config/maxConcurrentRequests`` at once, each timed; the result judged against the config's
/// thresholds. `@unchecked Sendable`: its tallies are read and written under `lock`.
public final class PerformanceTest: @unchecked Sendable {
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

  /// The test's `requestId`.
  public let requestID: String
  /// Its parameters.
  public let config: Config
  /// The URL tested.
  public let target: String

  private let lock = NSLock()
  private var times: [Int] = []
  private var successes = 0
  private var failures: [String: Int] = [:]
  private var finished = 0
  private var inFlight = 0
  private var mostInFlight = 0

  /// Starts a test of `request`'s URL, signing each request at `now`, on threads of its own.
  public init(
    request: RetentionRequest, at now: Instant, config: Config, caller: RealtimeRetention
  ) {
    requestID = UUID().uuidString.lowercased()
    self.config = config
    target = request.url ?? ""
    let slots = DispatchSemaphore(value: max(1, config.maxConcurrentRequests))
    let queue = DispatchQueue(label: "storekeeper.performance-test", attributes: .concurrent)
    let total = config.totalRequests
    Thread.detachNewThread { [self] in
      for _ in 0..<total {
        slots.wait()
        queue.async {
          self.send(request, at: now, caller: caller)
          slots.signal()
        }
      }
    }
  }

  private func send(_ request: RetentionRequest, at now: Instant, caller: RealtimeRetention) {
    record {
      $0.inFlight += 1; $0.mostInFlight = max($0.mostInFlight, $0.inFlight)
    }
    let id = UUID().uuidString.lowercased()
    let body = try? caller.body(for: request, at: now, requestID: id)
    let (outcome, seconds) =
      body.map { caller.post($0, to: target) }
      ?? (.failed(result: "OTHER", reason: "not signed"), 0)
    let milliseconds = Int((seconds * 1000).rounded())
    record { test in
      test.inFlight -= 1
      test.finished += 1
      switch outcome {
      case .answered(let status, let text):
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
  }

  private func record(_ change: (PerformanceTest) -> Void) {
    lock.lock()
    change(self)
    lock.unlock()
  }

  /// Whether every request has been answered (or given up on).
  public var isFinished: Bool {
    lock.lock()
    defer { lock.unlock() }
    return finished == config.totalRequests
  }

  /// The most requests that were in flight at once.
  public var peakConcurrency: Int {
    lock.lock()
    defer { lock.unlock() }
    return mostInFlight
  }

  /// `PerformanceTestResultResponse`: `PENDING` while requests are out, then `PASS` or `FAIL`
  /// (a success rate at or above the threshold; a late answer is a `TIMED_OUT` failure).
  public var result: JSONValue {
    lock.lock()
    defer { lock.unlock() }
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
