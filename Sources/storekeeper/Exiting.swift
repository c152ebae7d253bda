import ArgumentParser
import Foundation
import StoreCommands
import StoreConfiguration
import StoreSimulation
import StoreTerminal
import StoreUtilities

// The glue between the libraries and a command line: what fails is told on standard error
// and becomes an exit status.

/// Writes a line for a person to standard error.
func printError(_ line: String) { StandardStreams.writeError(line) }

/// The wall clock, in whole milliseconds (only the front ends read it).
var wallClock: Instant { SystemClock().now() }

/// Runs `body`; a ``CommandError`` is told to the person and becomes exit status 1.
func exiting<T>(_ body: () throws(CommandError) -> T) throws -> T {
  do throws(CommandError) {
    return try body()
  } catch {
    printError("storekeeper: \(error)".sanitizedForTerminal)
    throw ExitCode(1)
  }
}

/// A configuration's model and bytes, or its errors told and exit status 1.
func loadConfiguration(_ path: String) throws -> (StoreKitConfiguration, [UInt8]) {
  do throws(ConfigurationRefusal) {
    return try SessionOpening.loadConfiguration(path)
  } catch {
    for diagnostic in error.diagnostics { printError(diagnostic) }
    printError("storekeeper: \(error.summary)".sanitizedForTerminal)
    throw ExitCode(1)
  }
}

/// The configuration's own journal in the state folder.
func defaultJournal(for configurationPath: String) throws -> String {
  try exiting { () throws(CommandError) in
    try JournalLocation.journalPath(forConfiguration: configurationPath)
  }
}

/// The journal a reading command lists: `explicit` (`--journal FILE`), which must exist (a path
/// given that names nothing is a mistake, not an empty session), else the configuration's own
/// (which may not exist yet: nothing to list).
func journalToRead(_ explicit: String?, for configurationPath: String) throws -> String {
  guard let explicit else { return try defaultJournal(for: configurationPath) }
  guard FileManager.default.fileExists(atPath: explicit) else {
    printError(
      "storekeeper: --journal \(explicit): no such file (leave --journal out to read "
        .sanitizedForTerminal + "the configuration's own journal)")
    throw ExitCode(1)
  }
  return explicit
}

/// Moves a journal aside so that a fresh one starts; tells where the old one went.
func setAside(_ journal: String) throws {
  try exiting { () throws(CommandError) in
    if let kept = try Journal.setAside(journal, files: .forThisProcess) {
      printError("storekeeper: the previous journal is kept as \(kept)".sanitizedForTerminal)
    }
  }
}

/// A session for a configuration: fresh without a journal path, else the journal's. What is
/// worth telling is told; a problem is exit status 1.
func openSession(
  configurationPath: String, journalPath: String?, start: Instant?, options: SessionOptions
) throws -> JournaledSession {
  let (configuration, bytes) = try loadConfiguration(configurationPath)
  return try exiting { () throws(CommandError) in
    try SessionOpening.open(
      configuration: configuration, bytes: bytes, configurationPath: configurationPath,
      journalPath: journalPath, start: start, now: wallClock, options: options
    ) { printError("storekeeper: \($0)".sanitizedForTerminal) }
  }
}
