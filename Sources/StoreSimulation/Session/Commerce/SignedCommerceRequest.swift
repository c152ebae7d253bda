/// An Advanced Commerce in-app request as the app hands it to StoreKit: the compact JWS the
/// developer's server signed, and what an edge read from its `request` claim (standard base64
/// of the request's JSON) into Apple's typed request. The session verifies the signature (key,
/// bundle, audience, age, nonce) before it takes what was read, and only when it was read from
/// the claim the signature covers. Only the package makes one (StoreCommands'
/// `SignedCommerceRequest(compactJWS:)`), so what was read always comes from the claim it names.
public struct SignedCommerceRequest: Equatable, Sendable {
  /// The compact JWS, as given (what a journal line keeps).
  public let jws: String
  /// The `request` claim the request was read from, as the JWS holds it; empty when it has none.
  public let claim: String
  /// The request the claim holds, or why it is not one of Apple's shape (the JSON path and the
  /// rule), answered once the signature checks out.
  public let request: Result<CommerceInAppRequest, CommerceRefusal>

  /// A signed request and what an edge read from it.
  package init(
    jws: String, claim: String, request: Result<CommerceInAppRequest, CommerceRefusal>
  ) {
    self.jws = jws
    self.claim = claim
    self.request = request
  }
}
