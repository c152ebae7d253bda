import Crypto
import Foundation
import StoreJSON
import StoreSigning
import StoreSimulation

/// Who may call the App Store Server API: a bearer JWT as Apple asks for it ("Generating JSON Web
/// Tokens for API requests"): ES256, header `kid`, claims `iss`, `aud` `appstoreconnect-v1`,
/// `bid`, `exp` at most 60 minutes after `iat` and `iat` not in the future (with a minute of
/// clock skew); a token without `iat` (Apple's own library sends none, so it cannot be
/// required) may not expire more than 60 minutes from now.
public struct APIAuthentication: Sendable {
  /// The key a server accepts tokens from.
  public struct Key: Sendable {
    /// The key's id (the token header's `kid`).
    public var keyID: String
    /// The issuer id (the token's `iss`).
    public var issuerID: String
    /// The public half of the `.p8` key.
    public var publicKey: P256.Signing.PublicKey

    /// A key.
    public init(keyID: String, issuerID: String, publicKey: P256.Signing.PublicKey) {
      self.keyID = keyID
      self.issuerID = issuerID
      self.publicKey = publicKey
    }

    /// The private key in a `.p8` file (App Store Connect's PKCS#8 private key, PEM), to make
    /// tokens with.
    ///
    /// - Throws: ``SigningError`` naming the file when it holds no private key.
    public static func loadPrivate(path: String) throws(SigningError) -> P256.Signing.PrivateKey {
      guard let data = FileManager.default.contents(atPath: path) else {
        throw SigningError("\(path): cannot read the API key file")
      }
      guard
        let key = try? P256.Signing.PrivateKey(
          pemRepresentation: String(decoding: data, as: UTF8.self))
      else {
        throw SigningError(
          "\(path): not a P-256 private key in PEM (an App Store Connect .p8 file)")
      }
      return key
    }

    /// The key in a `.p8` file (App Store Connect's PKCS#8 private key, PEM) or a PEM public key.
    ///
    /// - Throws: ``SigningError`` naming the file when it is neither.
    public static func load(
      path: String, keyID: String, issuerID: String
    ) throws(SigningError)
      -> Key
    {
      guard let data = FileManager.default.contents(atPath: path) else {
        throw SigningError("\(path): cannot read the API key file")
      }
      let text = String(decoding: data, as: UTF8.self)
      if let key = try? P256.Signing.PrivateKey(pemRepresentation: text) {
        return Key(keyID: keyID, issuerID: issuerID, publicKey: key.publicKey)
      }
      if let key = try? P256.Signing.PublicKey(pemRepresentation: text) {
        return Key(keyID: keyID, issuerID: issuerID, publicKey: key)
      }
      throw SigningError(
        "\(path): not a P-256 key in PEM (an App Store Connect .p8 file or a public key)")
    }
  }

  /// The key tokens must be signed with; `nil` accepts any well-formed token.
  public let key: Key?
  /// The bundle id tokens must name (`bid`).
  public let bundleID: String

  /// An authentication.
  public init(key: Key?, bundleID: String) {
    self.key = key
    self.bundleID = bundleID
  }

  /// The longest a token may live, in seconds, as Apple allows.
  public static let longestLife: Int64 = 60 * 60
  /// How far a token's `iat` may be ahead of this machine's clock (the issuer's clock may run a
  /// little ahead).
  static let clockSkew: Int64 = 60

  /// Why the request's `Authorization` header is refused, or `nil` when it is accepted.
  ///
  /// - Parameter now: the wall clock (tokens are made with real time, not simulated time).
  public func refusal(of authorization: String?, now: Instant) -> String? {
    switch verify(authorization, now: now) {
    case .success: nil
    case .failure(let refusal): refusal.reason
    }
  }

  /// The token a request's `Authorization` header carries, when it is accepted; else why not.
  ///
  /// - Parameter now: the wall clock (tokens are made with real time, not simulated time).
  public func verify(_ authorization: String?, now: Instant) -> Result<APIToken, TokenRefusal> {
    Result { () throws(TokenRefusal) in try check(authorization, now: now) }
  }

  private func check(_ authorization: String?, now: Instant) throws(TokenRefusal) -> APIToken {
    let claims = try claims(authorization, now: now)
    guard let key else { return claims }
    guard claims.keyID == key.keyID else {
      throw TokenRefusal("the token's kid is not the registered key's id")
    }
    guard claims.issuerID == key.issuerID else {
      throw TokenRefusal("the token's iss is not the registered issuer id")
    }
    guard let parsed = try? P256.Signing.ECDSASignature(rawRepresentation: claims.signature),
      key.publicKey.isValidSignature(parsed, for: claims.signedPart)
    else { throw TokenRefusal("the token's signature does not verify with the registered key") }
    return claims
  }

