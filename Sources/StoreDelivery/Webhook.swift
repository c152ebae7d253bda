import AsyncHTTPClient
import Foundation
import NIOCore
import NIOHTTP1
import NIOSSL
import StoreUtilities

/// One endpoint that notifications are POSTed to, over AsyncHTTPClient: HTTP/1.1 or HTTP/2,
/// TLS for `https` (trusting the system's roots and, when given, a local CA), IPv6 literals,
/// redirects followed with the same method and body (at most five, never in a circle: Apple's
/// `CIRCULAR_REDIRECT`); no proxies. Only the response's status matters: the body is not read.
final class Webhook: Sendable {
  /// How an attempt ended.
  enum Answer: Equatable, CustomStringConvertible {
    /// The server answered with a status.
    case status(Int)
    /// No answer: why, and Apple's name for it.
    case failed(String, SendAttemptResult)

    var description: String {
      switch self {
      case .status(let status): "HTTP \(status)"
      case .failed(let reason, _): reason
      }
    }

    /// Apple's name for the outcome: success is 200–206, as Apple counts it.
    var result: SendAttemptResult {
      switch self {
      case .status(let status):
        (200...206).contains(status) ? .success : .unsuccessfulHTTPResponseCode
      case .failed(_, let result): result
      }
    }
  }

  private let url: String
  private let timeout: Double
  private let client: HTTPClient

  /// - Parameter trusting: a PEM file of CA certificates trusted besides the system's (a local
  ///   CA for an `https` test server).
  /// - Throws: ``DeliveryError`` naming the file when it holds no certificate.
  init(url: String, timeout: Double, trusting caFile: String? = nil) throws(DeliveryError) {
    self.url = url
    self.timeout = timeout
    // Redirects are followed here, not by the client, which would turn a POST answered 301, 302
    // or 303 into a GET without the body.
    var configuration = HTTPClient.Configuration(
      redirectConfiguration: .disallow,
      timeout: .init(connect: .seconds(5), read: .milliseconds(Int64(timeout * 1000))))
    configuration.proxy = nil
    configuration.decompression = .disabled
    if let caFile { configuration.tlsConfiguration = try Self.tls(trusting: caFile) }
    client = HTTPClient(eventLoopGroupProvider: .singleton, configuration: configuration)
  }

  /// TLS trusting the system's roots and the CA certificates of `caFile` (`--notify-ca`).
  ///
  /// - Throws: ``DeliveryError`` naming the file when it is not a PEM file of certificates.
  static func tls(trusting caFile: String) throws(DeliveryError) -> TLSConfiguration {
    let certificates: [NIOSSLCertificate]
    do {
      certificates = try NIOSSLCertificate.fromPEMFile(caFile)
    } catch {
      throw DeliveryError("--notify-ca \(caFile): not a PEM file of certificates (\(error))")
    }
    guard !certificates.isEmpty else {
      throw DeliveryError("--notify-ca \(caFile): the file holds no PEM certificate")
    }
    var tls = TLSConfiguration.makeClientConfiguration()
    tls.additionalTrustRoots = [.certificates(certificates)]
    return tls
  }

  /// Lets the client go without waiting: the last owner may let go on the client's own loop.
  func shutdown() { client.shutdown(queue: .global()) { _ in } }

  /// The most redirects an attempt follows.
  static let redirectLimit = 5

  /// POSTs `body` as JSON; `completion` hears the status line's answer (at most `timeout`
  /// seconds later), on one of the client's threads. A redirect (301, 302, 303, 307, 308 with a
  /// `Location`) is POSTed again, body and all, to where it leads.
  func post(_ body: String, completion: @escaping @Sendable (Answer) -> Void) {
    post(
      body, to: url, visited: [], deadline: .now() + .milliseconds(Int64(timeout * 1000)),
      completion: completion)
  }

