import HTTPTypes
import Hummingbird
import StoreJSON
import StoreSimulation
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

  /// Apple's error object `object` of the App Store Server API, in Apple's words or
  /// `message`; `status` only where Storekeeper answers another (413 for a body too large).
  public init(_ object: AppStoreServerAPIError, status: Int? = nil, message: String? = nil) {
    self.init(object: object, status: status, message: message)
  }

  /// Apple's error object `object` of the Retention Messaging API, in Apple's words or
  /// `message`.
  public init(_ object: RetentionMessagingError, message: String? = nil) {
    self.init(object: object, status: nil, message: message)
  }

  /// Apple's error object of the Advanced Commerce API for an engine rule, in Apple's words or
  /// `message`.
  public init(_ object: CommerceRule, message: String? = nil) {
    self.init(object: object, status: nil, message: message)
  }

  private init(object: some AppleErrorObject, status: Int?, message: String?) {
    self.init(
      status: status ?? object.status, code: object.rawValue,
      message: message ?? object.appleMessage)
  }

  /// `GeneralBadRequestError`.
  public static let generalBadRequest = AppStoreError(.generalBadRequest)
  /// `InvalidTransactionIdError`.
  public static let invalidTransactionID = AppStoreError(.invalidTransactionID)
  /// `TransactionIdNotFoundError`.
  public static let transactionIDNotFound = AppStoreError(.transactionIDNotFound)
  /// A body over the server's limit for its request (1 MB; an image's 32 MB).
  public static func payloadTooLarge(limit: Int) -> AppStoreError {
    AppStoreError(
      .generalBadRequest, status: 413,
      message: "Bad request. The body is larger than \(limit >> 20) MB.")
  }

  /// A request that did not arrive whole in time.
  public static let requestTimeout = AppStoreError(
    .generalBadRequest, status: 408,
    message: "Bad request. The request did not arrive whole in time.")

  // Storekeeper's own answers to HTTP's cases Apple's tables have no object for (a path or
  // method the API does not have, a server that cannot answer now): the status's code.

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

  /// A customer the control endpoint's `?customer=` names and no `customer` line made.
  static func notFound(customer why: String) -> AppStoreError {
    AppStoreError(status: 404, code: 4_040_000, message: "?customer=: \(why)")
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
      .generalInternal, status: 501,
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
