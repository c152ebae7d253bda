import Foundation
import StoreCommands
import StoreConfiguration
import StoreJSON
import StoreSimulation

/// A customer's history turned into a journal: the commands whose replay holds a customer with
/// exactly that history (`customer`, `import transaction` for each transaction, oldest first,
/// `import renewal` for each subscription), written to a new journal that starts where the App
/// Store's answer left the clock.
public enum HistoryJournal {
  /// The commands that rebuild `history` as the customer called `customer`, at `now` (which
  /// decides, for a history without statuses, which subscriptions still run).
  ///
  /// - Throws: ``ImportError`` naming the transaction or renewal info that is not in Apple's
  ///   shape.
  public static func commands(
    for history: FetchedHistory, customer: String, now: Instant
  ) throws(ImportError) -> [Command] {
    var commands: [Command] = [.set(.timeRate(.realTime)), .customer(name: customer, number: nil)]
    var transactions: [UInt64: ImportedTransaction] = [:]
    for payload in history.transactions + history.refunds {
      let imported = try read(payload, ImportedTransaction.init(payload:))
      if let kept = transactions[imported.id], kept.revocationDate != nil { continue }
      transactions[imported.id] = imported
    }
    let ordered = transactions.values.sorted {
      ($0.purchaseDate, $0.id) < ($1.purchaseDate, $1.id)
    }
    if let latest = ordered.last, latest.purchaseDate > now {
      throw ImportError(
        "the clock would start at \(now.iso8601), before transaction \(latest.id) was bought "
          + "(\(latest.purchaseDate.iso8601)); choose a later --at")
    }
    commands += ordered.map { .importTransaction($0) }
    for payload in renewalPayloads(history, transactions: ordered, now: now) {
      commands.append(.importRenewal(try read(payload, ImportedRenewal.init(payload:))))
    }
    return commands
  }

  /// Each subscription's renewal info with its `status` beside it: the API's, the one a signed
  /// file kept beside it (a status answer, a notification's data), or else the one the renewal
  /// info and the latest transaction say.
  static func renewalPayloads(
    _ history: FetchedHistory, transactions: [ImportedTransaction], now: Instant
  ) -> [JSONObject] {
    if !history.statuses.isEmpty {
      return history.statuses.map { status in
        var payload = status.renewalInfo
        payload.members.append(JSONMember("status", .number(JSONNumber(status.status))))
        return payload
      }
    }
    return history.renewalInfos.map { info in
      guard info["status"] == nil else { return info }
      var payload = info
      let original = info["originalTransactionId"].flatMap { value -> UInt64? in
        if case .string(let text) = value { UInt64(text) } else { nil }
      }
      let latest = transactions.last { $0.originalID == original && !$0.isUpgraded }
      payload.members.append(
        JSONMember("status", .number(JSONNumber(status(of: info, latest: latest, now: now)))))
      return payload
    }
  }

  /// Apple's status number for a subscription whose status was not kept.
  static func status(of info: JSONObject, latest: ImportedTransaction?, now: Instant) -> Int {
    if latest?.revocationDate != nil { return RenewalState.revoked.statusNumber }
    if info["isInBillingRetryPeriod"] == .bool(true) {
      if case .number(let grace)? = info["gracePeriodExpiresDate"],
        let end = Int64(grace.text), end > now.milliseconds
      {
        return RenewalState.inGracePeriod.statusNumber
      }
      return RenewalState.inBillingRetryPeriod.statusNumber
    }
    if let expiration = latest?.expirationDate, expiration > now {
      return RenewalState.subscribed.statusNumber
    }
    return RenewalState.expired.statusNumber
  }

  private static func read<Value>(
    _ payload: JSONObject, _ make: (JSONObject) throws(CommandError) -> Value
  ) throws(ImportError) -> Value {
    do throws(CommandError) {
      return try make(payload)
    } catch {
      let id = payload["transactionId"] ?? payload["originalTransactionId"]
      let name = id.flatMap { value -> String? in
        if case .string(let text) = value { text } else { nil }
      }
      throw ImportError("\(name.map { "transaction \($0)" } ?? "an item"): \(error.message)")
    }
  }
}

extension HistoryJournal {
  /// Writes a new journal at `journalPath` for `configuration` whose session starts at `start`
  /// and replays `commands`; returns the session as written. The commands are applied to a
  /// session in memory first, so a refusal writes nothing.
  ///
  /// - Throws: ``ImportError`` when the path exists (an import never overwrites), or the
  ///   session refuses a command (naming it), or the journal cannot be written.
  public static func write(
    _ commands: [Command], configuration: StoreKitConfiguration, bytes: [UInt8],
    configurationPath: String, journalPath: String, start: Instant
  ) throws(ImportError) -> Session {
    guard !FileManager.default.fileExists(atPath: journalPath) else {
      throw ImportError(
        "\(journalPath) exists: import writes a new journal and never overwrites one; choose "
          + "another --journal or move that one away")
    }
    let options = SessionOptions()
    var trial = JournaledSession(
      session: Session(configuration: configuration, start: start, options: options),
      journal: nil)
    try apply(commands, to: &trial)
    // Written whole under another name, then renamed: a kill at any moment leaves no journal
    // at `journalPath` or the whole one (never one that opens as an empty session).
    let partial = journalPath + ".importing"
    try? FileManager.default.removeItem(atPath: partial)
    do throws(CommandError) {
      var journaled = try SessionOpening.journaled(
        configuration: configuration, bytes: bytes, configurationPath: configurationPath,
        journalPath: partial, start: start, options: options, report: { _ in })
      for command in commands { try journaled.apply(command) { _ in } }
      try journaled.commit()
      try rename(partial, to: journalPath)
      return journaled.session
    } catch {
      try? FileManager.default.removeItem(atPath: partial)
      throw ImportError("\(journalPath): \(error.message)")
    }
  }

  /// Moves the whole journal into place, refusing to replace one that appeared meanwhile.
  private static func rename(_ partial: String, to path: String) throws(CommandError) {
    guard link(partial, path) == 0 else {
      throw CommandError(
        "cannot put the journal in place (\(String(cString: strerror(errno)))); nothing was "
          + "written there")
    }
    unlink(partial)
  }

  private static func apply(
    _ commands: [Command], to session: inout JournaledSession
  ) throws(ImportError) {
    for command in commands {
      do throws(CommandError) {
        try session.apply(command) { _ in }
      } catch {
        throw ImportError(
          "the session refused \(String(command.description.prefix(120))): \(error.message)")
      }
    }
  }
}
