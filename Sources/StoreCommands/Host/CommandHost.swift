import Foundation
import StoreConfiguration
import StoreSimulation
import StoreUtilities

/// Hears what the host does: events as a command makes them, then the command's outcome; and
/// publishes what it made of them (output, notifications) only when the host says the journal
/// holds it. Attached by a front end: the JSON-lines stream of `run`, the notification outbox.
public protocol CommandObserver: AnyObject {
  /// A batch of events, in order. The session is being changed meanwhile: read it in
  /// ``finished(_:session:)``. Nothing may reach the world yet: keep it for ``publish()``.
  func stream(_ events: ArraySlice<StoreEvent>)
  /// A command applied, refused or not understood; the session as it left it.
  func finished(_ outcome: CommandOutcome, session: Session)
  /// Whether it holds something to publish now (a full buffer, notifications to send).
  var wantsToPublish: Bool { get }
  /// A long command is under way: `session` is the state after the events streamed so far, to
  /// finish with them before the command ends (the events of an `advance` over a month of
  /// 30-second renewals are never all kept).
  func checkpoint(_ session: Session)
  /// Publishes what it holds: called only once the journal holds everything that explains it.
  /// It may keep some back to publish with more later (a chunk to sign).
  func publish() throws
  /// Publishes everything it holds, and returns once it is out (the end of a script, a quit).
  func flush() throws
}

extension CommandObserver {
  /// Nothing kept from the stream.
  public func stream(_ events: ArraySlice<StoreEvent>) {}
  /// Nothing waits.
  public var wantsToPublish: Bool { false }
  /// Nothing to finish before the command ends.
  public func checkpoint(_ session: Session) {}
  /// Nothing to publish.
  public func publish() throws {}
  /// Publishing is flushing.
  public func flush() throws { try publish() }
}

/// What a line or a command came to.
public struct CommandOutcome: Sendable {
  /// The command (`nil` for a blank line, a comment, or a line that is not a command).
  public var command: Command?
  /// How many events it made (they went to the host's observers, the only way out).
  public var eventCount = 0
  /// What it cost the engine: its events, and for a step back (`back`, `undo`) the records and
  /// events its replay did again, which make no events of their own. A request's budget counts
  /// this.
  public var work = 0
  /// Why it was not applied: not a command, or refused (the line and its number when known).
  public var error: CommandError?
  /// What the delivery said of a `notify` command.
  public var notice: DeliveryNotice?
  /// Why what the command did could not be published: the journal could not be written, or an
  /// observer could not publish (its output, its notifications). What was applied stays
  /// applied, but the caller must stop (its events past the failure were not handed out).
  public var publishError: CommandError?

  /// Whether the command was applied.
  public var isApplied: Bool { command != nil && error == nil }
  /// Whether it moved the clock (which alone changes nothing the session holds).
  var isAdvance: Bool {
    if case .advance? = command { true } else { false }
  }
}

/// What the notification delivery says of `notify retry` and `set notify-fault …`.
public enum DeliveryNotice: Equatable, Sendable {
  /// This many notifications were sent again.
  case retried(Int)
  /// The fault now in force.
  case fault(NotificationFault)
  /// Nothing delivers notifications here; why.
  case unavailable(String)

  /// For a person: `notify retry: 2 notifications sent again`.
  public var text: String {
    switch self {
    case .retried(let count):
      "notify retry: \(count) notification\(count == 1 ? "" : "s") sent again"
    case .fault(let fault): "notification fault: \(fault.words.joined(separator: " "))"
    case .unavailable(let why): why
    }
  }
}

/// The notification delivery's own commands (`notify retry`, `set notify-fault …`), which
/// change no session.
public protocol DeliveryControl: AnyObject {
  /// Acts on `action` at the session's `now`.
  func perform(_ action: NotifyAction, now: Instant) -> DeliveryNotice
}

/// Calls the developer's Get Retention Message endpoint for the subscription page
/// (`retention show`): the one piece of the customer's side that needs the network. The host
/// never calls it: a front end awaits the call outside the session (``CommandHost/pendingCall(for:)``)
/// and hands the host `retention show` with what came back, which the journal records, so a
/// replay shows the same message without calling anyone.
public protocol RetentionCaller: AnyObject, Sendable {
  /// POSTs the signed request for `request` (signed at `now`) to its URL and returns how it went,
  /// within Apple's wait.
  func exchange(for request: RetentionRequest, at now: Instant) async -> RealtimeExchange
}

