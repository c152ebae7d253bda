import StoreCommands
import StoreConfiguration
import StoreSimulation

/// Something that happens to the inspector: a key, the clock, the configuration file, or the
/// outcome of an effect it asked for. ``InspectorState/reduce(_:session:)`` turns each into a
/// new state and the effects to run.
package enum InspectorInput: Sendable {
  /// A key press or click, at a wall-clock instant.
  case key(Key, wall: Instant)
  /// A line of the command language, as typed at the `:` prompt.
  case line(String)
  /// A command, as a person would ask for it.
  case command(Command)
  /// The wall clock moved: a running clock follows it.
  case tick(wall: Instant)
  /// The terminal's size at this frame.
  case resized(width: Int, height: Int)
  /// The configuration file's bytes, read when it changed on disk.
  case configurationFile([UInt8])
  /// A command the state asked for was applied, with its events.
  case applied(CommandRequest, events: [StoreEvent])
  /// Commands a request to the served API applied (`--serve`), with their events; their
  /// notifications went out with the request.
  case served([ServedCommand])
  /// A command the state asked for was refused; nothing changed.
  case refused(CommandRequest, CommandError)
  /// A command that had to ask the developer's server first (`retention show` with a real-time
  /// URL), now with the answer: apply it.
  case callAnswered(CommandRequest)
  /// The configuration changed (reloaded or written back) and is journaled.
  case reloaded(bytes: [UInt8], written: Bool)
  /// `finish all` started in steps (a million transactions, a frame at a time).
  case finishingStarted(FinishAllJob)
  /// A step of `finish all` applied: its events, and whether it is done.
  case finishStepped(FinishAllJob, events: [StoreEvent], done: Bool)
  /// Signed forms made for the inspector (`nil`: not signing, or it failed).
  case signed([SignedItem])
  /// Lines about server notifications (signed, written, POSTed), failures marked.
  case notifications([NotificationLine])
  /// A notice for the status line and the event log.
  case notice(String)
  /// The inspector now shows another account's device (``InspectorState/viewer``).
  case deviceSwitched
  /// Something an effect could not do (write the journal, write the file).
  case failed(String)
}

/// A command a request to the served API applied, with its events.
package struct ServedCommand: Sendable {
  /// The command as the server applied it.
  package var command: Command
  /// The events it caused, in order.
  package var events: [StoreEvent]

  /// A command with its events.
  package init(_ command: Command, events: [StoreEvent]) {
    self.command = command
    self.events = events
  }
}

/// A transaction or renewal info and its signed form, if one was made.
package struct SignedItem: Equatable, Sendable {
  /// What was signed, as it was.
  package var subject: InspectorHooks.Signed
  /// Its JWS, decoded.
  package var form: InspectorHooks.SignedForm?

  /// An item.
  package init(_ subject: InspectorHooks.Signed, _ form: InspectorHooks.SignedForm?) {
    self.subject = subject
    self.form = form
  }
}

/// A command the inspector asks the effects runner to apply, and what to say when it did.
package struct CommandRequest: Equatable, Sendable {
  /// The command that was applied or refused.
  package var command: Command
  /// A person's key or `:` line, or the live clock (journaled only when eventful).
  package var origin: CommandOrigin
  /// The status line after it applied; `nil` keeps the command's own text.
  package var success: String?
  /// What applies after it, if its events say so (`retention show` before `auto-renew … off`:
  /// straight on when the page shows no message).
  package var then: Command?

  /// A request.
  package init(
    _ command: Command, origin: CommandOrigin = .person, success: String? = nil,
    then: Command? = nil
  ) {
    self.command = command
    self.origin = origin
    self.success = success
    self.then = then
  }
}

/// What the inspector asks of the world; ``App`` runs them and reports back as inputs.
package enum InspectorEffect: Equatable, Sendable {
  /// Apply a command through the journal (and commit it); reports ``InspectorInput/applied(_:events:)``
  /// or ``InspectorInput/refused(_:_:)``.
  case apply(CommandRequest)
  /// Journal where the clock stands, if it moved since the last record.
  case recordClock
  /// Switch to a changed configuration file (journaled); reports ``InspectorInput/reloaded(bytes:written:)``.
  case reload(StoreKitConfiguration, bytes: [UInt8])
  /// Write the configuration into its file, then switch to it.
  case writeConfiguration(StoreKitConfiguration)
  /// Hand applied events to the server-notification hooks (signing, files, webhooks).
  case deliver([StoreEvent])
  /// Sign a promotional offer as the app's server would (``InspectorHooks/signOffer``), one
  /// character changed when `tampered`, then buy with it as ``apply(_:)`` does.
  case buySigned(productID: String, PurchaseOptions, tampered: Bool)
  /// Sign these for the inspector (``InspectorHooks/sign``); reports
  /// ``InspectorInput/signed(_:)``.
  case sign([InspectorHooks.Signed])
  /// Show another account's device: the purchaser's (`nil`) or the family member's of that
  /// name; reports ``InspectorInput/deviceSwitched``.
  case switchDevice(String?)
  /// Start `finish all` in steps (journaled now); reports
  /// ``InspectorInput/finishingStarted(_:)``.
  case startFinishingAll
  /// Finish the next ``InspectorState/finishStep`` transactions of a job; reports
  /// ``InspectorInput/finishStepped(_:events:done:)``.
  case finishStep(FinishAllJob)

  /// Whether it is a step a person asked for (its changes are marked).
  var isPersonsStep: Bool {
    switch self {
    case .apply(let request): request.origin == .person
    case .buySigned: true
    default: false
    }
  }
}

/// A line about a server notification for the event log.
package struct NotificationLine: Equatable, Sendable {
  /// When it happened in the session, for lines caused by events.
  package var time: Instant?
  /// What happened.
  package var text: String
  /// Whether it is a failure (shown in the status line too).
  package var isFailure: Bool

  /// A line.
  package init(time: Instant? = nil, text: String, isFailure: Bool) {
    self.time = time
    self.text = text
    self.isFailure = isFailure
  }
}

/// The status line's message.
package struct StatusMessage: Equatable, Sendable {
  /// What it says.
  package var text: String
  /// Whether it reports an error.
  package var isError: Bool

  /// A message.
  package init(_ text: String, isError: Bool = false) {
    self.text = text
    self.isError = isError
  }
}
