import Crypto
import Foundation
import HTTPTypes
import Hummingbird
import HummingbirdTesting
import NIOConcurrencyHelpers
import NIOCore
import StoreCommands
import StoreConfiguration
import StoreDelivery
import StoreSimulation
import StoreTestSupport
import Testing

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

/// A journal of the FoodTruck configuration the served sessions run: its header, then `records`.
func journalBytes(_ records: [JournalRecord]) throws -> [UInt8] {
  let path = packageRoot.appendingPathComponent("Configs/FoodTruck.storekit").path
  let header = JournalHeader(
    configurationPath: path,
    configuration: Array(try Data(contentsOf: URL(fileURLWithPath: path))), start: start)
  return header.line + records.flatMap(\.line)
}

/// The session a journal of these bytes reopens as (written to a file and read back).
func reopened(journal bytes: [UInt8]) throws -> JournaledSession {
  let file = FileManager.default.temporaryDirectory
    .appendingPathComponent("served-\(UUID().uuidString).journal").path
  defer { try? FileManager.default.removeItem(atPath: file) }
  FileManager.default.createFile(atPath: file, contents: Data(bytes))
  return try JournaledSession(replaying: try #require(try Journal.read(at: file)))
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
  /// Answers a request through the served router with Hummingbird's test client (its router,
  /// middleware, query parsing and limits; no socket), the work run where the test runs. With a
  /// bearer token, any well-formed one unless given; `nil` headers send none. The answer's note
  /// is what the request log heard.
  func call(
    _ method: String, _ target: String, body: String = "", bearer: String? = nil,
    headers: [String: String]? = nil
  ) async -> ServerResponse {
    let token = bearer ?? (try! StoreServerTests.token(key: anyKey, claims: goodClaims()))
    var fields = HTTPFields()
    for (name, value) in headers ?? ["authorization": "Bearer \(token)"] {
      fields[HTTPField.Name(name)!] = value
    }
    do {
      return try await answer(
        HTTPRequest.Method(method)!, target, headers: fields, body: Array(body.utf8))
    } catch {
      Issue.record("\(method) \(target): \(error)")
      return ServerResponse(status: 0, body: [])
    }
  }

  /// The answer of the served router to one request, with the request log's note.
  func answer(
    _ method: HTTPRequest.Method, _ target: String, headers: HTTPFields, body: [UInt8]
  ) async throws -> ServerResponse {
    nonisolated(unsafe) let served = self
    let heard = NIOLockedValueBox<RequestRecord?>(nil)
    let access = SessionAccess(
      patience: nil,
      submit: { work in
        work.run()
        return true
      }, session: { served }, reads: { served.reads })
    let router = ServedSession.router(access: access, timeout: .seconds(10)) { record in
      heard.withLockedValue { $0 = record }
    }
    let response = try await Application(router: router).test(.router) { client in
      try await client.execute(
        uri: target, method: method, headers: headers, body: ByteBuffer(bytes: body))
    }
    var answer = ServerResponse(
      status: response.status.code, contentType: response.headers[.contentType] ?? "",
      body: Array(response.body.readableBytesView), note: heard.withLockedValue { $0 }?.note)
    for field in response.headers where field.name != .contentType {
      answer.headers[field.name.canonicalName] = field.value
    }
    return answer
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

/// Waits (at most 10 s) until `condition`, which may ask the server, holds.
func eventually(_ served: ServedSession, _ condition: () async -> Bool) async -> Bool {
  let deadline = Date().addingTimeInterval(10)
  while Date() < deadline {
    served.tick()
    if await condition() { return true }
    usleep(10_000)
  }
  return false
}

/// Each command line is refused with an answer holding its words, and journals nothing.
func expectRefused(
  _ served: ServedSession, _ lines: [(line: String, words: String)],
  sourceLocation: SourceLocation = #_sourceLocation
) async {
  for (line, words) in lines {
    let before = served.host.journaled.timeline.count
    let answer = await served.call("POST", "/storekeeper/v1/commands", body: line + "\n")
    #expect(
      answer.text.contains(words), "\(line): \(answer.text)", sourceLocation: sourceLocation)
    #expect(
      served.host.journaled.timeline.count == before, "\(line) was journaled",
      sourceLocation: sourceLocation)
  }
}
