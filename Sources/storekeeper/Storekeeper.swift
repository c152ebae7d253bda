import ArgumentParser

/// The `storekeeper` command: Xcode's StoreKit Testing environment, in a terminal.
@main
struct Storekeeper: ParsableCommand {
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
      Inspect.self, Run.self, Transactions.self, Validate.self, Format.self, Decode.self,
      CertificateCommand.self, AppTransactionCommand.self, Notify.self,
    ],
    defaultSubcommand: Inspect.self
  )
}