/// A call to the developer's server a command needs before it applies (`retention show` with a
/// real-time URL set): awaited outside the session, then ``resolved(_:)`` applied.
public struct RetentionCall: Sendable {
  /// What the subscription page asks, for the customer whose page it is.
  public let request: RetentionRequest
  /// The customer the page is for (the command then acts for them).
  public let customer: String?
  private let now: Instant
  private let caller: any RetentionCaller

  init(
    request: RetentionRequest, customer: String?, now: Instant, caller: any RetentionCaller
  ) {
    self.request = request
    self.customer = customer
    self.now = now
    self.caller = caller
  }

  /// Makes the call (within Apple's wait); never throws: a failure is an outcome.
  public func exchange() async -> RealtimeExchange {
    await caller.exchange(for: request, at: now)
  }

  /// The command that shows the page with what the call came to.
  public static func resolved(_ exchange: RealtimeExchange) -> Command {
    .retention(.show(exchange))
  }
}

/// The one way into a session, for every front end: a line or a command is parsed, the engine
/// says whether it may apply, its journal record is queued, it is applied, and its events go to
/// the observers the front end attached, which are the only way events leave the host. The
/// write-ahead rule lives here and nowhere else: observers publish (print, write files, POST)
/// only after the journal holds, on disk, every record that explains what they publish; a
/// front end that reads its observers' events once a command returned (the inspector, the
/// server, StoreKit's API) reads them committed.
///
/// Used from one thread at a time (the front end's loop or its session's actor).
public final class CommandHost {
  /// The session and its journal.
  public private(set) var journaled: JournaledSession
  /// Whether each command is committed as it ends (outcomes read directly are then on disk);
  /// off, commits wait until an observer has something to publish or ``flush()`` (a script's
  /// thousands of lines share a few `fsync`s).
  public var commitsEachCommand: Bool
  /// Where `notify` commands go.
  public weak var delivery: (any DeliveryControl)?
  /// What calls the real-time URL for `retention show`; without one the page shows the default.
  public var retentionCaller: (any RetentionCaller)?
  private var observers: [any CommandObserver] = []
  /// Counts the changes to what the session holds: a cache of anything read from it (the
  /// server's history order) is good while this stays the same. A quiet clock advance is not a
  /// change.
  public private(set) var revision = 0

  /// How many events are handed to observers at a time during a long command.
  public static let batchSize = 4096

  /// A host of `journaled`.
  public init(_ journaled: JournaledSession, commitsEachCommand: Bool = true) {
    self.journaled = journaled
    self.commitsEachCommand = commitsEachCommand
  }

  /// The session as of the last command applied (committed or not).
  public var session: Session { journaled.session }

  /// The session as `account`'s device sees it (``Session/view(of:)``): the current customer's
  /// is the session itself; another customer's or a member's is made once and kept while the session's ``revision`` and
  /// present stay the same, so a front end that reads it on every frame or call does not
  /// rebuild it.
  public func view(of account: Account) -> SessionView {
    guard account != Account(customer: session.customer) else { return SessionView(session) }
    let key = MemberView.Key(revision: revision, now: session.now, account: account)
    if let kept = memberView, kept.key == key { return kept.view }
    let view = session.view(of: account)
    memberView = MemberView(key: key, view: view)
    return view
  }

  /// The member's view last made, and what it was made from.
  private struct MemberView {
    struct Key: Equatable {
      var revision: Int
      var now: Instant
      var account: Account
    }
    var key: Key
    var view: SessionView
  }
  private var memberView: MemberView?

  /// Adds an observer; observers hear each command in the order they were attached.
  public func attach(_ observer: any CommandObserver) { observers.append(observer) }

  /// Removes an observer (one that listens for a while: a control request's answer).
  public func detach(_ observer: any CommandObserver) { observers.removeAll { $0 === observer } }

