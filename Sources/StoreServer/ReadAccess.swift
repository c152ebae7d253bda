import NIOConcurrencyHelpers
import StoreCommands
import StoreSimulation

/// The reads of a served session, answered on any thread from the session as last committed,
/// so that no read waits for a command under way (a control request of a million events, a
/// long `advance`): a read sees what every answered write did, and nothing that is not yet in
/// the journal.
public final class ReadAccess: Sendable {
  let gate: AccessGate
  private let committed: NIOLockedValueBox<SessionReader>

  init(gate: AccessGate, reader: SessionReader) {
    self.gate = gate
    committed = NIOLockedValueBox(reader)
  }

  /// The reader of the session as last committed.
  var reader: SessionReader { committed.withLockedValue { $0 } }

  /// Makes `reader` the one reads answer from (the journal holds what it shows).
  func publish(_ reader: SessionReader) { committed.withLockedValue { $0 = reader } }
}

/// Hands ``ReadAccess`` each committed state of the host's session: the session a command left
/// is kept when it finishes, and published once the journal holds it.
final class CommittedReads: CommandObserver {
  private unowned let host: CommandHost
  private let access: ReadAccess
  private var pending: SessionReader

  init(host: CommandHost, access: ReadAccess) {
    self.host = host
    self.access = access
    pending = access.reader
  }

  func finished(_ outcome: CommandOutcome, session: Session) {
    pending = SessionReader(
      base: session, revision: host.revision, signer: pending.signer, outbox: pending.outbox,
      shared: pending.shared)
  }

  func publish() throws { access.publish(pending) }
}
