import Hummingbird

extension ServerRequest {
  /// The request with its whole body: at most ``HTTPServer/bodyLimit`` bytes, arrived within
  /// `timeout`; the query as Hummingbird parsed it (values percent-decoded, every value of a
  /// repeated name in order).
  ///
  /// - Throws: ``BodyRefusal`` when the body is too large or too slow.
  init(_ request: Request, timeout: Duration) async throws {
    var query: [String: [String]] = [:]
    for (name, value) in request.uri.queryParameters {
      query[String(name), default: []].append(String(value))
    }
    self.init(query: query, body: try await Self.body(of: request.body, timeout: timeout))
  }

  /// The whole body, or ``BodyRefusal`` when it is too large or does not arrive in time.
  private static func body(of body: RequestBody, timeout: Duration) async throws -> [UInt8] {
    try await withThrowingTaskGroup(of: [UInt8]?.self) { group in
      group.addTask {
        var bytes: [UInt8] = []
        for try await buffer in body {
          guard bytes.count + buffer.readableBytes <= HTTPServer.bodyLimit else {
            throw BodyRefusal.tooLarge
          }
          bytes += buffer.readableBytesView
        }
        return bytes
      }
      group.addTask {
        try await Task.sleep(for: timeout)
        return nil
      }
      defer { group.cancelAll() }
      guard let first = try await group.next(), let bytes = first else {
        throw BodyRefusal.tooSlow
      }
      return bytes
    }
  }
}
