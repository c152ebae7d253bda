/// How one attempt to send a notification ended, in Apple's words (`sendAttemptResult` of "Get
/// Notification History" and "Get Test Notification Status").
public enum SendAttemptResult: String, Sendable, CaseIterable {
  /// The server answered 200–206.
  case success = "SUCCESS"
  /// No answer in time.
  case timedOut = "TIMED_OUT"
  /// The TLS handshake failed (an untrusted or wrong certificate …).
  case tlsIssue = "TLS_ISSUE"
  /// Redirects went round in a circle (or too far).
  case circularRedirect = "CIRCULAR_REDIRECT"
  /// Nothing answered.
  case noResponse = "NO_RESPONSE"
  /// The connection could not be made or broke.
  case socketIssue = "SOCKET_ISSUE"
  /// The answer's character set is not supported.
  case unsupportedCharset = "UNSUPPORTED_CHARSET"
  /// The answer was not HTTP.
  case invalidResponse = "INVALID_RESPONSE"
  /// The server closed the connection before answering.
  case prematureClose = "PREMATURE_CLOSE"
  /// The server answered with another status.
  case unsuccessfulHTTPResponseCode = "UNSUCCESSFUL_HTTP_RESPONSE_CODE"
  /// Anything else.
  case other = "OTHER"
}