  private func post(
    _ body: String, to target: String, visited: [String], deadline: NIODeadline,
    completion: @escaping @Sendable (Answer) -> Void
  ) {
    let request: HTTPClient.Request
    do {
      request = try HTTPClient.Request(
        url: target, method: .POST,
        headers: ["Content-Type": "application/json", "User-Agent": "storekeeper"],
        body: .string(body))
    } catch {
      completion(.failed("the URL cannot be requested (\(error))", .other))
      return
    }
    let eventLoop = client.eventLoopGroup.next()
    let delegate = StatusDelegate(promise: eventLoop.makePromise(of: (Int, String?).self))
    let task = client.execute(
      request: request, delegate: delegate, eventLoop: .delegate(on: eventLoop),
      deadline: deadline)
    task.futureResult.whenComplete { result in
      if case .failure(let error) = result { delegate.fail(error) }
    }
    delegate.promise.futureResult.whenComplete { result in
      task.cancel()  // the body is not needed; a server that never ends it cannot hold us
      switch result {
      case .success(let (status, location)):
        guard [301, 302, 303, 307, 308].contains(status), let location,
          let next = URL(string: location, relativeTo: URL(string: target))?.absoluteString
        else { return completion(.status(status)) }
        let seen = visited + [target]
        if seen.contains(next) {
          return completion(.failed("the redirects go round in a circle", .circularRedirect))
        }
        guard seen.count <= Self.redirectLimit else {
          return completion(.failed("more than five redirects", .circularRedirect))
        }
        self.post(body, to: next, visited: seen, deadline: deadline, completion: completion)
      case .failure(let error): completion(.failed(Self.reason(error), Self.result(error)))
      }
    }
  }

  /// Words for an error a person can act on.
  static func reason(_ error: any Error) -> String {
    if let error = error as? HTTPClientError {
      switch error {
      case .connectTimeout: return "no connection (timed out connecting)"
      case .deadlineExceeded, .readTimeout: return "no answer in time"
      case .remoteConnectionClosed: return "the server closed the connection without answering"
      case .redirectCycleDetected: return "the redirects go round in a circle"
      case .redirectLimitReached: return "more than five redirects"
      default: return "no answer (\(error))"
      }
    }
    let text = String(describing: error)
    if text.contains("connectionRefused") || text.contains("Connection refused") {
      return "no connection (connection refused)"
    }
    if error is HTTPParserError {
      return "an invalid HTTP response (\(text))"
    }
    if isTLS(error) {
      if text.contains("CERTIFICATE_VERIFY_FAILED") {
        return "TLS failed: the server's certificate is not trusted"
          + " (give the CA that issued it with --notify-ca FILE)"
      }
      return "TLS failed (\(text))"
    }
    return "no connection (\(text))"
  }

  /// Apple's name for an error.
  static func result(_ error: any Error) -> SendAttemptResult {
    if let error = error as? HTTPClientError {
      switch error {
      case .connectTimeout, .deadlineExceeded, .readTimeout: return .timedOut
      case .remoteConnectionClosed: return .prematureClose
      case .redirectCycleDetected, .redirectLimitReached: return .circularRedirect
      default: break
      }
    }
    if isTLS(error) { return .tlsIssue }
    // Not HTTP, a status line cut short, headers past the parser's limit.
    if error is HTTPParserError { return .invalidResponse }
    let text = String(describing: error)
    if text.contains("connectionRefused") || text.contains("Connection refused")
      || error is IOError
    {
      return .socketIssue
    }
    return .other
  }

  private static func isTLS(_ error: any Error) -> Bool {
    error is NIOSSLError || error is BoringSSLError
      || String(describing: error).contains("handshakeFailed")
  }
}

/// Completes its promise with the response's status and `Location` as soon as the head arrives
/// (or with the request's error), once: the first of the two wins.
private final class StatusDelegate: HTTPClientResponseDelegate, Sendable {
  typealias Response = Void
  let promise: EventLoopPromise<(Int, String?)>
  private let completed = Locked(false)

  init(promise: EventLoopPromise<(Int, String?)>) { self.promise = promise }

  /// Whether this is the first completion (and so the one told).
  private func completes() -> Bool {
    completed.withLock { completed in
      defer { completed = true }
      return !completed
    }
  }

  func fail(_ error: any Error) {
    if completes() { promise.fail(error) }
  }

  func didReceiveHead(
    task: HTTPClient.Task<Void>, _ head: HTTPResponseHead
  ) -> EventLoopFuture<Void> {
    if completes() {
      promise.succeed((Int(head.status.code), head.headers.first(name: "Location")))
    }
    return task.eventLoop.makeSucceededVoidFuture()
  }

  func didReceiveBodyPart(
    task: HTTPClient.Task<Void>, _ buffer: ByteBuffer
  ) -> EventLoopFuture<Void> {
    task.eventLoop.makeSucceededVoidFuture()
  }

  func didReceiveError(task: HTTPClient.Task<Void>, _ error: any Error) { fail(error) }

  func didFinishRequest(task: HTTPClient.Task<Void>) throws {}
}
