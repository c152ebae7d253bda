import ArgumentParser
import Foundation
import StoreCommands
import StoreConfiguration
import StoreSimulation
import StoreTerminal

/// Loading a configuration and opening, replaying or creating the session it runs in.
enum SessionOpening {
  /// A configuration's bytes and model, or the diagnostics printed and exit status 1.
  static func loadConfiguration(_ path: String) throws -> (StoreKitConfiguration, [UInt8]) {
    let result = StoreKitConfiguration.load(contentsOf: path)
    guard let configuration = result.usableConfiguration,
      let data = FileManager.default.contents(atPath: path)
    else {
      for diagnostic in result.diagnostics where diagnostic.severity == .error {
        printError(diagnostic.formatted(file: path))
      }
      printError(
        "storekeeper: \(path) cannot be simulated: fix the errors above.".sanitizedForTerminal)
      throw ExitCode(1)
    }
    return (configuration, [UInt8](data))
  }

  /// Runs `body`; a ``CommandError`` is told to the person and becomes exit status 1.
  static func exitingOnError<T>(_ body: () throws(CommandError) -> T) throws -> T {
    do throws(CommandError) {
      return try body()
    } catch {
      printError("storekeeper: \(error)".sanitizedForTerminal)
      throw ExitCode(1)
    }
  }

  /// The configuration's own journal in the state folder.
  static func defaultJournal(for configurationPath: String) throws -> String {
    try exitingOnError { () throws(CommandError) in
      try JournalLocation.journalPath(forConfiguration: configurationPath)
    }
  }

  /// The journal's file operations: the system's (a crash test may set a step to die at).
  static let journalFiles = JournalFiles.fromEnvironment()

  /// Moves a journal aside so that a fresh one starts (after taking its lock); tells where the
  /// old one went.
  static func setAside(_ journal: String) throws {
    try exitingOnError { () throws(CommandError) in
      if let kept = try Journal.setAside(journal, files: journalFiles) {
        printError("storekeeper: the previous journal is kept as \(kept)".sanitizedForTerminal)
      }
    }
  }

  /// The wall clock, in whole milliseconds (only adapters read it).
  static var wallClock: Instant { SystemClock().now() }

  /// A session for `configurationPath`: fresh when there is no journal path, else the journal's,
  /// replayed (or created). Problems are printed; they exit with status 1.
  static func open(
    configurationPath: String, journalPath: String?, start: Instant?, options: SessionOptions
  ) throws -> JournaledSession {
    let (configuration, bytes) = try loadConfiguration(configurationPath)
    guard let journalPath else {
      // A session of its own: its notifications' UUIDs repeat no other run's.
      return JournaledSession(
        session: Session(configuration: configuration, start: start ?? wallClock, options: options),
        journal: nil, identity: UUID().uuidString.lowercased())
    }
    return try exitingOnError { () throws(CommandError) in
      try journaled(
        configuration: configuration, bytes: bytes, configurationPath: configurationPath,
        journalPath: journalPath, start: start, options: options
      ) { printError("storekeeper: \($0)".sanitizedForTerminal) }
    }
  }

  /// The transactions of `journalPath`'s session, without changing it: from the snapshot beside
  /// the journal when it matches, else replayed; an empty ledger when there is no journal yet.
  static func ledger(configurationPath: String, journalPath: String) throws -> LedgerSnapshot {
    let (configuration, bytes) = try loadConfiguration(configurationPath)
    let report = { (text: String) in printError("storekeeper: \(text)".sanitizedForTerminal) }
    let listing = try exitingOnError { () throws(CommandError) in
      try JournalSnapshot.listing(ofJournal: journalPath, report: report)
    }
    guard let listing else {
      report("no journal at \(journalPath) yet; nothing to list.")
      return Session(configuration: configuration, start: wallClock).ledgerSnapshot()
    }
    if listing.configuration != bytes {
      report(
        "\(configurationPath) changed since the journal last saw it; listed with the journal's "
          + "copy.")
    }
    return listing.ledger
  }

  /// The journal's session, replayed, or a new journal's when there is none. A configuration
  /// that changed since the journal last saw it is reported and applied as a journaled reload.
  /// `report` hears what is worth telling.
  static func journaled(
    configuration: StoreKitConfiguration, bytes: [UInt8], configurationPath: String,
    journalPath: String, start: Instant?, options: SessionOptions,
    progress: ((Int, Int) -> Bool)? = nil, report: (String) -> Void
  ) throws(CommandError) -> JournaledSession {
    let header = JournalHeader(
      configurationPath: configurationPath, configuration: bytes, start: start ?? wallClock,
      firstTransactionID: options.firstTransactionID,
      session: UUID().uuidString.lowercased())
    let journal = try Journal.openOrCreate(at: journalPath, header: header, files: journalFiles)
    journal.notices.forEach(report)
    var journaled = try JournaledSession(replaying: journal, options: options, progress: progress)
    if journal.latestConfiguration != bytes {
      report(
        "\(configurationPath) changed since the journal last saw it; replayed with the journal's "
          + "copy, now using the file on disk.")
      journaled.reload(configuration, bytes: bytes)
      try journaled.commit()
    }
    return journaled
  }
}
