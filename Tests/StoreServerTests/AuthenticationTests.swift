import Crypto
import Foundation
import StoreSimulation
import Testing

@testable import StoreServer

/// Bearer tokens as Apple checks them ("Generating JSON Web Tokens for API requests").
@Suite struct AuthenticationTests {
  let key = P256.Signing.PrivateKey()
  var registered: APIAuthentication.Key {
    APIAuthentication.Key(keyID: "KEY1", issuerID: "ISSUER", publicKey: key.publicKey)
  }

  @Test func aTokenSignedWithTheRegisteredKeyIsAcceptedWithOrWithoutIat() async throws {
    let served = try makeServed(key: registered)
    let plain = try token(key: key, claims: goodClaims())
    #expect(await served.call("GET", "/inApps/v1/history/0", bearer: plain).status == 404)
    let withIat = try token(
      key: key, claims: goodClaims(["iat": wallNow.milliseconds / 1000 - 10]))
    let answer = await served.call("GET", "/inApps/v1/history/0", bearer: withIat)
    #expect(answer.status == 404 && answer.object["errorCode"] as? Int == 4_040_010)
  }

  @Test func everyWrongTokenGets401WithNoBodyAndAReasonInTheLog() async throws {
    let served = try makeServed(key: registered)
    let now = wallNow.milliseconds / 1000
    let other = P256.Signing.PrivateKey()
    let cases: [(String?, String)] = [
      (nil, "no Authorization header"),
      ("", "no Authorization header"),
      ("Basic abc", "not \"Bearer"),
      ("Bearer not-a-jwt", "three base64url parts"),
      ("Bearer a.b.c", "not base64url JSON"),
      ("Bearer " + (try token(key: key, alg: "HS256", claims: goodClaims())), "alg"),
      ("Bearer " + (try token(key: key, claims: goodClaims(["exp": now - 1]))), "expired"),
      ("Bearer " + (try token(key: key, claims: goodClaims(["exp": now + 3_601]))), "60 minutes"),
      (
        "Bearer "
          + (try token(key: key, claims: goodClaims(["iat": now - 600, "exp": now + 3_300]))),
        "after its iat"
      ),
      (
        "Bearer "
          + (try token(
            key: key, claims: goodClaims(["iat": now + 315_360_000, "exp": now + 315_363_600]))),
        "iat is in the future"
      ),
      ("Bearer " + (try token(key: key, claims: goodClaims(["exp": "soon"]))), "numeric exp"),
      ("Bearer " + (try token(key: key, claims: goodClaims(["aud": "other"]))), "aud"),
      ("Bearer " + (try token(key: key, claims: goodClaims(["bid": "com.other"]))), "bid"),
      ("Bearer " + (try token(key: key, kid: "KEY2", claims: goodClaims())), "kid"),
      ("Bearer " + (try token(key: key, claims: goodClaims(["iss": "OTHER"]))), "iss"),
      ("Bearer " + (try token(key: other, claims: goodClaims())), "signature"),
    ]
    for (header, reason) in cases {
      let answer = await served.call(
        "GET", "/inApps/v1/transactions/0", headers: header.map { ["authorization": $0] } ?? [:])
      #expect(answer.status == 401, "\(reason)")
      #expect(answer.body.isEmpty, "\(reason)")
      #expect(answer.note?.contains(reason) == true, "\(answer.note ?? "no note") ≠ \(reason)")
    }
    #expect(await served.call("GET", "/storekeeper/v1/health", bearer: "").status == 200)
  }

  @Test func withoutARegisteredKeyAnyWellFormedTokenIsAccepted() async throws {
    let served = try makeServed()
    let other = P256.Signing.PrivateKey()
    let stranger = try token(key: other, kid: "ANY", claims: goodClaims(["iss": "ANYONE"]))
    #expect(await served.call("GET", "/inApps/v1/transactions/0", bearer: stranger).status == 404)
    let expired = try token(
      key: other, claims: goodClaims(["exp": wallNow.milliseconds / 1000 - 5]))
    #expect(await served.call("GET", "/inApps/v1/transactions/0", bearer: expired).status == 401)
    #expect(await served.call("GET", "/inApps/v1/transactions/0", bearer: "x").status == 401)
  }

  @Test func aP8FileOrAPublicKeyLoadsAndAnythingElseIsNamed() throws {
    let folder = NSTemporaryDirectory() + "auth-\(UUID().uuidString)"
    try FileManager.default.createDirectory(atPath: folder, withIntermediateDirectories: true)
    defer { try? FileManager.default.removeItem(atPath: folder) }
    try key.pemRepresentation.write(toFile: folder + "/k.p8", atomically: true, encoding: .utf8)
    try key.publicKey.pemRepresentation.write(
      toFile: folder + "/k.pub", atomically: true, encoding: .utf8)
    try "nothing".write(toFile: folder + "/bad.p8", atomically: true, encoding: .utf8)
    for name in ["k.p8", "k.pub"] {
      let loaded = try APIAuthentication.Key.load(
        path: folder + "/" + name, keyID: "KEY1", issuerID: "ISSUER")
      #expect(loaded.publicKey.rawRepresentation == key.publicKey.rawRepresentation)
    }
    #expect(throws: (any Error).self) {
      try APIAuthentication.Key.load(path: folder + "/bad.p8", keyID: "K", issuerID: "I")
    }
    do {
      _ = try APIAuthentication.Key.load(path: folder + "/none.p8", keyID: "K", issuerID: "I")
    } catch {
      #expect(error.description.contains("none.p8"))
    }
  }
}
