/// What a controller reads of a request once it arrived whole: its query and its body.
struct ServerRequest: Sendable {
  /// The query's parameters, values percent-decoded; a repeated name keeps every value in
  /// order.
  var query: [String: [String]]
  /// The body, read whole (at most ``HTTPServer/bodyLimit`` bytes).
  var body: [UInt8]
}

/// A response: a status, a content type and a body.
public struct ServerResponse: Sendable, Equatable {
  /// The HTTP status.
  public var status: Int
  /// `application/json` …
  public var contentType: String
  /// The body, empty when ``stream`` carries it.
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
