import StoreJSON

/// What every signed value of one customer's history must say of where it came from, as Apple's
/// `SignedDataVerifier` checks it after the signature: the app's bundle id (a transaction's and a
/// notification's `bundleId`) and the environment (`environment`, a notification's in its
/// `data`). A value is refused naming where it was read; what is not expected is taken from
/// the first value that says it, and every later one must agree (one customer, one app, one
/// environment).
public struct SourceCheck: Sendable, Equatable {
  /// The bundle id every value must name (`--bundle-id`); `nil`: the first value's.
  public var bundleID: String?
  /// The environment every value must name (`--environment`, or the API's host); `nil`: the
  /// first value's.
  public var environment: String?

  /// A check for these; each `nil` is taken from the first value that says it.
  public init(bundleID: String? = nil, environment: String? = nil) {
    self.bundleID = bundleID
    self.environment = environment
  }

  /// The environment an App Store Server API host serves: Apple's production and sandbox hosts
  /// say; any other (a `storekeeper serve`) does not.
  public static func environment(ofAPI url: String) -> String? {
    if url.contains("api.storekit-sandbox.itunes.apple.com") { return "Sandbox" }
    if url.contains("api.storekit.itunes.apple.com") { return "Production" }
    return nil
  }

  /// Checks `payload`, read at `place`.
  ///
  /// - Throws: ``ImportError`` naming the place, the value and what was expected, in the words
  ///   of Apple's verifier (`INVALID_APP_IDENTIFIER`, `INVALID_ENVIRONMENT`).
  public mutating func check(_ payload: JSONObject, place: String) throws(ImportError) {
    let data: JSONObject? = if case .object(let inner)? = payload["data"] { inner } else { nil }
    if case .string(let named)? = payload["bundleId"] ?? data?["bundleId"] {
      if let bundleID, named != bundleID {
        throw ImportError(
          "\(place) is another app's (bundleId \(named), not \(bundleID)): Apple's verifier "
            + "refuses it (INVALID_APP_IDENTIFIER); give that app's --bundle-id, or leave out "
            + "what is not this customer's")
      }
      bundleID = named
    }
    if case .string(let named)? = payload["environment"] ?? data?["environment"] {
      if let environment, named != environment {
        throw ImportError(
          "\(place) is from the \(named) environment, not \(environment): Apple's verifier "
            + "refuses it (INVALID_ENVIRONMENT); import one environment at a time "
            + "(--environment chooses)")
      }
      environment = named
    }
  }
}
