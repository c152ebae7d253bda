import ArgumentParser
import StoreServer
import StoreSigning

/// `storekeeper token`: a bearer token for the App Store Server API that `serve` answers, as
/// Apple's libraries make one.
struct TokenCommand: ParsableCommand {
  static let configuration = CommandConfiguration(
    commandName: "token",
    abstract:
      "Print a bearer token for serve's App Store Server API (for curl: $(storekeeper token)).",
    discussion: """
      ES256 with kid, iss, iat, exp (at most an hour later), aud appstoreconnect-v1 and bid, as \
      Apple's App Store Server Library makes it. With --api-key (the .p8 private key serve was \
      given) it is signed with that key and passes serve's check; without, it is signed with a \
      throwaway key and passes a serve that has no --api-key.
      """)

  @Option(
    help: ArgumentHelp(
      "The App Store Connect API key (.p8) to sign with: the one serve's --api-key names.",
      valueName: "file.p8"))
  var apiKey: String?

  @Option(help: "The key's id (kid); with --api-key.")
  var keyId: String?

  @Option(help: "The issuer id (iss); with --api-key.")
  var issuerId: String?

  @Option(help: "The app's bundle id (bid): serve's --bundle-id.")
  var bundleId = Signer.defaultBundleID

  @Option(help: "Minutes the token lives, 1 to 60.")
  var minutes = 60

  func validate() throws {
    guard (1...60).contains(minutes) else {
      throw ValidationError("--minutes must be from 1 to 60, as Apple allows (got \(minutes)).")
    }
    if (apiKey != nil) != (keyId != nil) || (apiKey != nil) != (issuerId != nil) {
      throw ValidationError("--api-key, --key-id and --issuer-id go together.")
    }
  }

  func run() throws {
    let token: String
    do throws(SigningError) {
      token = try APIAuthentication.token(
        keyFile: apiKey, keyID: keyId ?? "STOREKEEPER", issuerID: issuerId ?? "storekeeper",
        bundleID: bundleId, issuedAt: SessionOpening.wallClock, lifetime: Int64(minutes) * 60)
    } catch {
      printError("storekeeper: --api-key \(error)".sanitizedForTerminal)
      throw ExitCode(1)
    }
    try StandardStreams.printOut(token)
  }
}
