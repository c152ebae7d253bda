import StoreCommands
import StoreConfiguration
import StoreSimulation

/// The inspector at work: its ``InspectorState``, the journaled session it drives, and the
/// runner of the state's effects. Every input goes through ``send(_:)``: the state reduces it to
/// effects, the effects run (a command through the journal, a reload, a delivery) and report
/// back as inputs, until nothing is left to do.
///
/// Reading the state's members through `app.member` is the same as `app.state.member`.
@dynamicMemberLookup
package struct App {
  /// What the inspector shows and remembers.
  package private(set) var state: InspectorState
  /// The session and its journal.
  package private(set) var journaled: JournaledSession
  /// Signing and server notifications, when the binary supplies them.
  package var hooks = InspectorHooks()
  /// Set when the person asked to quit.
  package private(set) var wantsToQuit = false
  /// A `finish all` going on in steps, one a frame.
  private var finishing: FinishAllJob?

  /// How many transactions one step of `finish all` finishes: about 8 ms with its frame at a
  /// million rows (`storekeeper-benchmarks inspector`); fewer unfinished ones finish at once.
  static let finishStep = 10_000

  /// The inspector over a journaled session.
  ///
  /// - Parameters:
  ///   - configurationBytes: the file's bytes as last loaded, to notice changes on disk.
  ///   - clock: running or paused, and the offset of simulated time from the wall clock.
  package init(
    journaled: JournaledSession, configurationPath: String, configurationBytes: [UInt8],
    display: DisplayOptions, clock: ClockState
  ) {
    self.journaled = journaled
    self.state = InspectorState(
      session: journaled.session, configurationPath: configurationPath,
      configurationBytes: configurationBytes, display: display, clock: clock)
  }

  /// The session.
  package var session: Session { journaled.session }

  /// A member of the state.
  package subscript<Value>(dynamicMember path: KeyPath<InspectorState, Value>) -> Value {
    state[keyPath: path]
  }

  /// A member of the state, set directly (tests arranging a situation).
  subscript<Value>(dynamicMember path: WritableKeyPath<InspectorState, Value>) -> Value {
    get { state[keyPath: path] }
    set { state[keyPath: path] = newValue }
  }

  /// Reduces an input and runs the effects, with what they report, until none is left.
  package mutating func send(_ input: InspectorInput) {
    var pending = [input]
    while !pending.isEmpty {
      let next = pending.removeFirst()
      for effect in state.reduce(next, session: journaled.session) {
        pending += run(effect)
      }
    }
  }

  /// Runs one effect; returns what it reports.
  private mutating func run(_ effect: InspectorEffect) -> [InspectorInput] {
    switch effect {
    case .apply(let request):
      if let job = finishing, request.origin == .person {
        return [
          .refused(
            request,
            CommandError(
              "still finishing all transactions (\(job.done) of \(job.total)); commands wait "
                + "until it is done"))
        ]
      }
      if request.command == .finish(nil), request.origin == .person,
        journaled.session.unfinishedCount > Self.finishStep
      {
        finishing = journaled.startFinishingAll()
        return commit() + finishStep()
      }
      if case .notify(let action) = request.command, let notify = hooks.notify {
        return [.notice(notify(&journaled, action))]
      }
      var before: [InspectorInput] = []
      if request.origin == .person {
        // What the inspector shows now, to mark what the step changes.
        let screen = Screen(state: state, session: journaled.session, hooks: hooks)
        before = [.before(InspectorPane(screen: screen).baseline())]
      }
      var events: [StoreEvent] = []
      do throws(CommandError) {
        try journaled.apply(request.command, from: request.origin) { events.append($0) }
      } catch {
        return [.refused(request, error)]
      }
      return before + [.applied(request, events: events)] + commit()
    case .recordClock:
      journaled.recordClock()
      return commit()
    case .reload(let configuration, let bytes):
      journaled.reload(configuration, bytes: bytes)
      return [.reloaded(bytes: bytes, written: false)] + commit()
    case .writeConfiguration(let configuration):
      let bytes = configuration.xcodeFormattedBytes()
      do {
        try AtomicFile.write(bytes, to: state.configurationPath)
      } catch {
        return [.failed("cannot write \(state.configurationPath): \(error)")]
      }
      journaled.reload(configuration, bytes: bytes)
      return [.reloaded(bytes: bytes, written: true)] + commit()
    case .buySigned(let productID, var options, let tampered):
      let request = CommandRequest(.buy(productID: productID, options: options))
      guard let sign = hooks.signOffer else {
        return [.refused(request, CommandError("offer signatures need the signing module"))]
      }
      switch sign(productID, options, journaled.session) {
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
      if let serve = hooks.serve { return receipts + serve(&journaled, events) }
      guard let lines = hooks.eventsApplied?(events, journaled.session), !lines.isEmpty else {
        return receipts
      }
      return receipts + [.notifications(lines)]
    case .quit:
      wantsToQuit = true
      return []
    }
  }

  /// Flushes the journal; a failure is reported (what was applied stays applied and shown).
  private func commit() -> [InspectorInput] {
    do throws(CommandError) {
      try journaled.commit()
      return []
    } catch {
      return [.failed("journal: \(error.explanation)")]
    }
  }

  // MARK: - Inputs by name

  /// A key press (or click) at a wall-clock instant.
  package mutating func handle(_ key: Key, wall: Instant) { send(.key(key, wall: wall)) }

  /// The wall clock moved: a running clock follows it.
  package mutating func tick(wall: Instant) {
    for input in finishStep() { send(input) }
    send(.tick(wall: wall))
  }

  /// One step of a `finish all` going on, reported as the command applied.
  private mutating func finishStep() -> [InspectorInput] {
    guard var job = finishing else { return [] }
    var events: [StoreEvent] = []
    let done = journaled.continueFinishing(&job, atMost: Self.finishStep) { events.append($0) }
    finishing = done ? nil : job
    let text =
      done
      ? "finished \(job.done) transaction\(job.done == 1 ? "" : "s")"
      : "finishing all: \(job.done) of \(job.total)… (keys work; commands wait until it is done)"
    return [.applied(CommandRequest(.finish(nil), success: text), events: events)]
  }

  /// Applies a command as a person would; `false` when the session refused it.
  @discardableResult
  package mutating func perform(_ command: Command) -> Bool {
    let accepted = command.refusal(in: journaled.session) == nil
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

  /// With `--serve`: answers the requests waiting and records what the deliveries did.
  package mutating func serveWaiting() {
    guard let serve = hooks.serve else { return }
    for input in serve(&journaled, []) { send(input) }
  }

  /// Moves the lines that arrived in the background (webhook deliveries) into the event log.
  package mutating func takeBackgroundLines() {
    guard let lines = hooks.backgroundLines?(), !lines.isEmpty else { return }
    send(.notifications(lines))
  }

  /// Before the program ends (a quit or a signal): the clock's position is journaled, so a
  /// reopened session starts from here.
  package mutating func prepareToQuit() {
    for input in run(.recordClock) { send(input) }
  }

  /// How long the loop may sleep before the clock needs a tick.
  package func sleepMilliseconds(wall: Instant) -> Int {
    if finishing != nil { return 0 }
    return state.live.sleepMilliseconds(wall: wall, session: journaled.session)
  }

  /// The whole screen for a terminal size.
  package func render(width: Int, height: Int, wall: Instant) -> Canvas {
    Screen(state: state, session: journaled.session, hooks: hooks)
      .render(width: width, height: height, wall: wall)
  }
}
