import ArgumentParser
import Foundation
import StoreCommands
import StoreConfiguration
import StoreDelivery
import StoreServer
import StoreSigning
import StoreSimulation
import StoreTerminal

/// `storekeeper [CONFIG]`: the ncurses transaction inspector.
struct Inspect: ParsableCommand {
  static let configuration = CommandConfiguration(
    commandName: "inspect",
    abstract: "Open the transaction inspector (the default command).",
    discussion: """
      Opens the configuration's journal, replays it and catches the clock up to now, the way \
      Xcode's environment delivers renewals that fell due while it was closed. Keys: ? help, \
      / filter, : command, Tab focus, space pause, n next event, q quit.
      """
  )

  @OptionGroup var session: LiveSessionOptions

  @Flag(help: "No colors (also when NO_COLOR is set).")
  var noColor = false

  @Flag(help: "Plain ASCII drawing characters (also when TERM=dumb).")
  var ascii = false

  @OptionGroup var signing: SigningOptions

  @Option(
    help: ArgumentHelp(
      "Also serve the App Store Server API and the control endpoint over this session, as "
        + "storekeeper serve does; each request shows in the event log.",
      valueName: "[host:]port"))
  var serve: ServeAddress?

  @OptionGroup var api: APIOptions

  @Option(
    help: ArgumentHelp(
      "The folder W (call receipt) writes app receipts to; default: the current folder.",
      valueName: "folder"))
  var receipts: String?

  private var configurationPath: String { session.configurationPath }

  func run() throws {
    let environment = ProcessInfo.processInfo.environment
    let term = try terminalType(environment)
    let (configuration, bytes) = try loadConfiguration(configurationPath)
    let display = DisplayOptions(
      color: !noColor && environment["NO_COLOR"] == nil, glyphs: ascii ? .ascii : .unicode)
    let journalPath = try session.preparedJournal()
    let prepared = try signing.prepare(whenFull: .dropOldest)
    // A bad --notify-ca is refused now, before the terminal is taken over.
    let options = signing
    let made = prepared.signer
    let retention = try signing.retentionCaller(
      signer: OnDemand { try made ?? options.makeSigner() })
    // Listening before the terminal is taken over, so that a problem is told plainly. Requests
    // wait in the inbox for the loop, which answers them between two frames.
    let inbox = LoopInbox(wake: { NcursesTerminal.wake() })
    nonisolated(unsafe) var served: ServedSession?
    // What the server's requests applied, with their events (the inspector's own log of the
    // host's commands), read on the loop after each request.
    nonisolated(unsafe) var servedCommands: (() -> [ServedCommand])?
    let reads = ReadSlot()
    let server = try serve.map { address in
      try api.listen(host: address.host, port: address.port) { host, port, timeout in
        try ServedSession.server(
          host: host, port: port, timeout: timeout, patience: 30,
          submit: { work in
            inbox.post(
              {
                work.run()
                let applied = servedCommands?() ?? []
                return applied.isEmpty ? [] : [.served(applied)]
              }, abandon: work.abandon)
          }, session: { served }, reads: { reads.reads },
          log: { record in
            inbox.post {
              [
                .notifications([
                  NotificationLine(text: "served \(record.text)", isFailure: record.isFailure)
                ])
              ]
            }
          })
      }
    }
    let key = try api.loadKey()
    let terminal: NcursesTerminal
    do {
      terminal = try NcursesTerminal(color: display.color)
    } catch {
      try Self.refuseTerminal(term, reason: "\(error)")
    }
    let outcome = runInspector(
      on: terminal, configuration: configuration, bytes: bytes, journalPath: journalPath,
      display: display, signing: prepared, retention: retention
    ) { app, sender in
      app.hooks.background = { inbox.runWaiting() }
      app.hooks.later = { work in
        Task {
          let reported = await work()
          inbox.post { reported }
        }
      }
      guard let server, let signer = try? prepared.signer ?? signing.makeSigner() else { return }
      let session = ServedSession(
        host: app.host, sender: sender, signer: signer, running: false, key: key,
        controlToken: api.controlToken, wall: { wallClock })
      served = session
      servedCommands = app.takeServed
      reads.set(session.reads)
      if key == nil { app.note(APIOptions.anyTokenNotice) }
      let address = serve.map { ServeAddress.url(host: $0.host, port: server.port) } ?? ""
      app.note("serving the App Store Server API on \(address)")
    }
    // Requests still waiting get 503.
    inbox.close("the inspector is quitting")
    server?.close()
    try finish(outcome, outbox: prepared.outbox)
  }

