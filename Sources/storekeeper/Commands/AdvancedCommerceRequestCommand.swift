import ArgumentParser
import Foundation
import StoreCommands
import StoreJSON
import StoreSigning
import StoreSimulation
import StoreUtilities

/// `storekeeper advanced-commerce-request`: what an app's server signs for an Advanced
/// Commerce in-app request, for tests and scripts.
struct AdvancedCommerceRequestCommand: ParsableCommand {
  static let configuration = CommandConfiguration(
    commandName: "advanced-commerce-request",
    abstract: "Sign an Advanced Commerce in-app request with a configuration's key.",
    discussion: """
      Reads the request's JSON (CREATE_ONE_TIME_CHARGE, CREATE_SUBSCRIPTION, \
      MODIFY_SUBSCRIPTION or REACTIVATE_SUBSCRIPTION, as Apple's request models encode it) \
      from a file or - for standard input, checks it against Apple's rules and prints the \
      compact JWS Apple's AdvancedCommerceAPIInAppSignatureCreator makes: aud \
      advanced-commerce-api, the configuration's subscriptionOffersKeyPair. Pass it to \
      buy <productID> advanced-commerce=<JWS> or AdvancedCommerceProduct.purchase(compactJWS:).
      """)

  @Argument(help: "The .storekit configuration holding subscriptionOffersKeyPair.")
  var configurationPath: String

  @Argument(help: "The request's JSON file, or - for standard input.")
  var requestPath: String

  @Option(help: "The app's bundle id.")
  var bundleId = Signer.defaultBundleID

  @Option(help: "The nonce (a UUID); default: a new one.")
  var nonce: String?

  @Option(help: "The iat claim, seconds since 1970; default: now.")
  var issuedAt: Int64?

  @Option(help: "The iss claim (your issuer id).")
  var issuer = "storekeeper"

  @Flag(help: "Sign a request that breaks Apple's rules (to test how it is refused).")
  var unchecked = false

  func validate() throws {
    if let nonce, UUID(uuidString: nonce) == nil {
      throw ValidationError("--nonce must be a UUID (got \"\(nonce)\").")
    }
  }

  func run() throws {
    let (configuration, _) = try loadConfiguration(configurationPath)
    let bytes: [UInt8]
    do {
      bytes =
        requestPath == "-"
        ? Array(FileHandle.standardInput.readDataToEndOfFile())
        : Array(try Data(contentsOf: URL(fileURLWithPath: requestPath)))
    } catch {
      printError("storekeeper: \(requestPath): cannot read it".sanitizedForTerminal)
      throw ExitCode(1)
    }
    guard case .object(let object)? = try? JSONParser.parse(bytes).root else {
      printError("storekeeper: \(requestPath): not one JSON object".sanitizedForTerminal)
      throw ExitCode(1)
    }
    if !unchecked {
      do throws(CommerceRefusal) {
        _ = try CommerceInAppRequest(json: object)
      } catch {
        printError("storekeeper: \(requestPath): \(error.message)".sanitizedForTerminal)
        throw ExitCode(1)
      }
    }
    let signer: OfferSigner
    do throws(SigningError) {
      signer = try OfferSigner(configuration.subscriptionOffersKeyPair)
    } catch {
      printError("storekeeper: \(configurationPath): \(error)".sanitizedForTerminal)
      throw ExitCode(1)
    }
    try StandardStreams.printOut(
      try signer.advancedCommerceJWS(
        request: JSONWriter.compact(.object(object)), bundleID: bundleId,
        nonce: (nonce ?? UUID().uuidString).lowercased(),
        issuedAt: issuedAt ?? wallClock.milliseconds / 1000, issuer: issuer))
  }
}
