import AsyncHTTPClient
import Foundation
import NIOCore
import NIOHTTP1
import StoreJSON

extension HistoryFetcher {
  /// The most of one answer read (a page of history is far smaller).
  static let answerLimit = 64 << 20
  /// The longest one request may take (within the whole read's deadline).
  static let requestTimeout = Duration.seconds(60)

  /// One request's JSON object; Apple's error as words a person can act on.
  func object(
    _ method: String, _ path: String, body: String? = nil, what: String,
    _ history: inout FetchedHistory
  ) async throws(ImportError) -> JSONObject {
    history.requests += 1
    let limit = min(Self.answerLimit, Self.byteLimit - history.bytesRead)
    guard limit > 0 else {
      throw ImportError(
        "the server's answers passed \(Self.byteLimit >> 20) MB in all before \(what) was "
          + "read: no customer's history is that large")
    }
    let deadline = min(
      history.deadline ?? .now + timeout, ContinuousClock.now + Self.requestTimeout)
    let (status, bytes) = try await send(
      method, path, body: body, what: what, limit: limit, deadline: deadline)
    history.bytesRead += bytes.count
    let parsed = try? JSONParser.parse(bytes).root
    guard (200...299).contains(status) else {
      throw Self.refusal(status, parsed, what: what)
    }
    guard case .object(let object)? = parsed else {
      throw ImportError("\(what) answered HTTP \(status) without a JSON object")
    }
    return object
  }

  private func send(
    _ method: String, _ path: String, body: String?, what: String, limit: Int,
    deadline: ContinuousClock.Instant
  )
    async throws(ImportError) -> (Int, [UInt8])
  {
    let bearer: String
    do {
      bearer = try token()  // a fresh token for each request
    } catch {
      throw ImportError("cannot make the API token: \(error)")
    }
    var request = HTTPClientRequest(url: base + path)
    request.method = HTTPMethod(rawValue: method)
    request.headers.add(name: "Authorization", value: "Bearer \(bearer)")
    request.headers.add(name: "User-Agent", value: "storekeeper-import")
    if let body {
      request.headers.add(name: "Content-Type", value: "application/json")
      request.body = HTTPClientRequest.Body.bytes(ByteBuffer(string: body))
    }
    let watch = watchWaiting(for: what)
    defer { watch.cancel() }
    let left = deadline - .now
    let nioDeadline =
      NIODeadline.now()
      + .nanoseconds(
        max(
          0, left.components.seconds * 1_000_000_000 + left.components.attoseconds / 1_000_000_000))
    do {
      let response = try await client.execute(request, deadline: nioDeadline)
      let buffer = try await response.body.collect(upTo: limit)
      return (Int(response.status.code), Array(buffer.readableBytesView))
    } catch is NIOTooManyBytesError {
      throw ImportError(
        "\(what) answered more than \(limit >> 20) MB: no page of a customer's history is that "
          + "large")
    } catch {
      throw ImportError("cannot reach \(base) (\(what)): \(Self.words(error))")
    }
  }

  /// Says what the read waits for when a request keeps it waiting (after 3 s, then every 10 s).
  private func watchWaiting(for what: String) -> Task<Void, Never> {
    let (base, waiting) = (self.base, self.waiting)
    return Task {
      var waited = 3
      try? await Task.sleep(for: .seconds(3))
      while !Task.isCancelled {
        waiting("waiting for \(what) from \(base) (\(waited) s)")
        try? await Task.sleep(for: .seconds(10))
        waited += 10
      }
    }
  }

  /// Apple's error body as words: the code and what it means for an import.
  static func refusal(_ status: Int, _ body: JSONValue?, what: String) -> ImportError {
    if status == 401 {
      return ImportError(
        "\(what): the server refused the token (HTTP 401): check --api-key, --key-id, "
          + "--issuer-id and --bundle-id")
    }
    var code: Int?
    var message = ""
    if case .object(let object)? = body {
      if case .number(let number)? = object["errorCode"] { code = Int(number.text) }
      // A server's message, cut: it is told on one line.
      if case .string(let text)? = object["errorMessage"] {
        message = " " + (text.count > 200 ? text.prefix(200) + "…" : text)
      }
    }
    if code == 4_040_010 {
      return ImportError(
        "the App Store knows no transaction with that id (4040010 TransactionIdNotFoundError)",
        appleCode: code)
    }
    let named = code.map { " \($0)" } ?? ""
    return ImportError("\(what) answered HTTP \(status)\(named):\(message)", appleCode: code)
  }

  private static func words(_ error: any Error) -> String {
    let text = String(describing: error)
    if text.contains("connectionRefused") || text.contains("Connection refused") {
      return "connection refused"
    }
    if let error = error as? HTTPClientError, error == .deadlineExceeded || error == .readTimeout {
      return "no answer within \(requestTimeout.components.seconds) s (or the import's --timeout)"
    }
    return text
  }
}
