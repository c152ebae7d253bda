import ArgumentParser
import Foundation
import StoreCommands
import StoreConfiguration
import StoreSimulation

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

  /// Moves a journal aside so that a fresh one starts; tells where the old one went.
  static func setAside(_ journal: String) throws {
    do throws(CommandError) {
      if let kept = try JournalLocation.setAside(journal) {
        printError("storekeeper: the previous journal is kept as \(kept)".sanitizedForTerminal)
      }
    } catch {
      printError("storekeeper: \(error)".sanitizedForTerminal)
      throw ExitCode(1)
    }
  }

  /// The wall clock, in whole milliseconds (only adapters read it).
  static var wallClock: Instant {
    Instant(milliseconds: Int64((Date().timeIntervalSince1970 * 1000).rounded(.down)))
  }

  /// A session for `configurationPath`: fresh when there is no journal path, else the journal's,
  /// replayed (or created). A configuration that changed since the journal was written is
  /// reported and applied as a journaled reload.
  static func open(
    configurationPath: String, journalPath: String?, start: Instant?, options: SessionOptions,
    forWriting: Bool = true
  ) throws -> JournaledSession {
    let (configuration, bytes) = try loadConfiguration(configurationPath)
    guard let journalPath else {
      return JournaledSession(
        session: Session(configuration: configuration, start: start ?? wallClock, options: options),
        journal: nil)
    }
    do throws(CommandError) {
      if !FileManager.default.fileExists(atPath: journalPath) {
        guard forWriting else {
          return JournaledSession(
            session: Session(
              configuration: configuration, start: start ?? wallClock, options: options),
            journal: nil)
        }
        let header = JournalHeader(
          configurationPath: configurationPath, configuration: bytes, start: start ?? wallClock,
          firstTransactionID: options.firstTransactionID)
        let journal = try Journal.create(at: journalPath, header: header)
        return JournaledSession(
          session: Session(configuration: configuration, start: header.start, options: options),
          journal: journal)
      }
      let journal = try Journal.open(at: journalPath, forWriting: forWriting)
      for notice in journal.notices { printError("storekeeper: \(notice)".sanitizedForTerminal) }
      var journaled = try JournaledSession(replaying: journal, options: options)
      let journalBytes =
        journal.records.reversed().lazy.compactMap { record -> [UInt8]? in
          if case .configuration(_, let saved) = record { saved } else { nil }
        }.first ?? journal.header.configuration
      if journalBytes != bytes {
        printError(
          "storekeeper: \(configurationPath) changed since the journal last saw it; replayed with "
            + "the journal's copy\(forWriting ? ", now using the file on disk" : "")."
            .sanitizedForTerminal)
        if forWriting {
          journaled.reload(configuration, bytes: bytes)
          try journaled.commit()
        }
      }
      return journaled
    } catch {
      printError("storekeeper: \(error)".sanitizedForTerminal)
      throw ExitCode(1)
    }
  }
}
