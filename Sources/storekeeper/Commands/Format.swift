import ArgumentParser
import StoreConfiguration
import StoreUtilities

/// `storekeeper format FILE`: the file in Xcode's formatting, on stdout or in place.
struct Format: ParsableCommand {
  static let configuration = CommandConfiguration(
    abstract: "Rewrite a .storekit file in Xcode's exact formatting.",
    discussion: """
      Prints the file as Xcode would write it (keys in Xcode's order, 2-space indentation, \
      unknown keys kept). With --in-place the file is replaced atomically, and left untouched \
      when it has errors or anything fails.
      """
  )

  @Argument(help: "The .storekit file.", completion: .file(extensions: ["storekit"]))
  var file: String

  @Flag(name: .shortAndLong, help: "Rewrite the file instead of printing it.")
  var inPlace = false

  @Flag(help: "Print nothing; exit 1 when the file is not in Xcode's formatting.")
  var check = false

  func validate() throws {
    if inPlace && check { throw ValidationError("--in-place and --check exclude each other.") }
  }

  func run() throws {
    let result = StoreKitConfiguration.load(contentsOf: file)
    guard let configuration = result.usableConfiguration else {
      for diagnostic in result.diagnostics where diagnostic.severity == .error {
        printError(diagnostic.formatted(file: file))
      }
      printError("\(file): not formatted: fix the errors above first.".sanitizedForTerminal)
      throw ExitCode(1)
    }
    let bytes = configuration.xcodeFormattedBytes()
    if check {
      let current = StandardStreams.contents(of: file)
      if current != bytes {
        printError("\(file): not in Xcode's formatting".sanitizedForTerminal)
        throw ExitCode(1)
      }
    } else if inPlace {
      do {
        try AtomicFile.write(bytes, to: file)
      } catch {
        printError("\(file): \(error)".sanitizedForTerminal)
        throw ExitCode(1)
      }
    } else {
      try StandardStreams.writeOut(bytes)
    }
  }
}