  /// Applies a line of the command language (a script's, the prompt's, the control
  /// endpoint's); `number` is its line in a script. An error names the line and the command.
  @discardableResult
  public func perform(line: String, number: Int? = nil) -> CommandOutcome {
    let command: Command?
    do throws(CommandError) {
      command = try Command.parse(line)
    } catch {
      return finish(CommandOutcome(error: error.located(line: number, text: line)))
    }
    guard let command else { return CommandOutcome() }
    return perform(command, line: line, number: number)
  }

  /// Applies a command: the engine is asked, the record journaled, the command applied and its
  /// events handed to the observers (a long command's in batches, published as they fill).
  ///
  /// - Parameter origin: who asked; the live clock's quiet advances are not journaled.
  @discardableResult
  public func perform(_ command: Command, from origin: CommandOrigin = .person) -> CommandOutcome {
    perform(command, from: origin, line: nil, number: nil)
  }

  /// Applies a command that `account`'s device asked for: what the engine refuses a family
  /// member's device (a purchase) is refused as any command is, told to the observers; another
  /// customer's device acts for that customer (``perform(_:for:)``); anything else acts on the
  /// session as ``perform(_:from:)`` does.
  @discardableResult
  public func perform(_ command: Command, as account: Account) -> CommandOutcome {
    if case .verb(let verb)? = try? command.resolved(in: SessionView(session)),
      let refusal = account.refusal(of: verb)
    {
      let error = CommandError(SessionError(refusal), command: command.description)
      return finish(CommandOutcome(command: command, error: error))
    }
    // Another customer's device acts for that customer, addressed: the current one stays.
    if account.isPurchaser, account.customer != session.customer {
      return perform(command, for: account.customer)
    }
    return perform(command)
  }

  /// Applies a command for `customer` (an App Store Server API call about their transaction)
  /// as ``perform(_:from:)`` does: one journal line names them, and whom the session acts as
  /// stays as it was.
  @discardableResult
  public func perform(_ command: Command, for customer: Customer) -> CommandOutcome {
    perform(command, customer: customer, line: nil, number: nil)
  }

  private func perform(
    _ command: Command, from origin: CommandOrigin = .person, customer: Customer? = nil,
    line: String?, number: Int?
  ) -> CommandOutcome {
    var outcome = CommandOutcome(command: command)
    if case .notify(let action) = command {
      outcome.notice =
        delivery?.perform(action, now: session.now)
        ?? .unavailable("no --notify-url or --notifications: nothing is sent")
      return finish(outcome)
    }
    let journal = journaled.journal
    let observers = self.observers
    var batch: [StoreEvent] = []
    var count = 0
    var publishError: CommandError?
    let replayed = journaled.replayWork
    func handOut() {
      guard !batch.isEmpty else { return }
      for observer in observers { observer.stream(batch[...]) }
      batch.removeAll(keepingCapacity: true)
      guard publishError == nil, observers.contains(where: \.wantsToPublish) else { return }
      publishError = Self.publish(observers, after: journal)
    }
    do throws(CommandError) {
      try journaled.apply(
        command, from: origin, for: customer,
        between: { session in
          handOut()
          for observer in observers { observer.checkpoint(session) }
          if publishError == nil, observers.contains(where: \.wantsToPublish) {
            publishError = Self.publish(observers, after: journal)
          }
        }
      ) { event in
        count += 1
        batch.append(event)
        if batch.count >= Self.batchSize { handOut() }
      }
    } catch {
      outcome.error = line.map { error.located(line: number, text: $0) } ?? error
    }
    handOut()
    outcome.eventCount = count
    outcome.work = count + journaled.replayWork - replayed
    outcome.publishError = publishError
    return finish(outcome)
  }

  /// The call to the developer's server `command` needs before it applies: `retention show`
  /// with no exchange yet, when a caller is attached and a real-time URL is set; `nil` for any
  /// other command (it applies as it is; without a URL the page shows the default at once).
  public func pendingCall(for command: Command) -> RetentionCall? {
    guard case .retention(.show(nil)) = command, let caller = retentionCaller,
      let request = try? session.retentionRequest(), request.url != nil
    else { return nil }
    return RetentionCall(
      request: request, customer: session.customer.name, now: session.now, caller: caller)
  }

  /// ``pendingCall(for:)`` of a line of the command language (only a `retention` line is
  /// parsed: a script's other lines cost nothing more).
  public func pendingCall(forLine line: String) -> RetentionCall? {
    guard retentionCaller != nil, line.contains("retention"),
      case .some(.some(let command)) = try? Command.parse(line)
    else { return nil }
    return pendingCall(for: command)
  }