  /// The terminal's type, when the inspector can show in it; else says what to use instead.
  private func terminalType(_ environment: [String: String]) throws -> String {
    let term = environment["TERM"] ?? ""
    guard isatty(STDOUT_FILENO) == 1, isatty(STDIN_FILENO) == 1 else {
      let dumb = term == "dumb" ? " (and TERM=dumb cannot show one)" : ""
      printError(
        "storekeeper: the transaction inspector needs a terminal\(dumb). To drive a session from "
          + "a script, use: storekeeper run \(configurationPath) SCRIPT; to list its "
          + "transactions: storekeeper transactions \(configurationPath)".sanitizedForTerminal)
      throw ExitCode(1)
    }
    if term.isEmpty || term == "dumb" { try Self.refuseTerminal(term) }
    return term
  }

  /// After the inspector: a normal quit gives the deliveries due a few seconds (a signal does
  /// not wait); the exit code says how it ended.
  private func finish(_ outcome: Result<Int32?, CommandError>, outbox: NotificationOutbox?) throws {
    if case .success(nil) = outcome, let outbox, outbox.posts {
      let left = outbox.drain(patience: 5)
      for line in outbox.takeLines() {
        printError("storekeeper: \(line.text)".sanitizedForTerminal)
      }
      if left > 0 { printError("storekeeper: \(left) notifications not POSTed before quitting") }
    }
    switch outcome {
    case .failure(let error):
      printError("storekeeper: \(error)".sanitizedForTerminal)
      throw ExitCode(1)
    case .success(let signal?):
      throw ExitCode(128 + signal)
    case .success(nil):
      return
    }
  }

  /// Says that this terminal cannot show the inspector, and what to use instead; exit 1.
  static func refuseTerminal(_ term: String, reason: String? = nil) throws -> Never {
    let named = term.isEmpty ? "TERM is not set" : "TERM=\(term)"
    let why = reason ?? "it cannot move the cursor"
    printError(
      "storekeeper: the transaction inspector cannot draw on this terminal (\(named): \(why)). "
        + "Set TERM to your terminal's type (such as xterm-256color), or work without the "
        + "inspector: storekeeper run CONFIG SCRIPT applies commands and prints events, "
        + "storekeeper transactions CONFIG lists the session's transactions."
        .sanitizedForTerminal)
    throw ExitCode(1)
  }

  /// Opens the session behind a loading frame, attaches the notification sender, lets `opened`
  /// finish the wiring, and runs the loop; the terminal is restored on every way out.
  private func runInspector(
    on terminal: NcursesTerminal, configuration: StoreKitConfiguration, bytes: [UInt8],
    journalPath: String, display: DisplayOptions, signing: PreparedSigning,
    retention: RealtimeRetention, opened: (inout App, NotificationSender?) -> Void
  ) -> Result<Int32?, CommandError> {
    defer { terminal.end() }
    TerminalLoop.drawLoading(["Loading \(journalPath) …"], on: terminal, display: display)
    let progress = ReplayProgress(path: journalPath, terminal: terminal, display: display)
    var app: App
    switch openApp(
      configuration: configuration, bytes: bytes, journalPath: journalPath, display: display,
      signing: signing, progress: progress)
    {
    case .success(let opened): app = opened
    // The person stopped the replay (q: nil, or a signal).
    case .failure(let error): return progress.stop.map { .success($0) } ?? .failure(error)
    }
    let sender = signing.attachSender(to: app.host)
    if let sender { app.hooks.deliveryLines = PreparedSigning.lines(of: sender) }
    app.host.retentionCaller = retention
    opened(&app, sender)
    var watch = FileWatch(path: configurationPath)
    return .success(TerminalLoop.run(&app, on: terminal, clock: SystemClock(), watching: &watch))
  }

  private func openApp(
    configuration: StoreKitConfiguration, bytes: [UInt8], journalPath: String,
    display: DisplayOptions, signing: PreparedSigning, progress: ReplayProgress
  ) -> Result<App, CommandError> {
    var options = SessionOptions()
    options.maximumEventsPerVerb = 50_000_000
    let wall = wallClock
    let newStart = session.startInstant ?? wall
    var notices: [String] = []
    var journaled: JournaledSession
    do throws(CommandError) {
      journaled = try SessionOpening.journaled(
        configuration: configuration, bytes: bytes, configurationPath: configurationPath,
        journalPath: journalPath, start: newStart, options: options,
        progress: { progress.show(done: $0, of: $1) }
      ) { notices.append($0) }
      try LiveSessionOptions.apply(rate: session.rate, to: &journaled)
    } catch {
      return .failure(error)
    }
    let clock = ClockState(
      opening: journaled, newStart: newStart, wall: wall, running: !session.paused)
    journaled.bundleID = self.signing.journaledBundleID
    var app = App(
      journaled: journaled, configurationPath: configurationPath, configurationBytes: bytes,
      display: display, clock: clock)
    for notice in notices { app.note(notice) }
    let signingOptions = self.signing
    let made = signing.signer
    app.hooks = signing.inspectorHooks(
      app.host, receipts: OnDemand { try made ?? signingOptions.makeSigner() },
      receiptFolder: receipts ?? FileManager.default.currentDirectoryPath)
    return .success(app)
  }
}
