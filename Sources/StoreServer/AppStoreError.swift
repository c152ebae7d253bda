import HTTPTypes
import Hummingbird
import StoreJSON
import StoreUtilities

/// An App Store Server API error: the HTTP status and Apple's body, `{"errorCode": N,
/// "errorMessage": "…"}` (Apple's "Error codes"; the reference client reads the body only when
/// the content type is exactly `application/json`).
public struct AppStoreError: Error, Equatable, Sendable {
  /// The HTTP status code.
  public var statusCode: Int
  /// Apple's error code.
  public var code: Int
  /// Apple's message.
  public var message: String
  /// The methods a 405's `Allow` header names.
  public var allow: [String] = []

  /// An error.
  public init(status: Int, code: Int, message: String, allow: [String] = []) {
    self.statusCode = status
    self.code = code
    self.message = message
    self.allow = allow
  }

  /// `GeneralBadRequestError`.
  public static let generalBadRequest = AppStoreError(
    status: 400, code: 4_000_000, message: "Bad request.")
  /// `InvalidTransactionIdError`.
  public static let invalidTransactionID = AppStoreError(
    status: 400, code: 4_000_006, message: "Invalid transaction id.")
  /// `TransactionIdNotFoundError`.
  public static let transactionIDNotFound = AppStoreError(
    status: 404, code: 4_040_010, message: "Transaction id not found.")
  /// A body over the server's limit for its request (1 MB; an image's 32 MB).
  public static func payloadTooLarge(limit: Int) -> AppStoreError {
    AppStoreError(
      status: 413, code: 4_000_000,
      message: "Bad request. The body is larger than \(limit >> 20) MB.")
  }

  /// A request that did not arrive whole in time.
  public static let requestTimeout = AppStoreError(
    status: 408, code: 4_000_000, message: "Bad request. The request did not arrive whole in time.")

  /// A service that cannot answer now, and why.
  static func unavailable(_ why: String) -> AppStoreError {
    AppStoreError(status: 503, code: 5_030_000, message: "Service unavailable: \(why). Try again.")
  }

  /// A path or method the App Store Server API does not have.
  static func notFound(_ method: String, _ path: String) -> AppStoreError {
    AppStoreError(
      status: 404, code: 4_040_000,
      message: "Not found. The App Store Server API has no \(method) \(echo(path)).")
  }

  /// A path as an answer repeats it: its first 200 characters (a 64 KB path is not echoed back
  /// whole).
  static func echo(_ path: String) -> String { path.cutForEcho(to: 200) }

  /// A path the API has, asked with another method: 405 with `Allow`.
  static func methodNotAllowed(
    _ method: String, _ path: String, allowed: [String]
  )
    -> AppStoreError
  {
    var seen = Set<String>()
    let methods = allowed.filter { seen.insert($0).inserted }
    return AppStoreError(
      status: 405, code: 4_050_000,
      message:
        "Method not allowed. \(echo(path)) takes \(methods.joined(separator: " or ")), not \(method).",
      allow: methods)
  }

  /// An endpoint Apple documents that Storekeeper does not simulate.
  static func notSimulated(_ what: String) -> AppStoreError {
    AppStoreError(
      status: 501, code: 5_000_000,
      message: "Storekeeper does not simulate \(what); the App Store answers it.")
  }

  /// The error as a response with Apple's body.
  public var response: ServerResponse {
    let body = JSONValue.object(
      JSONObject([
        JSONMember("errorCode", .number(JSONNumber(code))),
        JSONMember("errorMessage", .string(message)),
      ]))
    var response = ServerResponse(status: statusCode, body: Array(JSONWriter.compact(body).utf8))
    if !allow.isEmpty { response.headers["Allow"] = allow.joined(separator: ", ") }
    return response
  }
}

extension AppStoreError: HTTPResponseError {
  /// The HTTP status, for Hummingbird.
  public var status: HTTPResponse.Status { .init(code: statusCode) }

  /// Apple's body, as a controller or middleware that throws the error answers.
  public func response(from request: Request, context: some RequestContext) throws -> Response {
    Response(response, closing: false)
  }
}
