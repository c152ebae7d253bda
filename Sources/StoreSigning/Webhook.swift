import AsyncHTTPClient
import Foundation
import NIOCore
import NIOHTTP1

/// One endpoint that notifications are POSTed to, over AsyncHTTPClient: HTTP/1.1 or HTTP/2,
/// TLS for `https`, IPv6 literals; no proxies, no redirects. Only the response's status matters:
/// the body is not read.
final class Webhook: Sendable {
  /// How an attempt ended.
  enum Answer: Equatable, CustomStringConvertible {
    /// The server answered with a status.
    case status(Int)
    /// No answer: why.
    case failed(String)

    var description: String {
      switch self {
      case .status(let status): "HTTP \(status)"
      case .failed(let reason): reason
      }
    }
  }

  private let url: String
  private let timeout: Double
  private let client: HTTPClient

  init(url: String, timeout: Double) {
    self.url = url
    self.timeout = timeout
    var configuration = HTTPClient.Configuration(
      redirectConfiguration: .disallow,
      timeout: .init(connect: .seconds(5), read: .milliseconds(Int64(timeout * 1000))))
    configuration.proxy = nil
    configuration.decompression = .disabled
    client = HTTPClient(eventLoopGroupProvider: .singleton, configuration: configuration)
  }

  func shutdown() { try? client.syncShutdown() }

  /// POSTs `body` as JSON and waits for the status line (at most `timeout` seconds).
  func post(_ body: String) -> Answer {
    let request: HTTPClient.Request
    do {
      request = try HTTPClient.Request(
        url: url, method: .POST,
        headers: ["Content-Type": "application/json", "User-Agent": "storekeeper"],
        body: .string(body))
    } catch {
      return .failed("the URL cannot be requested (\(error))")
    }
    let eventLoop = client.eventLoopGroup.next()
    let delegate = StatusDelegate(promise: eventLoop.makePromise(of: Int.self))
    let deadline = NIODeadline.now() + .milliseconds(Int64(timeout * 1000))
    let task = client.execute(
      request: request, delegate: delegate, eventLoop: .delegate(on: eventLoop),
      deadline: deadline)
    task.futureResult.whenComplete { result in
      if case .failure(let error) = result { delegate.fail(error) }
    }
    do {
      let status = try delegate.promise.futureResult.wait()
      task.cancel()  // the body is not needed; a server that never ends it cannot hold us
      return .status(status)
    } catch {
      task.cancel()
      return .failed(Self.reason(error))
    }
  }

  /// Words for an error a person can act on.
  static func reason(_ error: any Error) -> String {
    if let error = error as? HTTPClientError {
      switch error {
      case .connectTimeout: return "no connection (timed out connecting)"
      case .deadlineExceeded, .readTimeout: return "no answer in time"
      case .remoteConnectionClosed: return "the server closed the connection without answering"
      default: return "no answer (\(error))"
      }
    }
    let text = String(describing: error)
    if text.contains("connectionRefused") || text.contains("Connection refused") {
      return "no connection (connection refused)"
    }
    if text.localizedCaseInsensitiveContains("parser") || text.contains("HTTPParserError") {
      return "an invalid HTTP response"
    }
    return "no connection (\(text))"
  }
}

/// Completes its promise with the response's status as soon as the head arrives (or with the
/// request's error). `@unchecked Sendable` because AsyncHTTPClient requires a Sendable
/// delegate: its methods run on the request's event loop, one at a time, so `completed` is
/// never touched from two threads.
private final class StatusDelegate: HTTPClientResponseDelegate, @unchecked Sendable {
  typealias Response = Void
  let promise: EventLoopPromise<Int>
  private var completed = false

  init(promise: EventLoopPromise<Int>) { self.promise = promise }

  func fail(_ error: any Error) {
    promise.futureResult.eventLoop.execute {
      guard !self.completed else { return }
      self.completed = true
      self.promise.fail(error)
    }
  }

  func didReceiveHead(
    task: HTTPClient.Task<Void>, _ head: HTTPResponseHead
  ) -> EventLoopFuture<
    Void
  > {
    if !completed {
      completed = true
      promise.succeed(Int(head.status.code))
    }
    return task.eventLoop.makeSucceededVoidFuture()
  }

  func didReceiveBodyPart(
    task: HTTPClient.Task<Void>, _ buffer: ByteBuffer
  ) -> EventLoopFuture<
    Void
  > {
    task.eventLoop.makeSucceededVoidFuture()
  }

  func didReceiveError(task: HTTPClient.Task<Void>, _ error: any Error) { fail(error) }

  func didFinishRequest(task: HTTPClient.Task<Void>) throws {}
}
