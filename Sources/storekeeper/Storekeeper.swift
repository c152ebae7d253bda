import ArgumentParser

/// The `storekeeper` command: Xcode's StoreKit Testing environment, in a terminal.
@main
struct Storekeeper: ParsableCommand {
  static let configuration = CommandConfiguration(
    commandName: "storekeeper",
    abstract: "Xcode's StoreKit Testing environment, rebuilt for the terminal.",
    discussion: """
      Reads real .storekit configuration files and checks or rewrites them the way Xcode does.
      """,
    version: "0.1.0",
    subcommands: [Validate.self, Format.self]
  )
}
