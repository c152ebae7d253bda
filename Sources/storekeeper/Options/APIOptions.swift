import ArgumentParser
import StoreServer
import StoreSigning

/// An App Store Connect API key: the `.p8` file, its id and the issuer's (what `serve` checks
/// tokens with and `token` signs them with).
struct APIKeyOptions: ParsableArguments {
  @Option(
    help: ArgumentHelp(
      "The App Store Connect API key (.p8): serve accepts only tokens it signed (without it, any "
        + "well-formed token); token and import sign with it.", valueName: "file.p8"))
  var apiKey: String?

  @Option(help: "The API key's id (the tokens' kid); with --api-key.")
  var keyId: String?

  @Option(help: "The issuer id (the tokens' iss); with --api-key.")
  var issuerId: String?

  func validate() throws {
    if (apiKey != nil) != (keyId != nil) || (apiKey != nil) != (issuerId != nil) {
      throw ValidationError("--api-key, --key-id and --issuer-id go together.")
    }
  }

  /// A token signed with the key (a throwaway one without `--api-key`), living `minutes`.
  func token(bundleID: String, minutes: Int = 60) throws(SigningError) -> String {
    try APIAuthentication.token(
      keyFile: apiKey, keyID: keyId ?? "STOREKEEPER", issuerID: issuerId ?? "storekeeper",
      bundleID: bundleID, issuedAt: wallClock, lifetime: Int64(minutes) * 60)
  }
}

/// What `serve` and the inspector's `--serve` share: the key tokens must be signed with, the
/// control endpoint's token, and how long a request may take to arrive.
struct APIOptions: ParsableArguments {
  @OptionGroup var key: APIKeyOptions

  @Option(
    help: ArgumentHelp(
      "The bearer token the control endpoint asks for; without it, with --api-key, the "
        + "control endpoint asks for an App Store Server API token, and without either for "
        + "nothing.", valueName: "token"))
  var controlToken: String?

  @Option(help: "Seconds a request may take to arrive whole before it gets 408.")
  var requestTimeout = 30

  func validate() throws {
    guard (1...3_600).contains(requestTimeout) else {
      throw ValidationError(
        "--request-timeout must be from 1 to 3600 seconds (got \(requestTimeout)).")
    }
  }

  /// The API key tokens must be signed with, if one was given; a key that cannot be read is
  /// told, exit 1.
  func loadKey() throws -> APIAuthentication.Key? {
    guard let apiKey = key.apiKey, let keyId = key.keyId, let issuerId = key.issuerId else {
      return nil
    }
    do throws(SigningError) {
      return try APIAuthentication.Key.load(path: apiKey, keyID: keyId, issuerID: issuerId)
    } catch {
      printError("storekeeper: --api-key \(error)".sanitizedForTerminal)
      throw ExitCode(1)
    }
  }

  /// A bearer token the server accepts, for a person's curl, told at start: signed with the
  /// `.p8` given (a throwaway key without one); how to make one when only a public key was.
  func readyToken(bundleID: String) -> String {
    do throws(SigningError) {
      let token = try key.token(bundleID: bundleID)
      return "a bearer token for the App Store Server API, valid for 60 minutes "
        + "(storekeeper token makes more): \(token)"
    } catch {
      return "make bearer tokens with storekeeper token --api-key <your .p8> (\(error))"
    }
  }

  /// What the server says at start when no key was given.
  static let anyTokenNotice =
    "no --api-key: any well-formed bearer token is accepted (its signature is not checked)"

  /// What `listen` makes listening on `host:port` with the request timeout, or tells why it
  /// cannot (exit 1).
  func listen<Server>(
    host: String, port: Int, _ listen: (String, Int, Duration) throws -> Server
  ) throws -> Server {
    do {
      return try listen(host, port, requestTime)
    } catch {
      throw cannotListen(host: host, port: port, error)
    }
  }

  /// How long a request may take to arrive whole (`--request-timeout`).
  var requestTime: Duration { .seconds(requestTimeout) }

  /// Says why a server cannot listen on `host:port`; the exit code to end with.
  func cannotListen(host: String, port: Int, _ error: any Error) -> ExitCode {
    printError("storekeeper: cannot listen on \(host):\(port): \(error)".sanitizedForTerminal)
    return ExitCode(1)
  }
}

/// `[HOST:]PORT`, as `--serve` takes it: `8080`, `127.0.0.1:0`, `[::1]:8080`.
struct ServeAddress: ExpressibleByArgument {
  var host = "127.0.0.1"
  var port: Int

  init?(argument: String) {
    var text = Substring(argument)
    if let colon = text.lastIndex(of: ":") {
      var host = text[..<colon]
      if host.hasPrefix("[") && host.hasSuffix("]") { host = host.dropFirst().dropLast() }
      guard !host.isEmpty, !host.contains("[") && !host.contains("]") else { return nil }
      self.host = String(host)
      text = text[text.index(after: colon)...]
    }
    guard let port = Int(text), (0...65_535).contains(port) else { return nil }
    self.port = port
  }

  /// `http://HOST:PORT` with an IPv6 host in brackets.
  static func url(host: String, port: Int) -> String {
    "http://\(host.contains(":") ? "[\(host)]" : host):\(port)"
  }
}
