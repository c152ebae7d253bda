import ArgumentParser
import Foundation
import StoreCommands
import StoreImport
import StoreSigning
import StoreSimulation
import StoreUtilities

/// `storekeeper import`: a real customer's history, read from the App Store Server API (or the
/// signed data a backend kept), verified, and written as a new journal to open, step and
/// continue.
struct ImportCommand: AsyncParsableCommand {
  static let configuration = CommandConfiguration(
    commandName: "import",
    abstract: "Bring a customer's history home: a new journal from the App Store Server API.",
    discussion: """
      With --transaction-id, reads every page of the customer's Transaction History (v2), their \
      subscription statuses and renewal infos, their refund history and, where the server keeps \
      it, their notification history from --api-url (Apple's production or sandbox base URL, or \
      a storekeeper serve), with a token signed by --api-key. With --signed, reads a file or \
      folder of signed data a backend kept instead. Every signature is verified against the \
      --root certificates (--no-verify skips it), and must be --bundle-id's and one \
      environment's, as Apple's verifier checks. The journal holds a customer --customer with \
      exactly that history under Apple's ids; its clock starts at the latest signedDate (--at \
      chooses another). The read ends within --timeout; a refused connection is said at once. \
      Nothing is written when anything fails, and the journal appears whole or not at all. See \
      docs/import.md.
      """)

  @Argument(help: "The .storekit configuration.", completion: .file(extensions: ["storekit"]))
  var configurationPath: String

  @Option(help: "Any of the customer's transaction ids (original or not).")
  var transactionId: String?

  @Option(help: "A file or folder of signed transactions, renewal infos and notification bodies.")
  var signed: String?

  @Option(help: "The journal to write; it must not exist.")
  var journal: String

  @Option(
    help: ArgumentHelp(
      "The App Store Server API's base URL: https://api.storekit.itunes.apple.com, "
        + "https://api.storekit-sandbox.itunes.apple.com, or a serve's.", valueName: "url"))
  var apiUrl: String?

  @OptionGroup var key: APIKeyOptions

  @Option(
    help: ArgumentHelp(
      "The app's bundle id: the token's bid, and what every signed value must name "
        + "(default: the first value's; the token's is \(Signer.defaultBundleID)).",
      valueName: "id"))
  var bundleId: String?

  @Option(
    help: ArgumentHelp(
      "The environment every signed value must name (Production, Sandbox, Xcode, "
        + "LocalTesting); default: Apple's API host's, else the first value's.",
      valueName: "name"))
  var environment: String?

  @Option(help: "The most seconds the whole read may take.")
  var timeout = 300

  @Option(
    help: ArgumentHelp(
      "A root certificate the signed data must chain to (DER or PEM; repeatable): Apple's "
        + "AppleRootCA-G3.cer, or a serve's `storekeeper certificate --root`.", valueName: "file"))
  var root: [String] = []

  @Flag(help: "Do not verify signatures (said loudly): only for data you already trust.")
  var noVerify = false

  @Option(help: "The name of the imported customer in the journal.")
  var customer = "imported"

  @Option(help: "Where the session's clock starts (ISO-8601); default: the latest signedDate.")
  var at: String?

  func validate() throws {
    guard (transactionId == nil) != (signed == nil) else {
      throw ValidationError("give either --transaction-id (with --api-url) or --signed.")
    }
    if let transactionId, transactionId.isEmpty || !transactionId.allSatisfy(\.isNumber) {
      throw ValidationError(
        "--transaction-id must be one of the customer's transaction ids (digits), not "
          + "\"\(transactionId)\".")
    }
    if transactionId != nil && apiUrl == nil {
      throw ValidationError("--transaction-id needs --api-url (the App Store Server API's).")
    }
    if root.isEmpty && !noVerify {
      throw ValidationError(
        "--root FILE.cer (Apple's root, or a serve's) is needed to verify what is read; "
          + "--no-verify skips verification.")
    }
    if !root.isEmpty && noVerify {
      throw ValidationError("--root and --no-verify exclude each other.")
    }
    if timeout < 1 { throw ValidationError("--timeout must be at least 1 second.") }
    if let environment, !["Production", "Sandbox", "Xcode", "LocalTesting"].contains(environment) {
      throw ValidationError(
        "--environment must be Production, Sandbox, Xcode or LocalTesting (got \(environment)).")
    }
    if let at, Instant(iso8601: at) == nil {
      throw ValidationError("--at must be an ISO-8601 instant such as 2026-11-28T12:00:00Z.")
    }
    do throws(SessionError) {
      try Session.checkCustomerName(customer)
    } catch {
      throw ValidationError("--customer: \(error.message)")
    }
  }

