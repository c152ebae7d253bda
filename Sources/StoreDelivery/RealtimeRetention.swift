import AsyncHTTPClient
import Foundation
import NIOCore
import NIOSSL
import StoreCommands
import StoreJSON
import StoreSigning
import StoreSimulation

/// The App Store's side of a Get Retention Message call: the request signed as `serve` signs
/// everything (`DecodedRealtimeRequestBody` in `{"signedPayload": …}`), POSTed to the
/// developer's URL, the answer read within Apple's wait (about 700 ms), never longer, and never
/// more of it than ``RealtimeExchange/maximumBody``. Awaited off the session (the session never
/// waits on the network): a refused connection is an answer at once, not a wait.
public final class RealtimeRetention: RetentionCaller, Sendable {
  private let signer: OnDemand<Signer>
  private let client: HTTPClient
  /// How long the App Store waits for an answer, in seconds.
  public let timeout: Double
  /// The bundle id offer signatures are checked for.
  public let bundleID: String?

  /// Apple documents "approximately 700 ms" for the sandbox's performance test.
  public static let appleWait = 0.7
  /// The most of an answer read.
  static let bodyLimit = RealtimeExchange.maximumBody

  /// A caller signing with `signer` (made when the first request is signed).
  ///
  /// - Parameter caFile: a PEM file of CA certificates trusted besides the system's (a local CA
  ///   for an `https` test endpoint, `--notify-ca`).
  /// - Throws: ``DeliveryError`` naming the file when it holds no certificate.
  public init(
    signer: OnDemand<Signer>, bundleID: String? = nil, timeout: Double = appleWait,
    trusting caFile: String? = nil
  ) throws(DeliveryError) {
    self.signer = signer
    self.bundleID = bundleID
    self.timeout = timeout
    var configuration = HTTPClient.Configuration(
      redirectConfiguration: .disallow,
      timeout: .init(connect: .milliseconds(Int64(timeout * 1000)), read: nil))
    configuration.proxy = nil
    // A refused connection is the answer: the App Store shows the default message at once
    // rather than retrying until its wait ends.
    configuration.connectionPool.retryConnectionEstablishment = false
    if let caFile { configuration.tlsConfiguration = try Webhook.tls(trusting: caFile) }
    client = HTTPClient(eventLoopGroupProvider: .singleton, configuration: configuration)
  }

  deinit { client.shutdown(queue: .global()) { _ in } }

  /// The signed request body for `request`, signed at `now`, with a new request identifier.
  public func body(
    for request: RetentionRequest, at now: Instant, requestID: String
  ) throws
    -> String
  {
    let signer = try signer.value
    let payload = JSONValue.object(
      JSONObject([
        JSONMember("originalTransactionId", .string(String(request.originalTransactionID))),
        JSONMember("appAppleId", .number(JSONNumber(Self.appAppleID(signer.bundleID)))),
        JSONMember("productId", .string(request.productID)),
        JSONMember("userLocale", .string(request.userLocale)),
        JSONMember("requestIdentifier", .string(requestID)),
        JSONMember("signedDate", .number(JSONNumber(text: String(now.milliseconds)))),
        JSONMember("environment", .string(signer.environment.rawValue)),
      ]))
    let signed = try signer.sign(payload: payload)
    return JSONWriter.compact(.object(JSONObject([JSONMember("signedPayload", .string(signed))])))
  }

  /// The `appAppleId` a test app's requests carry: the test environments have no App Store app,
  /// so a stable number made from the bundle id (Apple's model requires the key).
  public static func appAppleID(_ bundleID: String) -> Int {
    let hash = bundleID.utf8.reduce(UInt64(1_469_598_103_934_665_603)) {
      ($0 ^ UInt64($1)) &* 1_099_511_628_211
    }
    return 1_000_000_000 + Int(hash % 8_999_999_999)
  }

  /// Signs the request at `now` with a new identifier, POSTs it and returns how it went; a
  /// failure (no answer in time, a refused connection) is an outcome, never thrown.
  public func exchange(for request: RetentionRequest, at now: Instant) async -> RealtimeExchange {
    let requestID = UUID().uuidString.lowercased()
    guard let url = request.url else {
      return RealtimeExchange(
        requestID: requestID, outcome: .failed(result: "OTHER", reason: "no URL"),
        bundleID: bundleID)
    }
    let outcome: RealtimeExchange.Outcome
    do {
      outcome = await post(try body(for: request, at: now, requestID: requestID), to: url).outcome
    } catch {
      outcome = .failed(result: "OTHER", reason: "the request could not be signed (\(error))")
    }
    return RealtimeExchange(requestID: requestID, outcome: outcome, bundleID: bundleID)
  }

  /// POSTs `body` and reads the answer, at most ``timeout`` seconds and ``bodyLimit`` bytes (the
  /// rest is never read: the connection is dropped); how long it took.
  func post(
    _ body: String, to url: String
  ) async -> (outcome: RealtimeExchange.Outcome, seconds: Double) {
    let started = ContinuousClock.now
    var request = HTTPClientRequest(url: url)
    request.method = .POST
    request.headers.add(name: "Content-Type", value: "application/json")
    request.headers.add(name: "User-Agent", value: "storekeeper")
    request.body = .bytes(ByteBuffer(string: body))
    let outcome: RealtimeExchange.Outcome
    do {
      let deadline = NIODeadline.now() + .milliseconds(Int64(timeout * 1000))
      let response = try await client.execute(request, deadline: deadline)
      var collected = ByteBuffer()
      for try await var chunk in response.body {
        let room = Self.bodyLimit - collected.readableBytes
        guard chunk.readableBytes < room else {
          if var last = chunk.readSlice(length: room) { collected.writeBuffer(&last) }
          break  // the rest is never read: no valid answer is that long
        }
        collected.writeBuffer(&chunk)
      }
      let text = collected.readString(length: collected.readableBytes) ?? ""
      outcome = .answered(status: Int(response.status.code), body: text)
    } catch {
      outcome = .failed(result: Webhook.result(error).rawValue, reason: Webhook.reason(error))
    }
    let elapsed = ContinuousClock.now - started
    let seconds = Double(elapsed.components.seconds) + Double(elapsed.components.attoseconds) / 1e18
    return (outcome, seconds)
  }
}
