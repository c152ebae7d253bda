import ArgumentParser
import Foundation
import StoreTestSupport
import StoreUtilities

/// `storekeeper serve` while one customer's real-time call hangs: the session's own customer
/// opens their subscription page (`retention show`) again and again against a developer server
/// that takes the request and never answers (Apple waits for it, then shows the default), while
/// another customer's App Store Server API changes (Set App Account Token) and reads (Get All
/// Subscription Statuses) go on, one after another, each timed over a fresh connection to its
/// whole answer.
struct HangingCallBenchmark: ParsableCommand {
  static let configuration = CommandConfiguration(
    commandName: "serve-hang",
    abstract: "Time another customer's requests while one customer's real-time call hangs.")

  @Option(help: "How many change-and-read pairs the other customer sends.")
  var pairs = 500

  @Option(help: "How long the other customer waits between pairs, in milliseconds.")
  var pause = 10

  @Option(help: "The storekeeper binary.")
  var binary = ".build/release/storekeeper"

  func run() throws {
    let silent = try WebhookServer(reply: .silence(seconds: 600))
    defer { silent.stop() }
    let server = try ServedProcess(binary: binary, ["Configs/FoodTruck.storekit"])
    defer { withExtendedLifetime(server) {} }
    let port = server.port
    let setup = """
      buy socialfeed.monthly
      customer ann
      buy socialfeed.monthly
      customer
      retention url http://127.0.0.1:\(silent.port)/retention

      """
    let answer = try Self.timed(port, "POST", "/storekeeper/v1/commands", setup).text
    // Ann's purchase is the last one the setup made.
    guard
      let ann = answer.split(separator: "\n").compactMap({ line -> Int? in
        let object = try? JSONSerialization.jsonObject(with: Data(line.utf8)) as? [String: Any]
        return object?["event"] as? String == "purchaseResult"
          ? object?["transactionID"] as? Int : nil
      }).last
    else { throw ValidationError("the setup bought nothing: \(answer)") }
    // The hanging calls' durations, and whether to stop making them.
    let hanging = StoreUtilities.Locked((durations: [Double](), done: false))
    let caller = Thread {
      while !hanging.value.done {
        let took = try? Self.timed(port, "POST", "/storekeeper/v1/commands", "retention show\n")
        hanging.withLock { $0.durations.append(took?.milliseconds ?? -1) }
      }
    }
    caller.start()
    Thread.sleep(forTimeInterval: 0.2)
    var (writes, reads) = ([Double](), [Double]())
    for index in 0..<pairs {
      let token = String(format: "5f1c0a1e-0000-4000-8000-%012d", index)
      writes.append(
        try Self.timed(
          port, "PUT", "/inApps/v1/transactions/\(ann)/appAccountToken",
          #"{"appAccountToken":"\#(token)"}"#
        ).milliseconds)
      reads.append(try Self.timed(port, "GET", "/inApps/v1/subscriptions/\(ann)").milliseconds)
      Thread.sleep(forTimeInterval: Double(pause) / 1000)
    }
    hanging.withLock { $0.done = true }
    let shows = hanging.value.durations
    print(
      """
      serve-hang: \(pairs) changes and \(pairs) reads for ann while the own customer's \
      retention show hung \(shows.count) times (median \(Self.format(shows, 0.5)))
        ann's changes: p50 \(Self.format(writes, 0.5)), p99 \(Self.format(writes, 0.99)), \
      max \(Self.format(writes, 1))
        ann's reads:   p50 \(Self.format(reads, 0.5)), p99 \(Self.format(reads, 0.99)), \
      max \(Self.format(reads, 1))
      """)
  }

  /// One request over a fresh connection: its time in milliseconds and its answer; anything but
  /// 200 is an error.
  static func timed(
    _ port: Int, _ method: String, _ path: String, _ body: String = ""
  ) throws -> (milliseconds: Double, text: String) {
    let sent = ContinuousClock.now
    let answer = try httpRequest(port: port, method, path, body: body, receiveTimeout: 60)
    guard answer.status == 200 else {
      throw ValidationError("\(method) \(path): \(answer.status) \(answer.body)")
    }
    return ((ContinuousClock.now - sent).seconds * 1000, answer.body)
  }

  /// The value at `fraction` of `values` in order, in milliseconds.
  static func format(_ values: [Double], _ fraction: Double) -> String {
    let sorted = values.sorted()
    guard !sorted.isEmpty else { return "-" }
    let index = min(
      sorted.count - 1, max(0, Int((Double(sorted.count) * fraction).rounded(.up)) - 1))
    return String(format: "%.1f ms", sorted[index])
  }
}
