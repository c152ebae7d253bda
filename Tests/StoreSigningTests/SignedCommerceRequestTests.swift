import Foundation
import StoreCommands
import StoreConfiguration
import StoreSimulation
import Testing

@testable import StoreSigning

/// An Advanced Commerce in-app request is read into Apple's typed request at the edge (the
/// command language's `advanced-commerce=`), and the session takes it only after the JWS's
/// signature checks out, and only when it was read from the claim that signature covers.
@Suite struct SignedCommerceRequestTests {
  static let product = "socialfeed.monthly"
  static let json =
    #"{"operation":"CREATE_ONE_TIME_CHARGE","version":"1","requestInfo":{"requestReferenceId":"#
    + #""6f1c3e2a-1b2c-4d5e-8f90-0a1b2c3d4e5f"},"currency":"USD","taxCode":"C003-00-1","#
    + #""item":{"SKU":"book","description":"A book","displayName":"Book","price":12990}}"#
  let keyPair = OfferSigner.generateKeyPair()

  func signed(_ json: String = json, by signer: OfferSigner? = nil) throws -> String {
    try (signer ?? OfferSigner(keyPair)).advancedCommerceJWS(
      request: json, bundleID: Signer.defaultBundleID, nonce: UUID().uuidString,
      issuedAt: start.milliseconds / 1000, issuer: "issuer")
  }

  /// A session whose `product` is a generic product of one-time charges.
  func commerceSession() throws -> Session {
    var configuration = foodTruck()
    configuration.subscriptionOffersKeyPair = keyPair
    var session = Session(configuration: configuration, start: start)
    let declare = try #require(
      try Command.parse("set advanced-commerce com.example.books one-time"))
    try declare.apply(to: &session) { _ in }
    return session
  }

  /// What buying `com.example.books` with `signed` answers: the error's rule, or `nil`.
  func buy(_ signed: SignedCommerceRequest, in session: inout Session) -> CommerceRule? {
    var options = PurchaseOptions()
    options.advancedCommerce = signed
    do throws(SessionError) {
      try session.buy("com.example.books", options) { _ in }
      return nil
    } catch {
      guard case .commerce(let refusal) = error.reason else { return .operationNotAllowed }
      return refusal.rule
    }
  }

  @Test func theRequestClaimIsReadIntoApplesTypedRequestBeforeAnyCheck() throws {
    let read = SignedCommerceRequest(compactJWS: try signed())
    guard case .success(.createOneTimeCharge(let info, let terms, nil)) = read.request else {
      Issue.record("read \(read.request)")
      return
    }
    #expect(info.requestReferenceID == "6f1c3e2a-1b2c-4d5e-8f90-0a1b2c3d4e5f")
    #expect(terms.price == 12_990 && terms.items.map(\.sku) == ["book"])
    #expect(read.claim == Data(Self.json.utf8).base64EncodedString())
    let garbage = SignedCommerceRequest(compactJWS: "a.b.c")
    #expect(garbage.claim.isEmpty)
    #expect(throws: CommerceRefusal.self) { try garbage.request.get() }
  }

  @Test func theSessionTakesTheRequestOnlyOnceItsSignatureChecksOut() throws {
    var session = try commerceSession()
    let good = SignedCommerceRequest(compactJWS: try signed())
    #expect(buy(good, in: &session) == nil)
    #expect(session.allTransactions().last?.advancedCommerce?.items.map(\.sku) == ["book"])
    // A request of the wrong shape, signed: refused for its shape once the signature is good.
    var fresh = try commerceSession()
    let broken = try signed(Self.json.replacingOccurrences(of: "12990", with: "-1"))
    #expect(buy(SignedCommerceRequest(compactJWS: broken), in: &fresh) == .negativePrice)
    // The same shape with a signature that does not verify: the signature is refused first.
    let stranger = try OfferSigner(
      OfferKeyPair(id: keyPair.id, privateKey: OfferSigner.generateKeyPair().privateKey))
    let forged = try signed(Self.json.replacingOccurrences(of: "12990", with: "-1"), by: stranger)
    #expect(buy(SignedCommerceRequest(compactJWS: forged), in: &fresh) == .invalidSignature)
    // A request that was not read from the signed claim is not taken.
    let read = SignedCommerceRequest(compactJWS: broken)
    let swapped = SignedCommerceRequest(
      jws: try signed(), claim: read.claim, request: read.request)
    #expect(buy(swapped, in: &fresh) == .invalidSignature)
    #expect(fresh.allTransactions().isEmpty)
  }
}
