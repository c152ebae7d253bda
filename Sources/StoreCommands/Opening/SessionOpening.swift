import Foundation
import StoreConfiguration
import StoreSimulation

/// A configuration that cannot be simulated: its errors, each as `file:line:column: error: …`.
public struct ConfigurationRefusal: Error, Sendable {
  /// The file.
  public var path: String
  /// Its errors, formatted.
  public var diagnostics: [String]

  /// What to tell after the errors.
  public var summary: String { "\(path) cannot be simulated: fix the errors above." }
}

/// How every front end opens a session: the configuration loaded, the journal opened, replayed
/// or created, a configuration changed on disk journaled as a reload. The wall clock is the
/// caller's to read (`now`); what is worth telling goes to `report`.
public enum SessionOpening {
  /// A configuration's model and bytes.
  ///
  /// - Throws: ``ConfigurationRefusal`` with its errors when it cannot be simulated.
  public static func loadConfiguration(
    _ path: String
  ) throws(ConfigurationRefusal) -> (StoreKitConfiguration, [UInt8]) {
    let result = StoreKitConfiguration.load(contentsOf: path)
    guard let configuration = result.usableConfiguration,
      let data = FileManager.default.contents(atPath: path)
    else {
      throw ConfigurationRefusal(
        path: path,
        diagnostics: result.diagnostics.filter { $0.severity == .error }.map {
          $0.formatted(file: path)
        })
    }
    return (configuration, [UInt8](data))
  }

  /// A session for a configuration: a fresh one of its own when there is no journal path, else
  /// the journal's, replayed (or created).
  ///
  /// - Parameters:
  ///   - start: a new session's start; `now` when not given.
  ///   - identity: a new session's own id; by default a random one, so that its notifications'
  ///     UUIDs repeat no other run's (a population gives one made of its seed, so that a run
  ///     and its shards make the same ones).
  /// - Throws: ``CommandError`` when the journal cannot be opened or replayed.
  public static func open(
    configuration: StoreKitConfiguration, bytes: [UInt8], configurationPath: String,
    journalPath: String?, start: Instant?, now: Instant, options: SessionOptions,
    identity: String? = nil, report: (String) -> Void
  ) throws(CommandError) -> JournaledSession {
    guard let journalPath else {
      return JournaledSession(
        session: Session(configuration: configuration, start: start ?? now, options: options),
        journal: nil, identity: identity ?? UUID().uuidString.lowercased())
    }
    return try journaled(
      configuration: configuration, bytes: bytes, configurationPath: configurationPath,
      journalPath: journalPath, start: start ?? now, options: options, identity: identity,
      report: report)
  }

  /// The journal's session, replayed, or a new journal's starting at `start` when there is
  /// none. A configuration that changed since the journal last saw it is reported and applied
  /// as a journaled reload.
  ///
  /// - Parameter progress: told how far the replay got; `false` stops it.
  /// - Throws: ``CommandError`` when the journal cannot be opened or replayed.
  public static func journaled(
    configuration: StoreKitConfiguration, bytes: [UInt8], configurationPath: String,
    journalPath: String, start: Instant, options: SessionOptions, identity: String? = nil,
    progress: ((Int, Int) -> Bool)? = nil, report: (String) -> Void
  ) throws(CommandError) -> JournaledSession {
    let header = JournalHeader(
      configurationPath: configurationPath, configuration: bytes, start: start,
      firstTransactionID: options.firstTransactionID,
      session: identity ?? UUID().uuidString.lowercased())
    let journal = try Journal.openOrCreate(
      at: journalPath, header: header, files: .forThisProcess)
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

  /// The transactions of a journal's session, without changing it: from the snapshot beside
  /// the journal when it matches, else replayed; an empty ledger at `now` when there is no
  /// journal yet.
  ///
  /// - Throws: ``CommandError`` when the journal cannot be read.
  public static func ledger(
    configuration: StoreKitConfiguration, bytes: [UInt8], configurationPath: String,
    journalPath: String, now: Instant, report: (String) -> Void
  ) throws(CommandError) -> LedgerSnapshot {
    try ledgers(
      configuration: configuration, bytes: bytes, configurationPath: configurationPath,
      journalPath: journalPath, now: now, report: report)[0]
  }

  /// Every customer's transactions (the session's own first, then the named customers' in the
  /// order they were made), as ``ledger(configuration:bytes:configurationPath:journalPath:now:report:)``
  /// reads the own one's.
  public static func ledgers(
    configuration: StoreKitConfiguration, bytes: [UInt8], configurationPath: String,
    journalPath: String, now: Instant, report: (String) -> Void
  ) throws(CommandError) -> [LedgerSnapshot] {
    guard let listing = try JournalSnapshot.listing(ofJournal: journalPath, report: report) else {
      report("no journal at \(journalPath) yet; nothing to list.")
      return [Session(configuration: configuration, start: now).ledgerSnapshot()]
    }
    if listing.configuration != bytes {
      report(
        "\(configurationPath) changed since the journal last saw it; listed with the journal's "
          + "copy.")
    }
    return listing.ledgers
  }
}
