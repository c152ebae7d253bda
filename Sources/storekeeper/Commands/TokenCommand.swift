import ArgumentParser
import StoreServer
import StoreSigning
import StoreUtilities

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

  @OptionGroup var key: APIKeyOptions

  @Option(help: "The app's bundle id (bid): serve's --bundle-id.")
  var bundleId = Signer.defaultBundleID

  @Option(help: "Minutes the token lives, 1 to 60.")
  var minutes = 60

  func validate() throws {
    guard (1...60).contains(minutes) else {
      throw ValidationError("--minutes must be from 1 to 60, as Apple allows (got \(minutes)).")
    }
  }

  func run() throws {
    let token: String
    do throws(SigningError) {
      token = try key.token(bundleID: bundleId, minutes: minutes)
    } catch {
      printError("storekeeper: --api-key \(error)".sanitizedForTerminal)
      throw ExitCode(1)
    }
    try StandardStreams.printOut(token)
  }
}
