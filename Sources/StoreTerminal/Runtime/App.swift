import StoreCommands
import StoreSimulation
import StoreUtilities

/// The inspector at work: its ``InspectorState``, the host of the session it drives, and the
/// runner of the state's effects. Every input goes through ``send(_:)``: the state reduces it to
/// effects, the effects run (a command through the host, a reload, a receipt written) and
/// report back as inputs, until nothing is left to do.
///
/// Reading the state's members through `app.member` is the same as `app.state.member`.
@dynamicMemberLookup
package struct App {
  /// What the inspector shows and remembers.
  package private(set) var state: InspectorState
  /// The session's one way in (shared with the server under `--serve`; the notification
  /// sender is attached to it).
  package let host: CommandHost
  /// The commands the host applied, with their events: the inspector's own, taken as each
  /// returns, and those another front end applied through the host (``takeServed()``).
  private let applied = AppliedCommands()
  /// Signing, receipts and what happens in the background, when the binary supplies them.
  package var hooks = InspectorHooks()

  /// The inspector over a journaled session.
  ///
  /// - Parameters:
  ///   - configurationBytes: the file's bytes as last loaded, to notice changes on disk.
  ///   - clock: running or paused, and the offset of simulated time from the wall clock.
  package init(
    journaled: JournaledSession, configurationPath: String, configurationBytes: [UInt8],
    display: DisplayOptions, clock: ClockState
  ) {
    self.host = CommandHost(journaled)
    host.attach(applied)
    self.state = InspectorState(
      session: SessionView(journaled.session), configurationPath: configurationPath,
      configurationBytes: configurationBytes, display: display, clock: clock)
  }

  /// The session as the host holds it now.
  package var session: Session { host.session }

  /// The commands another front end (the server) applied through the host since the
  /// inspector last looked, with their events.
  package func takeServed() -> [ServedCommand] {
    applied.take().map { ServedCommand($0.command, events: $0.events) }
  }

  /// The session as the device the inspector shows sees it (``InspectorState/viewer``).
  var viewedSession: SessionView {
    let customer = host.session.customer
    guard let name = state.viewer, let member = host.session.familyMember(named: name) else {
      return host.view(of: Account(customer: customer))
    }
    return host.view(of: Account(customer: customer, member: member))
  }

  /// A member of the state.
  package subscript<Value>(dynamicMember path: KeyPath<InspectorState, Value>) -> Value {
    state[keyPath: path]
  }

  /// Reduces an input and runs the effects, with what they report, until none is left.
  package mutating func send(_ input: InspectorInput) {
    var pending = [input]
    while !pending.isEmpty {
      let next = pending.removeFirst()
      for effect in state.reduce(next, session: viewedSession) {
        pending += run(effect)
      }
      // A step back before the member joined: the purchaser's device again.
      if let name = state.viewer, host.session.familyMember(named: name) == nil {
        pending.append(.deviceSwitched)
        state.viewer = nil
      }
    }
  }

  /// Runs one effect; returns what it reports.
  private mutating func run(_ effect: InspectorEffect) -> [InspectorInput] {
    switch effect {
    case .apply(let request):
      if let call = host.pendingCall(for: request.command), let later = hooks.later {
        return ask(call, for: request, later: later)
      }
      // A step back: the session before it, so that what the two share is not read again.
      if case .stepBack = request.command { state.stepBackBaseline = viewedSession }
      let outcome = host.perform(request.command, from: request.origin)
      if let notice = outcome.notice { return [.notice(notice.text)] }
      if let error = outcome.error {
        state.stepBackBaseline = nil
        return [.refused(request, error)]
      }
      let events = applied.take().last?.events ?? []
      return [.applied(request, events: events)] + failure(outcome.publishError)
    case .switchDevice(let name):
      state.viewer = name
      return [.deviceSwitched]
    case .recordClock:
      return failure { () throws(CommandError) in try host.recordClock() }
    case .reload(let configuration, let bytes):
      return [.reloaded(bytes: bytes, written: false)]
        + failure { () throws(CommandError) in try host.reload(configuration, bytes: bytes) }
    case .writeConfiguration(let configuration):
      let bytes = configuration.xcodeFormattedBytes()
      do {
        try AtomicFile.write(bytes, to: state.configurationPath)
      } catch {
        return [.failed("cannot write \(state.configurationPath): \(error)")]
      }
      return [.reloaded(bytes: bytes, written: true)]
        + failure { () throws(CommandError) in try host.reload(configuration, bytes: bytes) }
    case .buySigned(let productID, var options, let tampered):
      let request = CommandRequest(.buy(productID: productID, options: options))
      guard let sign = hooks.signOffer else {
        return [.refused(request, CommandError("offer signatures need the signing module"))]
      }
      switch sign(productID, options, host.view(of: .purchaser)) {
      case .failure(let error): return [.refused(request, error)]
      case .success(var signature):
        if tampered { signature = signature.tampered }
        options.offerSignature = signature
        return run(.apply(CommandRequest(.buy(productID: productID, options: options))))
      }
    case .deliver(let events):
      // Where each receipt was written, in the status line and the log.
      var receipts: [InspectorInput] = []
      if let issued = hooks.receiptIssued {
        for case .receipt(let contents) in events.lazy.map(\.kind) {
          let line = issued(contents)
          receipts.append(line.isFailure ? .notifications([line]) : .notice(line.text))
        }
      }
      // The notifications the events caused, sent as they were applied.
      guard let lines = hooks.deliveryLines?(), !lines.isEmpty else { return receipts }
      return receipts + [.notifications(lines)]
    case .sign(let subjects):
      return [.signed(subjects.map { SignedItem($0, hooks.sign?($0, host.view(of: .purchaser))) })]
    case .startFinishingAll:
      do throws(CommandError) {
        return [.finishingStarted(try host.startFinishingAll())]
      } catch {
        return failure(error)
      }
    case .finishStep(var job):
      let done = host.continueFinishing(&job, atMost: InspectorState.finishStep).done
      return [.finishStepped(job, events: applied.take().last?.events ?? [], done: done)]
    }
  }

  /// The journal's failure, reported (what was applied stays applied and shown).
  /// Asks the developer's server off the loop; the request applies with the answer when it
  /// comes (within Apple's wait), the inspector going on meanwhile.
  private func ask(
    _ call: RetentionCall, for request: CommandRequest,
    later: (@escaping @Sendable () async -> [InspectorInput]) -> Void
  ) -> [InspectorInput] {
    later {
      var answered = request
      answered.command = RetentionCall.resolved(await call.exchange())
      return [.callAnswered(answered)]
    }
    return [.notice("asking your server for \(call.request.productID)'s retention message…")]
  }

  private func failure(_ error: CommandError?) -> [InspectorInput] {
    error.map { [.failed("journal: \($0.explanation)")] } ?? []
  }

  /// The journal's failure in `body`, reported.
  private func failure(_ body: () throws(CommandError) -> Void) -> [InspectorInput] {
    do throws(CommandError) {
      try body()
      return []
    } catch {
      return failure(error)
    }
  }

  // MARK: - Inputs by name

  /// A key press (or click) at a wall-clock instant.
  package mutating func handle(_ key: Key, wall: Instant) { send(.key(key, wall: wall)) }

  /// The wall clock moved: a running clock follows it (and a `finish all` takes a step).
  package mutating func tick(wall: Instant) { send(.tick(wall: wall)) }

  /// Applies a command as a person would; `false` when the session refused it.
  @discardableResult
  package mutating func perform(_ command: Command) -> Bool {
    let accepted = command.refusal(in: host.view(of: .purchaser)) == nil
    send(.command(command))
    return accepted
  }

  /// Runs a line of the command language, as typed at the `:` prompt.
  package mutating func perform(line: String) { send(.line(line)) }

  /// The configuration file's bytes, read because it changed on disk.
  package mutating func configurationFileChanged(to bytes: [UInt8]) {
    send(.configurationFile(bytes))
  }

  /// Shows a notice in the status line and the event log.
  package mutating func note(_ text: String) { send(.notice(text)) }

  /// Takes in what happened in the background: the work waiting (the requests `--serve`
  /// answers), then what the deliveries did.
  package mutating func takeBackground() {
    for input in hooks.background?() ?? [] { send(input) }
    guard let lines = hooks.deliveryLines?(), !lines.isEmpty else { return }
    send(.notifications(lines))
  }

  /// Before the program ends (a quit or a signal): the clock's position is journaled, so a
  /// reopened session starts from here.
  package mutating func prepareToQuit() {
    for input in run(.recordClock) { send(input) }
  }

  /// How long the loop may sleep before the clock needs a tick.
  package func sleepMilliseconds(wall: Instant) -> Int {
    if state.finishing != nil { return 0 }
    return state.live.sleepMilliseconds(wall: wall, session: host.view(of: .purchaser))
  }

  /// The whole screen for a terminal size.
  package func render(width: Int, height: Int, wall: Instant) -> Canvas {
    Screen(state: state, session: viewedSession, hooks: hooks)
      .render(width: width, height: height, wall: wall)
  }
}
