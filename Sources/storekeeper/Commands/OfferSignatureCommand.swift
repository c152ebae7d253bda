import ArgumentParser
import Foundation
import StoreConfiguration
import StoreJSON
import StoreSigning
import StoreSimulation
import StoreUtilities

/// `storekeeper offer-signature sign|verify`: what an app's server makes for promotional
/// offers, and a check of what a backend made.
struct OfferSignatureCommand: ParsableCommand {
  static let configuration = CommandConfiguration(
    commandName: "offer-signature",
    abstract: "Make or check promotional offer signatures with a configuration's key.",
    subcommands: [OfferSignatureSign.self, OfferSignatureVerify.self])
}

/// The options a signature is about.
struct OfferSignatureSubject: ParsableArguments {
  @Argument(help: "The .storekit configuration holding subscriptionOffersKeyPair.")
  var configurationPath: String

  @Option(help: "The subscription's product id.")
  var product: String

  @Option(help: "The promotional offer's id.")
  var offer: String

  @Option(help: "The app account token (StoreKit 1: applicationUsername), a UUID.")
  var token: String?

  @Option(help: "The app's bundle id.")
  var bundleId = Signer.defaultBundleID

  func validate() throws {
    if let token, UUID(uuidString: token) == nil {
      throw ValidationError("--token must be a UUID (got \"\(token)\").")
    }
  }

  /// The configuration, checked to have the product and the offer.
  func load() throws -> StoreKitConfiguration {
    let (configuration, _) = try loadConfiguration(configurationPath)
    let catalog = Catalog(configuration)
    guard let index = catalog.index(of: product),
      catalog.products[index].type == .autoRenewableSubscription
    else {
      printError(
        "storekeeper: \(configurationPath) has no auto-renewable subscription \(product)"
          .sanitizedForTerminal)
      throw ExitCode(1)
    }
    let offers = catalog.products[index].promotionalOffers.compactMap(\.id)
    guard offers.contains(offer) else {
      printError(
        "storekeeper: \(product) has no promotional offer \(offer); it has "
          + (offers.isEmpty ? "none" : offers.joined(separator: ", ")).sanitizedForTerminal)
      throw ExitCode(1)
    }
    return configuration
  }

}

struct OfferSignatureSign: ParsableCommand {
  static let configuration = CommandConfiguration(
    commandName: "sign",
    abstract: "Sign a promotional offer as the app's server must.",
    discussion: """
      v1 prints {"keyIdentifier","nonce","timestamp","signature"} (SKPaymentDiscount, \
      promotionalOffer(offerID:keyID:nonce:signature:timestamp:)); jws prints a compact JWS \
      (promotionalOffer(_:compactJWS:)), as Apple's PromotionalOfferV2SignatureCreator makes it.
      """)

  @OptionGroup var subject: OfferSignatureSubject

  @Option(help: "The nonce (a UUID); default: a new one.")
  var nonce: String?

  @Option(help: "Milliseconds since 1970 (jws: its iat, in seconds); default: now.")
  var timestamp: Int64?

  @Option(help: "v1 or jws.")
  var format: Format = .v1

  @Option(help: "jws: the iss claim (your issuer id).")
  var issuer = "storekeeper"

  enum Format: String, ExpressibleByArgument, CaseIterable {
    case v1, jws
  }

  func validate() throws {
    if let nonce, UUID(uuidString: nonce) == nil {
      throw ValidationError("--nonce must be a UUID (got \"\(nonce)\").")
    }
  }

  func run() throws {
    let configuration = try subject.load()
    let signer: OfferSigner
    do throws(SigningError) {
      signer = try OfferSigner(configuration.subscriptionOffersKeyPair)
    } catch {
      printError("storekeeper: \(subject.configurationPath): \(error)".sanitizedForTerminal)
      throw ExitCode(1)
    }
    let nonce = (self.nonce ?? UUID().uuidString).lowercased()
    let timestamp = self.timestamp ?? wallClock.milliseconds
    switch format {
    case .v1:
      let signature = try signer.signV1(
        bundleID: subject.bundleId, productID: subject.product, offerID: subject.offer,
        appAccountToken: subject.token, nonce: nonce, timestamp: timestamp)
      let object = JSONObject([
        JSONMember("keyIdentifier", .string(signer.keyPair.id)),
        JSONMember("nonce", .string(nonce)),
        JSONMember("timestamp", .number(JSONNumber(text: String(timestamp)))),
        JSONMember("signature", .string(signature)),
      ])
      try StandardStreams.printOut(JSONWriter.compact(.object(object)))
    case .jws:
      try StandardStreams.printOut(
        try signer.promotionalJWS(
          bundleID: subject.bundleId, productID: subject.product, offerID: subject.offer,
          transactionID: nil, nonce: nonce, issuedAt: timestamp / 1000, issuer: issuer))
    }
  }
}

