import Crypto
import Foundation
import StoreCommands
import StoreConfiguration
import StoreDelivery
import StoreSimulation
import StoreTestSupport

@testable import StoreServer
@testable import StoreSigning

let start = Instant(iso8601: "2026-11-22T02:00:00Z")!
/// The wall clock the tests' tokens are judged by.
let wallNow = Instant(iso8601: "2026-11-24T12:00:00Z")!
let bundleID = Signer.defaultBundleID

/// A served FoodTruck session, paused at `start`, without a journal; its notifications go to
/// `url` when given.
func makeServed(
  key: APIAuthentication.Key? = nil, notifyingURL url: String? = nil,
  requestBudget: Int = 1_000_000
) throws -> ServedSession {
  let path = packageRoot.appendingPathComponent("Configs/FoodTruck.storekit").path
  let configuration = StoreKitConfiguration.load(contentsOf: path).configuration!
  let session = Session(configuration: configuration, start: start)
  let signer = Signer(identity: try SigningIdentity.makeSelfSigned(), environment: .localTesting)
  let journaled = JournaledSession(session: session, journal: nil)
  let host = CommandHost(journaled)
  let outbox = try url.map { try NotificationOutbox(url: $0, directory: nil, timeout: 5) }
  let sender = PreparedSigning(signer: signer, outbox: outbox, signsEvents: false)
    .attachSender(to: host)
  return ServedSession(
    host: host, sender: sender, signer: signer, running: false, key: key,
    requestBudget: requestBudget, wall: { wallNow })
}

/// A token as Apple's library makes one: ES256, `kid`, and the claims given.
func token(
  key: P256.Signing.PrivateKey, kid: String = "KEY1", alg: String = "ES256",
  claims: [String: Any]
) throws -> String {
  func part(_ object: [String: Any]) throws -> String {
    JWS.base64URL(Array(try JSONSerialization.data(withJSONObject: object, options: .sortedKeys)))
  }
  let input = try part(["alg": alg, "kid": kid, "typ": "JWT"]) + "." + (try part(claims))
  let signature = try key.signature(for: Data(input.utf8))
  return input + "." + JWS.base64URL(Array(signature.rawRepresentation))
}

/// A key no server registered.
let anyKey = P256.Signing.PrivateKey()

/// The claims of a good token for `wallNow`.
func goodClaims(_ changes: [String: Any] = [:]) -> [String: Any] {
  var claims: [String: Any] = [
    "iss": "ISSUER", "aud": "appstoreconnect-v1", "bid": bundleID,
    "exp": wallNow.milliseconds / 1000 + 300,
  ]
  for (name, value) in changes { claims[name] = value }
  return claims
}

extension ServedSession {
  /// Answers a request with a bearer token, any well-formed one unless given.
  func call(
    _ method: String, _ target: String, body: String = "", bearer: String? = nil
  ) -> ServerResponse {
    let parts = target.split(separator: "?", maxSplits: 1)
    var query: [String: [String]] = [:]
    if parts.count == 2 {
      for pair in parts[1].split(separator: "&") {
        let nameValue = pair.split(separator: "=", maxSplits: 1)
        query[String(nameValue[0]), default: []].append(
          nameValue.count == 2 ? String(nameValue[1]) : "")
      }
    }
    let token = bearer ?? (try! StoreServerTests.token(key: anyKey, claims: goodClaims()))
    return handle(
      ServerRequest(
        method: method, path: String(parts[0]), query: query,
        headers: ["authorization": "Bearer \(token)"], body: Array(body.utf8)))
  }
}

extension ServerResponse {
  /// The body as text.
  var text: String { String(decoding: body, as: UTF8.self) }
  /// The body as a JSON object.
  var object: [String: Any] {
    (try? JSONSerialization.jsonObject(with: Data(body))) as? [String: Any] ?? [:]
  }
}

/// A backend stub: records each POSTed body and answers with `status` (changeable).
typealias Backend = WebhookServer

/// Waits (at most 10 s) until `condition` holds, recording the POSTs' answers meanwhile.
func eventually(_ served: ServedSession, _ condition: () -> Bool) -> Bool {
  let deadline = Date().addingTimeInterval(10)
  while Date() < deadline {
    served.tick()
    if condition() { return true }
    usleep(10_000)
  }
  return false
}