  /// The token's header and claims, checked but for the key.
  private func claims(_ authorization: String?, now: Instant) throws(TokenRefusal) -> APIToken {
    guard let authorization, !authorization.isEmpty else {
      throw TokenRefusal("no Authorization header")
    }
    guard authorization.hasPrefix("Bearer ") else {
      throw TokenRefusal("the Authorization header is not \"Bearer <JWT>\"")
    }
    let parts = authorization.dropFirst(7).trimmingCharacters(in: .whitespaces).split(
      separator: ".", omittingEmptySubsequences: false)
    guard parts.count == 3 else {
      throw TokenRefusal("the token is not a JWT (three base64url parts)")
    }
    guard let header = Self.object(parts[0]), let claims = Self.object(parts[1]),
      let signature = JWS.fromBase64URL(parts[2])
    else { throw TokenRefusal("the token's parts are not base64url JSON") }
    guard case .string("ES256")? = header["alg"] else {
      throw TokenRefusal("the token's alg is not ES256")
    }
    guard case .string(let kid)? = header["kid"] else {
      throw TokenRefusal("the token's header has no kid")
    }
    guard case .string("appstoreconnect-v1")? = claims["aud"] else {
      throw TokenRefusal("the token's aud is not appstoreconnect-v1")
    }
    guard case .string(let issuer)? = claims["iss"] else {
      throw TokenRefusal("the token has no iss")
    }
    guard case .string(let bid)? = claims["bid"] else { throw TokenRefusal("the token has no bid") }
    guard bid == bundleID else { throw TokenRefusal("the token's bid is \(bid), not \(bundleID)") }
    let expiry = try Self.checkLife(claims, now: now)
    return APIToken(
      keyID: kid, issuerID: issuer, bundleID: bid, expires: Instant(milliseconds: expiry * 1000),
      signedPart: Data(parts[0].utf8 + [UInt8(ascii: ".")] + parts[1].utf8),
      signature: signature)
  }

  /// The token's `exp`, when the token lives now and not longer than Apple allows.
  private static func checkLife(_ claims: JSONObject, now: Instant) throws(TokenRefusal) -> Int64 {
    guard let expiry = seconds(claims["exp"]) else {
      throw TokenRefusal("the token has no numeric exp")
    }
    let seconds = now.milliseconds / 1000
    guard expiry > seconds else { throw TokenRefusal("the token expired") }
    if let issued = claims["iat"] {
      guard let issued = Self.seconds(issued) else {
        throw TokenRefusal("the token's iat is not a number")
      }
      guard issued <= seconds + clockSkew else {
        throw TokenRefusal("the token's iat is in the future (more than \(clockSkew) s ahead)")
      }
      guard expiry - issued <= longestLife else {
        throw TokenRefusal("the token's exp is more than 60 minutes after its iat")
      }
    } else if expiry - seconds > longestLife {
      throw TokenRefusal("the token's exp is more than 60 minutes ahead")
    }
    return expiry
  }

  private static func object(_ part: Substring) -> JSONObject? {
    guard let bytes = JWS.fromBase64URL(part),
      case .object(let object)? = try? JSONParser.parse(bytes).root
    else { return nil }
    return object
  }

  /// A bearer token as Apple's libraries make one for the App Store Server API: ES256, `kid`,
  /// claims `iss`, `iat`, `exp` (`lifetime` seconds later, at most an hour), `aud`
  /// `appstoreconnect-v1` and `bid`. ``refusal(of:now:)`` accepts it while it lives.
  public static func token(
    signedWith key: P256.Signing.PrivateKey, keyID: String, issuerID: String, bundleID: String,
    issuedAt: Instant, lifetime: Int64 = longestLife
  ) throws -> String {
    let issued = issuedAt.milliseconds / 1000
    let header = JSONObject([
      JSONMember("alg", .string("ES256")), JSONMember("kid", .string(keyID)),
      JSONMember("typ", .string("JWT")),
    ])
    let claims = JSONObject([
      JSONMember("iss", .string(issuerID)),
      JSONMember("iat", .number(JSONNumber(text: String(issued)))),
      JSONMember("exp", .number(JSONNumber(text: String(issued + min(lifetime, longestLife))))),
      JSONMember("aud", .string("appstoreconnect-v1")), JSONMember("bid", .string(bundleID)),
    ])
    let input =
      JWS.base64URL(Array(JSONWriter.compact(.object(header)).utf8)) + "."
      + JWS.base64URL(Array(JSONWriter.compact(.object(claims)).utf8))
    let signature = try key.signature(for: Data(input.utf8))
    return input + "." + JWS.base64URL(Array(signature.rawRepresentation))
  }

  /// A token signed with the private key of a `.p8` file, or (without one) with a throwaway key
  /// that only a server without a registered key accepts.
  ///
  /// - Throws: ``SigningError`` naming the file when it holds no private key.
  public static func token(
    keyFile: String?, keyID: String, issuerID: String, bundleID: String, issuedAt: Instant,
    lifetime: Int64 = longestLife
  ) throws(SigningError) -> String {
    let key = try keyFile.map { (path) throws(SigningError) in try Key.loadPrivate(path: path) }
    do {
      return try token(
        signedWith: key ?? P256.Signing.PrivateKey(), keyID: keyID, issuerID: issuerID,
        bundleID: bundleID, issuedAt: issuedAt, lifetime: lifetime)
    } catch {
      throw SigningError("cannot sign the token: \(error)")
    }
  }

  /// A JSON number of whole seconds.
  private static func seconds(_ value: JSONValue?) -> Int64? {
    guard case .number(let number)? = value, let seconds = Double(number.text),
      seconds.isFinite, abs(seconds) < 1e15
    else { return nil }
    return Int64(seconds)
  }
}

/// A bearer token the App Store Server API accepted: whose key signed it, for which app, until
/// when.
public struct APIToken: Sendable {
  /// The header's `kid`.
  public var keyID: String
  /// The `iss` claim: the team's issuer id.
  public var issuerID: String
  /// The `bid` claim.
  public var bundleID: String
  /// The `exp` claim.
  public var expires: Instant
  /// The header and claims as signed, and the signature (checked when a key is registered).
  var signedPart: Data
  var signature: [UInt8]
}

/// Why a bearer token is refused, for the request log (Apple answers 401 with no body).
public struct TokenRefusal: Error, Sendable {
  /// What is wrong with the token.
  public var reason: String

  init(_ reason: String) { self.reason = reason }
}
