import Foundation
import StoreTestSupport
import Testing

/// `storekeeper keys api-key`: a key of one's own that `token` signs with and `serve` checks.
@Suite struct APIKeyCommandTests {
  @Test func aNewKeyIsWrittenPrivatelyUsedByTokenAndNeverReplaced() throws {
    let folder = try temporaryFolder()
    defer { try? FileManager.default.removeItem(at: folder) }
    let key = folder.appendingPathComponent("AuthKey_TEST.p8").path
    let made = try storekeeper(["keys", "api-key", key])
    #expect(made.status == 0 && made.stdout.contains("--api-key \(key)"), "\(made.stderr)")
    let text = try String(contentsOfFile: key, encoding: .utf8)
    #expect(text.hasPrefix("-----BEGIN PRIVATE KEY-----"))
    let mode = try FileManager.default.attributesOfItem(atPath: key)[.posixPermissions] as? Int
    #expect(mode == 0o600)
    let token = try storekeeper(["token", "--api-key", key, "--key-id", "TEST", "--issuer-id", "I"])
    #expect(token.status == 0 && token.stdout.split(separator: ".").count == 3)
    let again = try storekeeper(["keys", "api-key", key])
    #expect(again.status == 1 && again.stderr.contains("exists"))
    #expect(try String(contentsOfFile: key, encoding: .utf8) == text, "the key is kept")
  }
}
