import Foundation
import StoreJSON
import StoreSimulation
import Testing

@testable import StoreSigning

/// Signed data verified as Apple's library verifies it: the chain to a trusted root, Apple's
/// marker extensions, validity at the signed date, the signature.
@Suite struct SignedDataVerifierTests {
  let start = Instant(iso8601: "2026-11-22T02:00:00Z")!

  @Test func aChainToATrustedRootVerifiesAndAnythingElseSaysWhy() throws {
    let identity = try SigningIdentity.makeChain()
    let signer = Signer(identity: identity, environment: .sandbox)
    let jws = try signer.signAppTransaction(signedDate: start)
    let verifier = try SignedDataVerifier(roots: [identity.chain[2]])
    let payload = try verifier.verify(jws)
    #expect(payload["bundleId"] == .string(Signer.defaultBundleID))
    // PEM roots are read too.
    let pem = try SignedDataVerifier(roots: [Array(identity.chainPEM[2].utf8)])
    #expect(throws: Never.self) { try pem.verify(jws) }

    let other = try SigningIdentity.makeChain()
    let stranger = try SignedDataVerifier(roots: [other.chain[2]])
    #expect(reason { try stranger.verify(jws) }.contains("trusted root"))

    var parts = jws.split(separator: ".").map(String.init)
    parts[1] = JWS.base64URL(Array(#"{"bundleId":"com.evil","signedDate":1795312800000}"#.utf8))
    #expect(reason { try verifier.verify(parts.joined(separator: ".")) }.contains("signature"))

    let xcode = Signer(identity: try SigningIdentity.makeSelfSigned(), environment: .xcode)
    let unchained = try xcode.signAppTransaction(signedDate: start)
    #expect(reason { try verifier.verify(unchained) }.contains("x5c"))
    #expect(reason { try verifier.verify("not a jws") }.contains("JWS"))
    #expect(throws: SigningError.self) { try SignedDataVerifier(roots: [[1, 2, 3]]) }
  }

  private func reason(_ body: () throws -> Any) -> String {
    do {
      _ = try body()
      return "verified"
    } catch {
      return "\(error)"
    }
  }
}