  func run() async throws {
    let (configuration, bytes) = try loadConfiguration(configurationPath)
    // Said before the network is asked (writing checks again: it never overwrites).
    guard !FileManager.default.fileExists(atPath: journal) else {
      throw fail("\(journal) exists: import writes a new journal and never overwrites one")
    }
    let history = try await read()
    try importing { () throws(ImportError) in
      if let refusal = history.refusal(
        for: Catalog(configuration), configurationPath: configurationPath)
      {
        throw refusal
      }
      let start = at.flatMap(Instant.init(iso8601:)) ?? startInstant(history)
      let commands = try HistoryJournal.commands(for: history, customer: customer, now: start)
      let written = try HistoryJournal.write(
        commands, configuration: configuration, bytes: bytes,
        configurationPath: configurationPath, journalPath: journal, start: start)
      report(history, written: written, commands: commands.count, start: start)
    }
  }

  private func read() async throws -> FetchedHistory {
    let verifier = try makeVerifier()
    let source = SourceCheck(
      bundleID: bundleId, environment: environment ?? apiUrl.flatMap(SourceCheck.environment))
    if let signed {
      return try importing { () throws(ImportError) in
        try SignedFiles.read(signed, verifier: verifier, source: source)
      }
    }
    _ = try importing { () throws(ImportError) in try signedToken() }  // said before any request
    let (key, bundle) = (self.key, bundleId ?? Signer.defaultBundleID)
    let fetcher = HistoryFetcher(
      base: apiUrl ?? "", verifier: verifier, source: source, timeout: .seconds(timeout),
      waiting: { printError("storekeeper: import: \($0)…".sanitizedForTerminal) },
      token: { try key.token(bundleID: bundle) })
    do throws(ImportError) {
      return try await fetcher.fetch(transactionID: transactionId ?? "")
    } catch {
      throw fail(error.description)
    }
  }

  private func makeVerifier() throws -> SignedDataVerifier? {
    if noVerify {
      printError(
        "storekeeper: --no-verify: signatures are NOT checked; what is imported is only as "
          + "trustworthy as where it came from")
      return nil
    }
    var roots: [[UInt8]] = []
    for path in root {
      guard let data = FileManager.default.contents(atPath: path) else {
        throw fail("--root \(path): cannot be read")
      }
      roots.append(Array(data))
    }
    do {
      return try SignedDataVerifier(roots: roots)
    } catch {
      throw fail("--root: \(error)")
    }
  }

  private func signedToken() throws(ImportError) -> String {
    do throws(SigningError) {
      return try key.token(bundleID: bundleId ?? Signer.defaultBundleID)
    } catch {
      throw ImportError("--api-key \(error)")
    }
  }

  private func startInstant(_ history: FetchedHistory) -> Instant {
    history.latestSignedDate > 0 ? Instant(milliseconds: history.latestSignedDate) : wallClock
  }

  private func report(_ history: FetchedHistory, written: Session, commands: Int, start: Instant) {
    let count = history.transactions.count
    var line =
      "storekeeper: imported \(count) transaction\(count == 1 ? "" : "s")"
      + (history.duplicates > 0 ? " (\(history.duplicates) duplicate copies merged)" : "")
      + " and "
      + "\(history.statuses.isEmpty ? history.renewalInfos.count : history.statuses.count) "
      + "subscription state(s) as customer \(customer) into \(journal); the clock starts at "
      + start.iso8601
    if let notifications = history.notifications {
      line += "; \(notifications.count) notification(s) in the server's history were read"
    }
    if let problem = history.notificationProblem {
      line += "; the server's notification history was not read: \(problem)"
    }
    printError(line.sanitizedForTerminal)
  }

  /// Runs `body`; an ``ImportError`` is told and becomes exit status 1.
  private func importing<T>(_ body: () throws(ImportError) -> T) throws -> T {
    do throws(ImportError) {
      return try body()
    } catch {
      throw fail(error.description)
    }
  }

  /// Tells `message` and gives exit status 1.
  private func fail(_ message: String) -> ExitCode {
    printError("storekeeper: import: \(message)".sanitizedForTerminal)
    return ExitCode(1)
  }
}
