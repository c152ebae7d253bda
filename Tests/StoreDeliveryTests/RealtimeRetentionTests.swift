import Foundation
import StoreSigning
import StoreTestSupport
import Testing

@testable import StoreDelivery
@testable import StoreSimulation

/// The App Store's side of a Get Retention Message call: a refused connection is an answer at
/// once, and an answer is read no further than the most a valid one can be.
@Suite struct RealtimeRetentionTests {
  /// A caller that would wait `timeout` seconds for an answer.
  func caller(timeout: Double) throws -> RealtimeRetention {
    let identity = try SigningIdentity.makeSelfSigned()
    return try RealtimeRetention(
      signer: OnDemand { Signer(identity: identity, environment: .xcode) }, timeout: timeout)
  }

  func request(_ url: String) -> RetentionRequest {
    RetentionRequest(
      originalTransactionID: 0, productID: "socialfeed.monthly", userLocale: "en-US", url: url)
  }

  @Test func aRefusedConnectionIsAnAnswerAtOnceNotAWait() async throws {
    let port = refusingPort
    let caller = try caller(timeout: 5)
    let (exchange, waited) = await onOwnThread {
      let started = ContinuousClock.now
      let exchange = await caller.exchange(
        for: request("http://127.0.0.1:\(port)/retention"), at: Instant(milliseconds: 0))
      return (exchange, ContinuousClock.now - started)
    }
    guard case .failed(let result, let reason) = exchange.outcome else {
      Issue.record("\(exchange.outcome)")
      return
    }
    #expect(result == "SOCKET_ISSUE" && reason.contains("refused"), "\(reason)")
    #expect(waited < .seconds(3), "the connection was refused: nothing to wait for (\(waited))")
  }

  @Test func anEndlessAnswerIsReadNoFurtherThanTheLimit() async throws {
    let endpoint = try WebhookServer(reply: .endlessBody)
    defer { endpoint.stop() }
    // A deadline far past the time 16 KB take (the endpoint sends 32 KB at once): what is
    // checked is where the read stops, not how soon (a loaded machine may starve it).
    let caller = try caller(timeout: 30)
    // Timed work on a thread of its own: the test process's pool may be busy with synchronous
    // tests, and a starved read would hit the deadline with a part of the body.
    let exchange = await onOwnThread {
      await caller.exchange(
        for: request("http://127.0.0.1:\(endpoint.port)/retention"), at: Instant(milliseconds: 0))
    }
    guard case .answered(let status, let body, _) = exchange.outcome else {
      Issue.record("\(exchange.outcome)")
      return
    }
    #expect(status == 200)
    #expect(body.utf8.count == RealtimeExchange.maximumBody)
  }
}
