import StoreCommands
import StoreConfiguration
import StoreSimulation

/// Everything the inspector shows and remembers, apart from the session itself, and the one
/// place it changes: ``reduce(_:session:)`` takes an input (a key, a clock tick, a file change,
/// the outcome of an effect) and returns the effects to run (apply a command, journal the
/// clock, reload the configuration, deliver notifications, quit). Nothing here touches a
/// terminal, a file or the wall clock; the views only read it.
package struct InspectorState {
  /// The configuration file being watched.
  package let configurationPath: String
  /// How the TUI looks.
  package var display: DisplayOptions
  /// The live clock.
  package internal(set) var live: LiveClock
  /// The pane with focus.
  package internal(set) var focus: Pane = .transactions
  /// The open dialog or text line, if any.
  package internal(set) var overlay: Overlay?
  /// The status line's message.
  package internal(set) var message: StatusMessage?
  /// Whether the event log is shown.
  package internal(set) var showsLog = false
  /// Whether the inspector fills the screen.
  package internal(set) var zoomed = false
  /// Whose device the inspector shows: the purchaser's (`nil`), or the family member's of that
  /// name (`m` switches).
  package var viewer: String?
  /// The terminal's size at the last frame (clicks are mapped with it).
  package internal(set) var terminalSize = (width: 80, height: 24)
  /// The transactions, the filter and the selection.
  package internal(set) var table: TransactionTable
  var products = ProductList()
  var log = EventLog()
  /// The first line shown in the inspector pane.
  var inspectorTop = 0
  /// The `:` lines run, oldest first.
  var history: [String] = []
  /// The filters kept with Enter, oldest first.
  var filterHistory: [String] = []
  /// What the last step a person took changed (marked in the table and the inspector).
  package internal(set) var changes: StepChanges?
  /// The selected transaction's facts before the step being applied.
  private var pendingBaseline: TransactionFacts?
  /// The session before a step back under way (the app keeps it for the step): what the two
  /// share is not read again.
  package var stepBackBaseline: SessionView?
  /// The configuration file's bytes as last loaded, to notice changes on disk.
  var configurationBytes: [UInt8]
  /// The signed forms made for what the inspector showed, the newest last.
  var signatures: [SignedItem] = []
  /// The customers view as it was when it last closed (`c` opens it there again).
  var customersPlace = CustomersView()
  /// Whether the customer shown was opened from the customers view (Esc goes back to it).
  var returnsToCustomers = false
  /// The transaction to select once the customer being opened is shown.
  var pendingSelection: UInt64?
  /// Set when the person asked to quit.
  package internal(set) var wantsToQuit = false
  /// A `finish all` going on in steps, one a frame.
  package internal(set) var finishing: FinishAllJob?

  /// How many transactions one step of `finish all` finishes: about 8 ms with its frame at a
  /// million rows (`storekeeper-benchmarks inspector`); fewer unfinished ones finish at once.
  package static let finishStep = 10_000

  /// The state of an inspector over a session.
  ///
  /// - Parameters:
  ///   - configurationBytes: the file's bytes as last loaded, to notice changes on disk.
  ///   - clock: running or paused, and the offset of simulated time from the wall clock.
  package init(
    session: SessionView, configurationPath: String, configurationBytes: [UInt8],
    display: DisplayOptions, clock: ClockState
  ) {
    self.configurationPath = configurationPath
    self.configurationBytes = configurationBytes
    self.display = display
    self.live = LiveClock(state: clock, wall: session.now.adding(milliseconds: clock.offset))
    self.table = TransactionTable(session)
    products.rebuild(session)
    // Nothing to inspect yet: start where the first thing to do is (b buys).
    if session.transactionCount == 0 { focus = .products }
    opensOnTheCustomers(session)
  }

  /// A session of many customers (a population's journal) opens on the customers view, not on
  /// whichever customer the journal acted for last; one of a single named customer (an import)
  /// on theirs, saying whose it is.
  private mutating func opensOnTheCustomers(_ session: SessionView) {
    let named = session.customers.count - 1  // the session's own customer has no name
    if named > 1 {
      openCustomers(session)
      let shown = session.customer.name.map { "customer \($0)'s" } ?? "the session's own customer's"
      say("\(named) customers: Enter opens one; Esc shows \(shown) store")
    } else if let name = session.customer.name {
      say("showing customer \(name)'s store (c lists the customers)")
    }
  }

  /// The clock: running or paused, and its offset from the wall clock.
  package internal(set) var clock: ClockState {
    get { live.state }
    set { live.state = newValue }
  }
  /// The wall clock at the last tick or key.
  package var wall: Instant { live.wall }
  /// The catch-up in progress, if the clock is far behind.
  package var catchUp: CatchUp? { live.catchUp }

  /// The transition function: the new state for an input, and what to do about it.
  package mutating func reduce(_ input: InspectorInput, session: SessionView) -> [InspectorEffect] {
    var effects = transition(input, session: session).flatMap {
      personsStep($0, session: session)
    }
    // A person's step: what the selected transaction is made of now, to mark what it changes.
    if effects.contains(where: \.isPersonsStep) {
      pendingBaseline = TransactionFacts(table.selectedID, in: session)
    }
    // `today` and `7d` in the filter are the clock's: they follow it (a catch-up refilters
    // once, at its end).
    if catchUp == nil { table.clockMoved(to: live.now(session), session: session) }
    refreshCustomers(session)
    // What is shown signed, signed once.
    let unsigned = unsigned(in: session)
    if !unsigned.isEmpty { effects.append(.sign(unsigned)) }
    return effects
  }

  private mutating func transition(
    _ input: InspectorInput, session: SessionView
  ) -> [InspectorEffect] {
    switch input {
    case .key(let key, let wall): return handle(key, wall: wall, session: session)
    case .line(let text): return run(line: text)
    case .command(let command): return [Self.apply(command)]
    case .tick(let wall):
      // A `finish all` going on takes its next step first.
      return (finishing.map { [.finishStep($0)] } ?? []) + tick(wall: wall, session: session)
    case .resized(let width, let height):
      terminalSize = (width, height)
      return []
    case .configurationFile(let bytes): return configurationFileChanged(to: bytes)
    case .applied(let request, let events): return applied(request, events, session: session)
    case .served(let commands):
      for served in commands {
        pendingBaseline = nil
        let request = CommandRequest(served.command, success: "served: \(served.command)")
        // Its notifications were sent by the server with the request.
        _ = applied(request, served.events, session: session)
      }
      return []
    case .refused(let request, let error): return refused(request, error)
    case .callAnswered(let request): return [.apply(request)]
    case .deviceSwitched:
      products.rebuild(session)
      table.reload(session)
      say(
        viewer.map { "showing \($0)'s device: what the purchaser shares with them" }
          ?? "showing the purchaser's device")
      return []
    case .reloaded(let bytes, let written):
      configurationBytes = bytes
      products.rebuild(session)
      table.reload(session)
      say(written ? "settings written to \(configurationPath)" : "reloaded \(configurationPath)")
      return []
    case .finishingStarted(let job):
      finishing = job
      return [.finishStep(job)]
    case .finishStepped(let job, let events, let done):
      finishing = done ? nil : job
      let text =
        done
        ? "finished \(job.done) transaction\(job.done == 1 ? "" : "s")"
        : "finishing all: \(job.done) of \(job.total)… (keys work; commands wait until it is done)"
      return applied(CommandRequest(.finish(nil), success: text), events, session: session)
    case .signed(let items):
      keep(items)
      return []
    case .notifications(let lines):
      for line in lines {
        log.append(line.time.map { "\(Formatting.clock($0).suffix(8)) \(line.text)" } ?? line.text)
      }
      if let failed = lines.last(where: \.isFailure) { complain(failed.text) }
      return []
    case .notice(let text):
      say(text)
      log.append(text)
      return []
    case .failed(let text):
      complain(text)
      return []
    }
  }

  /// A person's step as it goes to the effects: refused while `finish all` goes on, and a
  /// `finish all` of many transactions taken in steps.
  private mutating func personsStep(
    _ effect: InspectorEffect, session: SessionView
  ) -> [InspectorEffect] {
    guard effect.isPersonsStep else { return [effect] }
    let request: CommandRequest =
      switch effect {
      case .apply(let request): request
      case .buySigned(let productID, let options, _):
        CommandRequest(.buy(productID: productID, options: options))
      default: CommandRequest(.launch)
      }
    if let job = finishing {
      return refused(
        request,
        CommandError(
          "still finishing all transactions (\(job.done) of \(job.total)); commands wait until "
            + "it is done"))
    }
    if request.command == .finish(nil), session.unfinishedCount > Self.finishStep {
      return [.startFinishingAll]
    }
    return [effect]
  }

  /// A command applied: its events reach the table, the log and the notification hooks.
  private mutating func applied(
    _ request: CommandRequest, _ events: [StoreEvent], session: SessionView
  ) -> [InspectorEffect] {
    if request.origin == .clock { return clockAdvanced(events, session: session) }
    changes = StepChanges(events: events, before: pendingBaseline, session: session)
    pendingBaseline = nil
    if case .stepBack(let kind) = request.command {
      // The session was rebuilt: everything is read again, and the clock waits there (running,
      // it would replay what was just taken back).
      live.stop()
      products.rebuild(session)
      let selected = table.selectedID
      let baseline = stepBackBaseline
      stepBackBaseline = nil
      // What differs from before the step: rows whose label or dates changed back, read again
      // alone when the two sessions share the rest.
      if let baseline, let ids = session.idsThatMayDiffer(from: baseline) {
        changes?.ids = table.stepBack(to: session, rereading: ids)
      } else {
        changes?.ids = table.reloadTellingChanges(session)
      }
      if let selected { table.select(id: selected) }
      let what = kind == .event ? "before the last event" : "before the last command"
      say(
        "stepped back \(what): \(Formatting.clock(session.now)) UTC, clock paused "
          + "(N again goes further; n or space goes on from here)")
      log.append("stepped back \(what) to \(Formatting.clock(session.now))")
      return []
    }
    absorb(events, session: session)
    live.keepAhead(of: session)
    switch request.command {
    case .set, .reset, .declareCommerce: products.rebuild(session)
    case .customer:
      // Another customer's store: their products' states, transactions and own device.
      viewer = nil
      products.rebuild(session)
      table.reload(session)
      if let id = pendingSelection { table.select(id: id) }
      pendingSelection = nil
      say(
        "showing \(session.customer.name.map { "customer \($0)" } ?? "the session's own customer")'s store"
      )
      return []
    case .buy: table.select(visibleIndex: 0)
    default: break
    }
    if case .retention(.show) = request.command {
      say(request.success ?? request.command.description)
      return retentionShown(events, then: request.then, session: session)
        + (events.isEmpty ? [] : [.deliver(events)])
    }
    if case .buy = request.command,
      let outcome = EventSummary.purchaseOutcome(events, session: session)
    {
      message = outcome
    } else {
      say(request.success ?? request.command.description)
    }
    if case .settings(let selected) = overlay, case .set = request.command {
      let item = SettingsPanel.items(session)[selected]
      say("\(item.label): \(item.value)")
    }
    return events.isEmpty ? [] : [.deliver(events)]
  }

  /// A command refused: the engine's reason goes to the status line.
  private mutating func refused(
    _ request: CommandRequest, _ error: CommandError
  ) -> [InspectorEffect] {
    guard request.origin == .person else {
      complain("clock: \(error.explanation)")
      live.stop()
      return []
    }
    complain("\(request.command): \(error.explanation)")
    return []
  }

  /// Events into the table and the log: those the device shown sees (of the customer shown).
  mutating func absorb(_ events: [StoreEvent], session: SessionView, refiltering: Bool = true) {
    let customer = session.customer
    let events = events.filter {
      ($0.customer ?? .own) == customer && $0.isSeen(byMemberNamed: viewer)
    }
    guard !events.isEmpty else { return }
    for event in events.suffix(EventLog.limit) { log.append(event) }
    table.absorb(events, from: session, refiltering: refiltering)
  }

  /// Reloads the catalog when the file's bytes changed; an invalid edit is reported and the
  /// last good catalog stays.
  private mutating func configurationFileChanged(to bytes: [UInt8]) -> [InspectorEffect] {
    guard bytes != configurationBytes else { return [] }
    configurationBytes = bytes
    let result = StoreKitConfiguration.load(bytes)
    guard let configuration = result.usableConfiguration else {
      let first =
        result.diagnostics.first { $0.severity == .error }?.formatted(file: configurationPath) ?? ""
      complain(
        "\(configurationPath) changed but has errors; keeping the last good catalog: \(first)")
      return []
    }
    return [.reload(configuration, bytes: bytes)]
  }

  /// A notice in the status line.
  mutating func say(_ text: String) { message = StatusMessage(text) }

  /// An error in the status line.
  mutating func complain(_ text: String) { message = StatusMessage(text, isError: true) }

  /// A request to apply a command a person asked for.
  static func apply(_ command: Command, success: String? = nil) -> InspectorEffect {
    .apply(CommandRequest(command, success: success))
  }
}
