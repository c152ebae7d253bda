import Foundation
import StoreTestSupport
import Testing

// A backend's round trip through Apple's library against `storekeeper serve` (Retention
// Messaging, the Advanced Commerce API): the server, its webhook and the secrets the backend
// holds.

/// `serve` at the present (offer signatures carry the wall clock's time), signing with the
/// local chain (Sandbox), a backend's key registered, notifications POSTed to `backend`.
func servedBackend(
  _ python: String, keys: URL
) throws -> (
  server: ServeProcess, backend: WebhookServer, keyPath: String, token: String
) {
  let keyPath = try makeAPIKey(in: keys, python: python)
  let backend = try WebhookServer(statuses: [])
  let now = ISO8601DateFormatter().string(from: Date())
  let server = try ServeProcess([
    "--paused", "--start", now, "--chain", "--api-key", keyPath, "--key-id", "KEY_ID",
    "--issuer-id", "ISSUER_ID", "--notify-url", backend.url, "Configs/FoodTruck.storekit",
  ])
  let token = try storekeeper([
    "token", "--api-key", keyPath, "--key-id", "KEY_ID", "--issuer-id", "ISSUER_ID",
  ]).stdout.trimmingCharacters(in: .whitespacesAndNewlines)
  return (server, backend, keyPath, token)
}

/// The root certificate (DER) of the server's chain, and the configuration's offer key as PEM.
func backendSecrets(_ server: ServeProcess, in folder: URL) throws -> (root: URL, key: URL) {
  let root = folder.appendingPathComponent("root.der")
  let der = try storekeeper(
    ["certificate", "--root", "--der"], environment: ["XDG_STATE_HOME": server.folder.path])
  try Data(der.stdoutBytes).write(to: root)
  let configuration = try String(
    contentsOf: packageRoot.appendingPathComponent("Configs/FoodTruck.storekit"), encoding: .utf8)
  let base64 = try #require(
    configuration.firstMatch(of: /"privateKey" : "([A-Za-z0-9+\/=]+)"/)?.output.1)
  var pem = "-----BEGIN PRIVATE KEY-----\n"
  var rest = Substring(base64)
  while !rest.isEmpty {
    pem += rest.prefix(64) + "\n"
    rest = rest.dropFirst(64)
  }
  let key = folder.appendingPathComponent("offers.pem")
  try Data((pem + "-----END PRIVATE KEY-----\n").utf8).write(to: key)
  return (root, key)
}
