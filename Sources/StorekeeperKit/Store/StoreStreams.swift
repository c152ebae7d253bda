package import StoreCommands
internal import StoreConfiguration
package import StoreSimulation

/// What a command the app or the test asked for came to: the host's outcome, and what the call
/// itself receives (a purchase's result and transaction, a simulated error of the API it
/// called), heard by ``StoreStreams`` as the command ran.
package struct Performed {
  /// The host's outcome: whether the command applied, and why not.
  package var outcome: CommandOutcome
  /// The events the caller itself receives, in order: purchase results and their
  /// transactions, the API calls with their simulated errors.
  package var replies: [StoreEvent]
  /// The last transaction the command made or changed (a purchase outside the app, which
  /// reaches `Transaction.updates`).
  package var lastTransaction: StoreSimulation.Transaction?

  /// Why the command was not applied.
  package var error: CommandError? { outcome.error }
}

/// The store's one observer of its host: every change, whichever way it came (the app's call,
/// the test's `SKTestSession`, a line of the command language, the running clock), reaches the
/// streams the app listens to (`Transaction.updates`, statuses, messages, the storefront) once
/// the journal holds it; and the call that made it hears its own replies.
final class StoreStreams: CommandObserver {
  private unowned let store: Store
  /// Events for the app's streams, waiting for the journal.
  private var pending: [StoreEvent] = []
  private var storefront: StoreConfiguration.Storefront
  private var storefrontChanged = false
  private var replies: [StoreEvent] = []
  private var lastTransaction: StoreSimulation.Transaction?

  init(_ store: Store, storefront: StoreConfiguration.Storefront) {
    self.store = store
    self.storefront = storefront
  }

  func stream(_ events: ArraySlice<StoreEvent>) {
    for event in events {
      switch event.kind {
      case .transaction(let transaction, let delivery):
        lastTransaction = transaction
        if delivery == .purchaseResult { replies.append(event) }
        // A purchase's own transaction too: StoreKit 1's payments reach `Transaction.updates`.
        if delivery != nil { pending.append(event) }
      case .purchaseResult, .apiCall: replies.append(event)
      case .status, .message, .paymentQueue, .restoreCompleted, .revokedEntitlements:
        pending.append(event)
      default: continue
      }
    }
  }

  func finished(_ outcome: CommandOutcome, session: Session) {
    guard session.settings.storefront != storefront else { return }
    storefront = session.settings.storefront
    storefrontChanged = true
  }

  /// A long command's events go out a batch at a time.
  var wantsToPublish: Bool { pending.count >= CommandHost.batchSize }

  func publish() throws {
    let events = pending
    pending = []
    store.dispatch(events)
    store.dispatchToPaymentQueue(events, storefrontChanged: storefrontChanged)
    if storefrontChanged {
      storefrontChanged = false
      store.storefronts.send(Storefront(storefront))
    }
  }

  /// What the command just applied replied to its caller; it keeps nothing after.
  func take(_ outcome: CommandOutcome) -> Performed {
    defer {
      replies = []
      lastTransaction = nil
    }
    return Performed(outcome: outcome, replies: replies, lastTransaction: lastTransaction)
  }
}
