import ArgumentParser
import Foundation
import StoreUtilities

/// The `storekeeper` command: Xcode's StoreKit Testing environment, in a terminal.
@main
struct Storekeeper: AsyncParsableCommand {
  static let configuration = CommandConfiguration(
    commandName: "storekeeper",
    abstract: "Xcode's StoreKit Testing environment, rebuilt for the terminal.",
    discussion: """
      Reads real .storekit configuration files, simulates the App Store's test environment with an \
      accelerated clock, signs what it simulates and sends App Store Server Notifications V2, and \
      checks or rewrites configurations the way Xcode does.
      """,
    version: "0.1.0",
    subcommands: [
      Inspect.self, Run.self, Transactions.self, Customers.self, Validate.self, Format.self,
      Decode.self,
      CertificateCommand.self, AppTransactionCommand.self, ReceiptCommand.self,
      OfferSignatureCommand.self, AdvancedCommerceRequestCommand.self, KeysCommand.self,
      Notify.self,
      Serve.self, TokenCommand.self, Simulate.self, ImportCommand.self,
    ],
    defaultSubcommand: Inspect.self
  )

  /// Parses, runs, and ends with an honest status: output that could not be written (help
  /// included) is an error, a reader that went away ends quietly.
  static func main() async {
    StandardStreams.prepare()
    var status: Int32 = 0
    do {
      var command = try parseAsRoot()
      if var awaited = command as? AsyncParsableCommand {
        try await awaited.run()
      } else {
        try command.run()
      }
    } catch let failure as OutputFailure {
      status = StandardStreams.exitStatus(for: failure)
    } catch {
      let text = fullMessage(for: error)
      status = exitCode(for: error).rawValue
      if !text.isEmpty {
        if status == 0 {
          do throws(OutputFailure) {
            try StandardStreams.printOut(text)
          } catch {
            status = StandardStreams.exitStatus(for: error)
          }
        } else {
          printError(text)
        }
      }
    }
    Foundation.exit(status)
  }
}
