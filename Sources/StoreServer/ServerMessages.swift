/// A request as the router sees it: method, path, query, headers and the whole body.
public struct ServerRequest: Sendable {
  /// `GET`, `POST` …
  public var method: String
  /// The path without the query, percent-decoded segments left as sent.
  public var path: String
  /// The query's parameters; a repeated name keeps every value in order.
  public var query: [String: [String]]
  /// Header names lowercased.
  public var headers: [String: String]
  /// The body.
  public var body: [UInt8]

  /// A request.
  public init(
    method: String, path: String, query: [String: [String]] = [:], headers: [String: String] = [:],
    body: [UInt8] = []
  ) {
    self.method = method
    self.path = path
    self.query = query
    self.headers = headers
    self.body = body
  }

  /// A request from its target (`/path?name=value&…`).
  init(method: String, target: String, headers: [String: String], body: [UInt8]) {
    let parts = target.split(separator: "?", maxSplits: 1, omittingEmptySubsequences: false)
    var query: [String: [String]] = [:]
    if parts.count == 2 {
      for pair in parts[1].split(separator: "&") {
        let nameValue = pair.split(separator: "=", maxSplits: 1, omittingEmptySubsequences: false)
        let name = Self.decode(nameValue[0])
        query[name, default: []].append(nameValue.count == 2 ? Self.decode(nameValue[1]) : "")
      }
    }
    self.init(method: method, path: String(parts[0]), query: query, headers: headers, body: body)
  }

  /// `%41` and `+` decoded; a malformed escape is kept as written.
  private static func decode(_ text: Substring) -> String {
    var bytes: [UInt8] = []
    var index = text.utf8.startIndex
    let utf8 = text.utf8
    while index < utf8.endIndex {
      let byte = utf8[index]
      if byte == UInt8(ascii: "%"), utf8.distance(from: index, to: utf8.endIndex) >= 3,
        let value = UInt8(
          String(
            decoding: utf8[utf8.index(after: index)..<utf8.index(index, offsetBy: 3)], as: UTF8.self
          ),
          radix: 16)
      {
        bytes.append(value)
        index = utf8.index(index, offsetBy: 3)
        continue
      }
      bytes.append(byte == UInt8(ascii: "+") ? UInt8(ascii: " ") : byte)
      index = utf8.index(after: index)
    }
    return String(decoding: bytes, as: UTF8.self)
  }
}

/// A response: a status, a content type and a body.
public struct ServerResponse: Sendable, Equatable {
  /// The HTTP status.
  public var status: Int
  /// `application/json` …
  public var contentType: String
  /// The body.
  public var body: [UInt8]
  /// Why, for the request log only (a 401's reason: Apple's answer has no body).
  public var note: String?
  /// Headers besides the content type and length (a 405's `Allow`).
  public var headers: [String: String] = [:]
  /// The rest of the body, when it is sent as it is made (a long control request's answer);
  /// `body` is then empty.
  public var stream: StreamedAnswer?

  /// A response.
  public init(
    status: Int, contentType: String = "application/json", body: [UInt8], note: String? = nil
  ) {
    self.status = status
    self.contentType = contentType
    self.body = body
    self.note = note
  }
}
