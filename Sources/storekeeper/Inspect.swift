import ArgumentParser
import Foundation
import StoreCommands
import StoreConfiguration
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

  @Argument(help: "The .storekit configuration.", completion: .file(extensions: ["storekit"]))
  var configurationPath = "Configs/FoodTruck.storekit"

  @Option(help: "Use this journal instead of the configuration's own.")
  var journal: String?

  @Flag(help: "Start a new journal (the old one is kept beside it).")
  var fresh = false

  @Flag(help: "Open with the clock stopped at the journal's last instant.")
  var paused = false

  @Option(help: "A new session's start instant (ISO-8601); the clock runs on from there.")
  var start: String?

  @Flag(help: "No colors (also when NO_COLOR is set).")
  var noColor = false

  @Flag(help: "Plain ASCII drawing characters (also when TERM=dumb).")
  var ascii = false

  @OptionGroup var signing: SigningOptions

  func validate() throws {
    if let start, Instant(iso8601: start) == nil {
      throw ValidationError(
        "--start must be ISO-8601, such as 2026-11-22T02:00:00Z (got \"\(start)\").")
    }
  }

  func run() throws {
    guard isatty(STDOUT_FILENO) == 1, isatty(STDIN_FILENO) == 1 else {
      printError(
        "storekeeper: the transaction inspector needs a terminal. To drive a session from a script, "
          + "use: storekeeper run \(configurationPath) SCRIPT")
      throw ExitCode(1)
    }
    let (configuration, bytes) = try SessionOpening.loadConfiguration(configurationPath)
    let environment = ProcessInfo.processInfo.environment
    let dumb = environment["TERM"] == "dumb"
    let display = DisplayOptions(
      color: !noColor && environment["NO_COLOR"] == nil && !dumb,
      glyphs: ascii || dumb ? .ascii : .unicode)
    let journalPath = try journal ?? SessionOpening.defaultJournal(for: configurationPath)
    let exists = FileManager.default.fileExists(atPath: journalPath)
    if start != nil && exists && !fresh {
      throw ValidationError(
        "--start applies to a new session; \(journalPath) exists (add --fresh).")
    }
    if fresh { try SessionOpening.setAside(journalPath) }
    let prepared = try signing.prepare(interactive: true)

    let terminal: NcursesTerminal
    do {
      terminal = try NcursesTerminal(color: display.color)
    } catch {
      printError("storekeeper: cannot open the terminal (\(error)); use storekeeper run instead.")
      throw ExitCode(1)
    }
    let outcome = runInspector(
      on: terminal, configuration: configuration, bytes: bytes, journalPath: journalPath,
      display: display, signing: prepared)
    // After a normal quit, POSTs still queued get a few seconds; a signal does not wait.
    if case .success(nil) = outcome, let delivery = prepared.delivery, signing.notifyUrl != nil {
      let left = delivery.waitUntilIdle(timeout: 10)
      for result in delivery.takeResults() {
        printError("storekeeper: \(result)".sanitizedForTerminal)
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

  /// Opens the session behind a loading frame and runs the loop; the terminal is restored on
  /// every way out.
  private func runInspector(
    on terminal: NcursesTerminal, configuration: StoreKitConfiguration, bytes: [UInt8],
    journalPath: String, display: DisplayOptions, signing: PreparedSigning
  ) -> Result<Int32?, CommandError> {
    defer { terminal.end() }
    TerminalLoop.drawLoading("Loading \(journalPath) …", on: terminal)
    do throws(CommandError) {
      var app = try openApp(
        configuration: configuration, bytes: bytes, journalPath: journalPath, display: display,
        signing: signing)
      return .success(
        TerminalLoop.run(&app, on: terminal, configurationPath: configurationPath) {
          SessionOpening.wallClock
        })
    } catch {
      return .failure(error)
    }
  }

  private func openApp(
    configuration: StoreKitConfiguration, bytes: [UInt8], journalPath: String,
    display: DisplayOptions, signing: PreparedSigning
  ) throws(CommandError) -> App {
    var options = SessionOptions()
    options.maximumEventsPerVerb = 50_000_000
    let wall = SessionOpening.wallClock
    let resumed = FileManager.default.fileExists(atPath: journalPath)
    var notices: [String] = []
    let journaled = try SessionOpening.journaled(
      configuration: configuration, bytes: bytes, configurationPath: configurationPath,
      journalPath: journalPath, start: start.flatMap(Instant.init(iso8601:)) ?? wall,
      options: options, forWriting: true
    ) { notices.append($0) }
    // Resuming catches up to the wall clock, as Xcode's environment does; a new session runs on
    // from its start.
    let offset = resumed ? 0 : wall.milliseconds - journaled.session.now.milliseconds
    let clock = ClockState(running: !paused, offset: offset)
    var app = App(
      journaled: journaled, configurationPath: configurationPath, configurationBytes: bytes,
      display: display, clock: clock)
    for notice in notices { app.note(notice) }
    app.hooks = signing.inspectorHooks(session: app.session)
    return app
  }
}
