import StoreJSON
import StoreSimulation

extension SignedCommerceRequest {
  /// The request a compact JWS carries, read from its `request` claim into Apple's typed
  /// request; not verified (the session checks the signature before it takes the request).
  /// A JWS that holds no request claim is read as one the session refuses: its signature first.
  public init(compactJWS: String) {
    let parts = compactJWS.trimmingCharacters(in: .whitespacesAndNewlines)
      .split(separator: ".", omittingEmptySubsequences: false)
    guard parts.count == 3, let bytes = Base64URL.decode(parts[1]),
      case .object(let claims)? = try? JSONParser.parse(bytes).root,
      case .string(let claim)? = claims["request"]
    else {
      self.init(
        jws: compactJWS, claim: "",
        request: .failure(CommerceRefusal(.malformedPayload, "the JWS has no request claim")))
      return
    }
    let request = Result { () throws(CommerceRefusal) in try CommerceInAppRequest(base64: claim) }
    self.init(jws: compactJWS, claim: claim, request: request)
  }
}
