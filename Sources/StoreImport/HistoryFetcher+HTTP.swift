import AsyncHTTPClient
import Foundation
import NIOCore
import NIOHTTP1
import StoreJSON

extension HistoryFetcher {
  /// The most of an answer read (a page of history is far smaller).
  static let answerLimit = 64 << 20

  /// One request's JSON object; Apple's error as words a person can act on.
  func object(
    _ method: String, _ path: String, body: String? = nil, what: String,
    _ history: inout FetchedHistory
  ) async throws(ImportError) -> JSONObject {
    history.requests += 1
    let (status, bytes) = try await send(method, path, body: body, what: what)
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
    _ method: String, _ path: String, body: String?, what: String
  )
    async throws(ImportError) -> (Int, [UInt8])
  {
    let bearer: String
    do {
      bearer = try token()
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
    do {
      let response = try await client.execute(request, timeout: TimeAmount.seconds(60))
      let buffer = try await response.body.collect(upTo: Self.answerLimit)
      return (Int(response.status.code), Array(buffer.readableBytesView))
    } catch {
      throw ImportError("cannot reach \(base) (\(what)): \(Self.words(error))")
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
      if case .string(let text)? = object["errorMessage"] { message = " " + text }
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
      return "no answer in time"
    }
    return text
  }
}
