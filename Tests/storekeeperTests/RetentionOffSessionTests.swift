import Foundation
import StoreTestSupport
import Testing

/// Nothing in the session waits on the network: a `retention show` whose developer server hangs
/// lets another customer's change through first, and Apple's performance test against a server
/// that never answers leaves the server's reads as fast as ever.
@Suite(.serialized) struct RetentionOffSessionTests {
  static let setup = """
    buy socialfeed.monthly
    customer ann
    buy socialfeed.monthly
    customer
    """

  func control(_ port: Int, _ body: String, customer: String? = nil) throws -> (Int, String) {
    let path = "/storekeeper/v1/commands" + (customer.map { "?customer=\($0)" } ?? "")
    let answer = try httpRequest(port: port, "POST", path, body: body)
    return (answer.status, answer.body)
  }

  @Test func anotherCustomersChangeDoesNotWaitForAHangingRetentionCall() throws {
    let silent = try WebhookServer(reply: .silence(seconds: 5))
    defer { silent.stop() }
    let server = try ServeProcess(["--paused", "Configs/FoodTruck.storekit"])
    let setup = Self.setup + "\nretention url http://127.0.0.1:\(silent.port)/retention\n"
    #expect(try control(server.port, setup).0 == 200)
    let order = Locked<[String]>([])
    let port = server.port
    let shown = Thread {
      let answer = try? self.control(port, "retention show\n")
      order.change { $0.append("retention show \(answer?.0 ?? 0)") }
    }
    shown.start()
    Thread.sleep(forTimeInterval: 0.15)  // the call is out: the App Store waits 0.7 s for it
    let began = ContinuousClock.now
    let (status, body) = try control(server.port, "auto-renew last off\n", customer: "ann")
    let took = ContinuousClock.now - began
    order.change { $0.append("ann's change \(status)") }
    #expect(body.contains("\"willAutoRenew\":false"), "\(body)")
    #expect(took < .milliseconds(450), "ann's change waited \(took) for the call")
    while order.value.count < 2 { Thread.sleep(forTimeInterval: 0.05) }
    #expect(order.value == ["ann's change 200", "retention show 200"], "\(order.value)")
    #expect(server.stop() == 0)
  }

  @Test func readsStayFastWhileAPerformanceTestWaitsOnASilentServer() throws {
    let silent = try WebhookServer(reply: .silence(seconds: 30))
    defer { silent.stop() }
    let server = try ServeProcess(["--paused", "Configs/FoodTruck.storekit"])
    let setup = Self.setup + "\nretention url http://127.0.0.1:\(silent.port)/retention\n"
    #expect(try control(server.port, setup).0 == 200)
    let started = try httpRequest(
      port: server.port, "POST", "/inApps/v1/messaging/performanceTest",
      body: #"{"originalTransactionId":"0"}"#)
    #expect(started.status == 200, "\(started.body)")
    var slowest: Duration = .zero
    for _ in 0..<20 {
      let began = ContinuousClock.now
      let health = try httpRequest(port: server.port, "GET", "/storekeeper/v1/health")
      slowest = max(slowest, ContinuousClock.now - began)
      #expect(health.status == 200)
      Thread.sleep(forTimeInterval: 0.05)
    }
    #expect(slowest < .seconds(1), "a read waited \(slowest) behind the test's requests")
    #expect(server.stop() == 0)
  }
}