  /// Applies `command` as line `number` of a script whose text was `line` (a `retention show`
  /// resolved after its call): an error names the line and the command.
  @discardableResult
  public func perform(_ command: Command, line: String, number: Int?) -> CommandOutcome {
    perform(command, from: .person, line: line, number: number)
  }

  /// Tells the observers, then publishes what they hold when the host commits each command or
  /// one of them has something to publish.
  private func finish(_ outcome: CommandOutcome) -> CommandOutcome {
    var outcome = outcome
    if outcome.eventCount > 0 || outcome.isApplied && !outcome.isAdvance { revision += 1 }
    for observer in observers { observer.finished(outcome, session: session) }
    if outcome.publishError == nil
      && (commitsEachCommand || observers.contains(where: \.wantsToPublish)
        || journaled.journal?.isPendingFull == true)
    {
      outcome.publishError = Self.publish(observers, after: journaled.journal)
    }
    return outcome
  }

  /// Commits the journal, then lets every observer publish; the journal's error, else the
  /// first observer's that could not publish (every observer is still asked: one's failure
  /// does not keep the others' output back).
  private static func publish(
    _ observers: [any CommandObserver], after journal: Journal?, flushing: Bool = false
  ) -> CommandError? {
    do throws(CommandError) {
      try journal?.commit()
    } catch {
      return error
    }
    var failure: CommandError?
    for observer in observers {
      do {
        if flushing { try observer.flush() } else { try observer.publish() }
      } catch {
        failure = failure ?? (error as? CommandError) ?? CommandError("\(error)")
      }
    }
    return failure
  }

  /// Commits the journal and lets every observer publish what it holds (the end of a script,
  /// an interactive line).
  ///
  /// - Throws: ``CommandError`` when the journal cannot be written (nothing is published).
  public func flush() throws(CommandError) {
    if let error = Self.publish(observers, after: journaled.journal, flushing: true) {
      throw error
    }
  }
  /// Journals where the clock stands, if it moved since the last record (a pause, a quit).
  ///
  /// - Throws: ``CommandError`` when the journal cannot be written.
  public func recordClock() throws(CommandError) {
    journaled.recordClock()
    try flush()
  }

  /// Switches to a changed configuration (reloaded or written back), journaled.
  ///
  /// - Throws: ``CommandError`` when the journal cannot be written.
  public func reload(_ configuration: StoreKitConfiguration, bytes: [UInt8]) throws(CommandError) {
    journaled.reload(configuration, bytes: bytes)
    revision += 1
    try flush()
  }

  /// Starts `finish all` in steps (a million transactions, a frame at a time); the command is
  /// journaled now. ``continueFinishing(_:atMost:)`` hands each step's events out.
  public func startFinishingAll() throws(CommandError) -> FinishAllJob {
    let job = journaled.startFinishingAll()
    try flush()
    return job
  }

  /// Finishes up to `limit` more transactions of a job; the outcome of the step (a `finish
  /// all`), and whether the job is done.
  public func continueFinishing(
    _ job: inout FinishAllJob, atMost limit: Int
  ) -> (outcome: CommandOutcome, done: Bool) {
    var events: [StoreEvent] = []
    let done = journaled.continueFinishing(&job, atMost: limit) { events.append($0) }
    for observer in observers { observer.stream(events[...]) }
    var outcome = CommandOutcome(command: .finish(nil))
    outcome.eventCount = events.count
    return (finish(outcome), done)
  }

  /// Sets the bundle id signed purchases are journaled with.
  public func setBundleID(_ bundleID: String?) { journaled.bundleID = bundleID }
}

extension CommandError {
  /// The error of a line: its number, and the command as written (trimmed) unless the error
  /// names one already. A megabyte line is not echoed whole: the command keeps its first 200
  /// characters and the message its first 1,000 (a message quotes what it refuses).
  func located(line number: Int?, text: String) -> CommandError {
    var located = self
    if let number { located.line = number }
    let command = located.command ?? text.trimmingCharacters(in: .whitespaces)
    located.command = command.cutForEcho(to: 200)
    located.message = located.message.cutForEcho(to: 1000)
    return located
  }
}