struct OfferSignatureVerify: ParsableCommand {
  static let configuration = CommandConfiguration(
    commandName: "verify",
    abstract: "Check a promotional offer signature a backend made, as StoreKit would.",
    discussion: """
      Exits 0 when StoreKit would accept it, 1 naming the first part that does not match \
      (key id, nonce, signature over which text; a JWS's claims; a timestamp more than 24 \
      hours from now, as StoreKit refuses it). --at judges it at another moment: the one a \
      fixed test timestamp is used at.
      """)

  @OptionGroup var subject: OfferSignatureSubject

  @Option(help: "The key identifier the backend used.")
  var key: String?

  @Option(help: "The nonce (a UUID).")
  var nonce: String?

  @Option(help: "The timestamp, milliseconds since 1970.")
  var timestamp: Int64?

  @Option(help: "The base64 signature.")
  var signature: String?

  @Option(help: "A compact JWS instead (promotionalOffer(_:compactJWS:)).")
  var jws: String?

  @Option(
    help: ArgumentHelp(
      "When the offer is bought (ISO-8601; default: now): the timestamp must be within "
        + "\(OfferSignature.lifetime / 3_600_000) hours of it."))
  var at: String?

  func validate() throws {
    let parts = [key == nil, nonce == nil, timestamp == nil, signature == nil]
    if jws != nil && parts.contains(false) {
      throw ValidationError("Give --jws, or --key, --nonce, --timestamp and --signature.")
    }
    if jws == nil && parts.contains(true) {
      throw ValidationError("Give --key, --nonce, --timestamp and --signature (or --jws).")
    }
    if let at, Instant(iso8601: at) == nil {
      throw ValidationError("--at must be ISO-8601 (got \"\(at)\").")
    }
  }

  func run() throws {
    let configuration = try subject.load()
    let check = OfferSignatureCheck(
      keyPair: configuration.subscriptionOffersKeyPair, bundleID: subject.bundleId,
      now: at.flatMap(Instant.init(iso8601:)) ?? wallClock)
    let given: OfferSignature =
      jws.map { .jws($0) }
      ?? .v1(keyID: key!, nonce: nonce!, timestamp: timestamp!, signature: signature!)
    do throws(OfferSignatureRefusal) {
      _ = try check.checkPromotional(
        given, productID: subject.product, offerID: subject.offer,
        appAccountToken: subject.token, spent: [])
    } catch {
      printError(
        "storekeeper: invalid (StoreKit: \(error.error.name)): \(error)".sanitizedForTerminal)
      for hint in hints(given, check: check) { printError("storekeeper: \(hint)") }
      if let time = error.staleTime, at == nil {
        printError(
          "storekeeper: a fixed test timestamp is checked at the moment it is used: "
            + "add --at \(time.iso8601)")
      }
      throw ExitCode(1)
    }
    try StandardStreams.printOut("valid")
  }

  /// Common mistakes, tried one at a time: what the signature does verify over.
  private func hints(_ given: OfferSignature, check: OfferSignatureCheck) -> [String] {
    guard case .v1(let keyID, let nonce, let timestamp, let signature) = given,
      keyID == check.keyPair?.id
    else { return [] }
    let token = subject.token ?? ""
    func text(_ token: String, _ nonce: String, _ timestamp: Int64) -> String {
      OfferSignature.signedText([
        subject.bundleId, keyID, subject.product, subject.offer, token, nonce, String(timestamp),
      ])
    }
    let variants = [
      (
        "the nonce was signed in upper case: sign it lowercased",
        text(token.lowercased(), nonce.uppercased(), timestamp)
      ),
      (
        "the app account token was signed in upper case: sign it lowercased",
        text(token.uppercased(), nonce.lowercased(), timestamp)
      ),
      (
        "the app account token was left out of the signed text: sign it lowercased",
        text("", nonce.lowercased(), timestamp)
      ),
      (
        "the timestamp was signed in seconds: sign milliseconds",
        text(token.lowercased(), nonce.lowercased(), timestamp / 1000)
      ),
    ]
    return variants.filter { $0.1 != text(token.lowercased(), nonce.lowercased(), timestamp) }
      .compactMap { hint, message in
        check.verifies(signature: signature, over: message) ? hint : nil
      }
  }
}
