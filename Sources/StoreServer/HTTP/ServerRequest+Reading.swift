import Hummingbird

extension ServerRequest {
  /// The request as ``BodyMiddleware`` handed it on (its body read whole); the query as
  /// Hummingbird parsed it (values percent-decoded, every value of a repeated name in order).
  init(_ request: Request) async throws {
    var query: [String: [String]] = [:]
    for (name, value) in request.uri.queryParameters {
      query[String(name), default: []].append(String(value))
    }
    var request = request
    let body = try await request.collectBody(upTo: HTTPServer.imageBodyLimit)
    self.init(query: query, body: Array(body.readableBytesView))
  }
}
