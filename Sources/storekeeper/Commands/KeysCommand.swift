import ArgumentParser
import Foundation
import StoreSigning
import StoreUtilities

/// `storekeeper keys generate`: the promotional-offer key pair Xcode's "Generate" button adds.
struct KeysCommand: ParsableCommand {
  static let configuration = CommandConfiguration(
    commandName: "keys",
    abstract: "Make keys: a configuration's promotional offer key pair, an API key for serve.",
    subcommands: [KeysGenerate.self, KeysAPIKey.self])
}

/// `storekeeper keys api-key FILE.p8`: an App Store Connect API key of one's own, for `serve
/// --api-key` and `token --api-key` (and Apple's libraries, which sign their tokens with it).
struct KeysAPIKey: ParsableCommand {
  static let configuration = CommandConfiguration(
    commandName: "api-key",
    abstract: "Write a new App Store Connect API key (.p8) for serve and token.",
    discussion: """
      A new P-256 private key, PKCS#8 PEM, as App Store Connect's AuthKey_<id>.p8 (mode 0600). \
      Give it to serve --api-key with a key id and an issuer id of your choice, and to Apple's \
      App Store Server Library (or storekeeper token) with the same ones. An existing file is \
      not replaced.
      """)

  @Argument(help: "The file to write, such as AuthKey_TEST.p8.", completion: .file())
  var file: String

  func run() throws {
    guard !FileManager.default.fileExists(atPath: file) else {
      printError(
        "storekeeper: \(file) exists; keys api-key writes a new file (remove it, or name another)"
          .sanitizedForTerminal)
      throw ExitCode(1)
    }
    let created = FileManager.default.createFile(
      atPath: file, contents: Data(APIKeyFile.generate().utf8),
      attributes: [.posixPermissions: 0o600])
    guard created else {
      printError("storekeeper: cannot write \(file)".sanitizedForTerminal)
      throw ExitCode(1)
    }
    try StandardStreams.printOut(
      "wrote \(file): storekeeper serve CONFIG --api-key \(file) --key-id KEYID "
        + "--issuer-id ISSUER; storekeeper token --api-key \(file) --key-id KEYID --issuer-id ISSUER"
    )
  }
}

struct KeysGenerate: ParsableCommand {
  static let configuration = CommandConfiguration(
    commandName: "generate",
    abstract: "Add a subscriptionOffersKeyPair to a configuration, as Xcode does.",
    discussion: """
      A new P-256 key (PKCS#8, base64) and its 8-hex-digit id, written into the file in \
      Xcode's exact formatting (the rest of the file unchanged). Prints the key id. A file that \
      already has a key pair keeps it unless --replace.
      """)

  @Argument(help: "The .storekit configuration.", completion: .file(extensions: ["storekit"]))
  var configurationPath: String

  @Flag(help: "Replace a key pair the file already has.")
  var replace = false

  func run() throws {
    var (configuration, _) = try loadConfiguration(configurationPath)
    if let existing = configuration.subscriptionOffersKeyPair, !replace {
      printError(
        "storekeeper: \(configurationPath) already has key \(existing.id); --replace makes a new one"
          .sanitizedForTerminal)
      throw ExitCode(1)
    }
    let keyPair = OfferSigner.generateKeyPair()
    configuration.subscriptionOffersKeyPair = keyPair
    do {
      try AtomicFile.write(configuration.xcodeFormattedBytes(), to: configurationPath)
    } catch {
      printError("storekeeper: \(configurationPath): \(error)".sanitizedForTerminal)
      throw ExitCode(1)
    }
    try StandardStreams.printOut(keyPair.id)
  }
}
