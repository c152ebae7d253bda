import ArgumentParser
import Foundation
import StoreSigning
import StoreUtilities

/// `storekeeper keys generate`: the promotional-offer key pair Xcode's "Generate" button adds.
struct KeysCommand: ParsableCommand {
  static let configuration = CommandConfiguration(
    commandName: "keys", abstract: "Manage a configuration's promotional offer key pair.",
    subcommands: [KeysGenerate.self])
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
