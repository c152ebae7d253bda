import ArgumentParser
import Foundation
import StoreCommands
import StoreConfiguration
import StoreSimulation
import StoreTerminal

/// The inspector's first frame, filter keystrokes over many transactions, and idle CPU.
struct Inspector: ParsableCommand {
  static let configuration = CommandConfiguration(
    abstract: "Time the inspector's first frame and filter keystrokes; measure idle CPU.")

  @Option(help: "The storekeeper binary, for the idle-CPU measurement in tmux.")
  var binary = ".build/release/storekeeper"

  @Option(help: "Seconds to watch the idle inspector.")
  var idleSeconds = 10

  func run() throws {
    TextCells.prepareLocale()
    let start = Instant(iso8601: "2026-11-22T02:00:00Z")!
    let clock = ContinuousClock()
    var app: App?
    let firstFrame = clock.measure {
      let loaded = StoreKitConfiguration.load(contentsOf: "Configs/FoodTruck.storekit")
      let configuration = loaded.usableConfiguration!
      let built = App(
        journaled: JournaledSession(
          session: Session(configuration: configuration, start: start), journal: nil),
        configurationPath: "Configs/FoodTruck.storekit",
        configurationBytes: configuration.xcodeFormattedBytes(),
        display: DisplayOptions(color: true, glyphs: .unicode),
        clock: ClockState(running: true, offset: 0))
      _ = built.render(width: 120, height: 40, wall: start)
      app = built
    }
    _ = app
    print(
      "inspector: first frame on the default configuration in \(milliseconds(firstFrame)) (in process)"
    )
    for count in [100_000, 1_000_000] {
      try keystrokes(transactions: count, start: start)
    }
    if idleSeconds > 0 {
      try launchToFirstFrame(start: start)
      try idleCPU()
    }
  }

  /// An inspector over a session made through its own host (so it can step back): a
  /// subscription renewing `transactions` times, then 100 coins.
  static func appWithHistory(
    _ configuration: StoreKitConfiguration, transactions count: Int, start: Instant
  ) throws -> App {
    var app = App(
      journaled: JournaledSession(
        session: Session(configuration: configuration, start: start, options: .unbounded),
        journal: nil),
      configurationPath: "bench.storekit", configurationBytes: [],
      display: DisplayOptions(color: true, glyphs: .unicode),
      clock: ClockState(running: false, offset: 0))
    _ = app.perform(.set(.timeRate(.oneRenewalEveryTwoSeconds)))
    _ = app.perform(.buy(productID: "bench.0", options: PurchaseOptions()))
    _ = app.perform(.advance(.to(start.adding(milliseconds: Int64(count - 1) * 2000))))
    for _ in 0..<100 { _ = app.perform(.buy(productID: "coin", options: PurchaseOptions())) }
    return app
  }

  private func keystrokes(transactions count: Int, start: Instant) throws {
    var configuration = StoreKitConfiguration()
    configuration.products = [
      Product(productID: "coin", type: .consumable, displayPrice: Price("0.99"))
    ]
    configuration.subscriptionGroups = Renewals.configuration(groups: 1).subscriptionGroups
    let options = SessionOptions.unbounded
    var session = Session(configuration: configuration, start: start, options: options)
    session.updateSettings { $0.timeRate = .oneRenewalEveryTwoSeconds }
    try session.buy("bench.0", PurchaseOptions()) { _ in }
    try session.advance(to: start.adding(milliseconds: Int64(count - 1) * 2000)) { _ in }
    for _ in 0..<100 { try session.buy("coin", PurchaseOptions()) { _ in } }
    var app = App(
      journaled: JournaledSession(session: session, journal: nil),
      configurationPath: "bench.storekit",
      configurationBytes: [], display: DisplayOptions(color: true, glyphs: .unicode),
      clock: ClockState(running: false, offset: 0))
    let wall = session.now
    app.handle(.character("/"), wall: wall)
    let clock = ContinuousClock()
    var timings: [Duration] = []
    for character in "product:coin after:2026-11-22" {
      timings.append(
        clock.measure {
          app.handle(.character(character), wall: wall)
          _ = app.render(width: 120, height: 40, wall: wall)
        })
    }
    timings.sort()
    print(
      "inspector: \(session.transactionCount) transactions: a filter keystroke (filter + frame) takes "
        + "median \(milliseconds(timings[timings.count / 2])), worst \(milliseconds(timings.last!))"
    )
    app.handle(.enter, wall: wall)
    try stepsBack(configuration, transactions: count, start: start, wall: wall)
    ticksAndFinishing(&app, unfinished: count)
  }

  /// N: a step back, the table and its marks read again, with its frame (on a session with its
  /// history, as the inspector opens one).
  private func stepsBack(
    _ configuration: StoreKitConfiguration, transactions count: Int, start: Instant, wall: Instant
  ) throws {
    let clock = ContinuousClock()
    var stepping = try Self.appWithHistory(configuration, transactions: count, start: start)
    stepping.handle(.tab, wall: wall)
    var stepsBack: [Duration] = []
    for _ in 0..<5 {
      stepsBack.append(
        clock.measure {
          stepping.handle(.character("N"), wall: wall)
          _ = stepping.render(width: 120, height: 40, wall: wall)
        })
    }
    if let message = stepping.message, message.isError { print("  N refused: \(message.text)") }
    stepsBack.sort()
    print(
      "inspector: \(stepping.session.transactionCount) transactions: a step back (N + frame) "
        + "takes median \(milliseconds(stepsBack[stepsBack.count / 2])), worst "
        + milliseconds(stepsBack.last!))
  }

  /// A renewal falling due on the live clock (the clock's advance command, events into the
  /// table, entitlements, a frame), then F: finishing every unfinished transaction a step a
  /// frame, each with its frame.
  private func ticksAndFinishing(_ app: inout App, unfinished count: Int) {
    let clock = ContinuousClock()
    var ticks: [Duration] = []
    var now = app.session.now
    for _ in 0..<20 {
      now = now.adding(milliseconds: 2000)
      let target = now
      ticks.append(
        clock.measure {
          _ = app.perform(.advance(.to(target)))
          _ = app.render(width: 120, height: 40, wall: target)
        })
    }
    ticks.sort()
    print(
      "inspector: \(app.session.transactionCount) transactions: a renewal tick (advance + table + "
        + "frame) takes median \(milliseconds(ticks[ticks.count / 2])), worst \(milliseconds(ticks.last!))"
    )
    // F: the first step at the key, then a step a frame until done; each with its frame.
    var steps: [Duration] = [
      clock.measure {
        _ = app.perform(.finish(nil))
        _ = app.render(width: 120, height: 40, wall: now)
      }
    ]
    while app.session.unfinishedCount > 0 && steps.count < 1_000 {
      steps.append(
        clock.measure {
          app.tick(wall: now)
          _ = app.render(width: 120, height: 40, wall: now)
        })
    }
    let total = steps.reduce(Duration.zero, +)
    print(
      "inspector: \(app.session.transactionCount) transactions: F (finish all \(count) unfinished) "
        + "in \(steps.count) frames, worst \(milliseconds(steps.max()!)), all \(milliseconds(total))"
    )
  }

  /// Launches the real binary in tmux and polls the pane until the first frame shows: on the
  /// default configuration, and on a journal holding a million transactions (whose loading frame
  /// comes first).
  private func launchToFirstFrame(start: Instant) throws {
    let folder = NSTemporaryDirectory() + "sk-launch-\(getpid())"
    try FileManager.default.createDirectory(atPath: folder, withIntermediateDirectories: true)
    defer { try? FileManager.default.removeItem(atPath: folder) }
    let bytes = [UInt8](FileManager.default.contents(atPath: "Configs/FoodTruck.storekit")!)
    let configuration = StoreKitConfiguration.load(bytes).configuration!
    let journalPath = folder + "/million.journal"
    try writeMillionJournal(
      at: journalPath, configuration: configuration, bytes: bytes, start: start)
    for (name, extra, first, last) in [

      ("the default configuration", "--start 2026-11-22T02:00:00Z", "Products", "Products"),
      (
        "a 1,000,000-transaction journal", "--journal \(journalPath) --paused", "Loading",
        "999999 socialfeed"
      ),
    ] {
      let socket = "sk-launch-\(getpid())"
      let began = Date()
      _ = shell(
        "tmux -L \(socket) -f /dev/null new-session -d -x 120 -y 40 \"XDG_STATE_HOME=\(folder) LANG=C.UTF-8 "
          + "\(binary) Configs/FoodTruck.storekit \(extra)\"")
      var firstFrame: Double?
      var loaded: Double?
      while Date().timeIntervalSince(began) < 20 && loaded == nil {
        let screen = shell("tmux -L \(socket) capture-pane -p -t 0")
        let elapsed = Date().timeIntervalSince(began) * 1000
        if firstFrame == nil && (screen.contains(first) || screen.contains(last)) {
          firstFrame = elapsed
        }
        if screen.contains(last) { loaded = elapsed }
        usleep(2000)
      }
      _ = shell("tmux -L \(socket) kill-server")
      print(
        "inspector: launch to first frame on \(name): \(String(format: "%.0f", firstFrame ?? -1)) ms; "
          + "fully loaded after \(String(format: "%.0f", loaded ?? -1)) ms (tmux start and polling included)"
      )
    }
  }

  /// A journal whose session holds a million transactions; closed (and unlocked) on return.
  private func writeMillionJournal(
    at path: String, configuration: StoreKitConfiguration, bytes: [UInt8], start: Instant
  ) throws {
    var options = SessionOptions()
    options.maximumEventsPerVerb = Int.max / 4
    var journaled = JournaledSession(
      session: Session(configuration: configuration, start: start, options: options),
      journal: try Journal.openOrCreate(
        at: path,
        header: JournalHeader(
          configurationPath: "Configs/FoodTruck.storekit", configuration: bytes, start: start)))
    try journaled.apply(.set(.timeRate(.oneRenewalEveryTwoSeconds))) { _ in }
    try journaled.apply(.buy(productID: "socialfeed.premium.monthly", options: PurchaseOptions())) {
      _ in
    }
    try journaled.apply(.advance(.by(CommandDuration(milliseconds: 999_999 * 2000)))) { _ in }
    try journaled.commit()
  }

  /// Runs the real inspector in tmux with a running clock and reads its CPU time from /proc.
  private func idleCPU() throws {
    let state = NSTemporaryDirectory() + "sk-idle-\(getpid())"
    let socket = "sk-idle-\(getpid())"
    try FileManager.default.createDirectory(atPath: state, withIntermediateDirectories: true)
    defer {
      _ = shell("tmux -L \(socket) kill-server")
      try? FileManager.default.removeItem(atPath: state)
    }
    _ = shell(
      "tmux -L \(socket) -f /dev/null new-session -d -x 120 -y 40 \"XDG_STATE_HOME=\(state) LANG=C.UTF-8 "
        + "\(binary) Configs/FoodTruck.storekit --start 2026-11-22T02:00:00Z\"")
    usleep(1_500_000)
    let pid =
      shell("pgrep -f '\(binary) Configs/FoodTruck.storekit --start'").split(separator: "\n").first
      .map(String.init) ?? ""
    guard let before = cpuTicks(pid) else {
      print("inspector: idle CPU not measured (no process \(pid))")
      return
    }
    usleep(UInt32(idleSeconds) * 1_000_000)
    guard let after = cpuTicks(pid) else { return }
    let ticksPerSecond = Double(sysconf(Int32(_SC_CLK_TCK)))
    let percent = Double(after - before) / ticksPerSecond / Double(idleSeconds) * 100
    print(
      "inspector: idle with the clock running: \(String(format: "%.2f", percent)) % CPU over \(idleSeconds) s"
    )
  }

  private func cpuTicks(_ pid: String) -> Int? {
    guard let text = try? String(contentsOfFile: "/proc/\(pid)/stat", encoding: .utf8),
      let close = text.lastIndex(of: ")")
    else { return nil }
    let fields = text[text.index(after: close)...].split(separator: " ")
    guard fields.count > 13, let user = Int(fields[11]), let system = Int(fields[12]) else {
      return nil
    }
    return user + system
  }

  /// Runs a shell command; output goes through a file, since a tmux server started here would
  /// keep a pipe open forever.
  private func shell(_ command: String) -> String {
    let output = NSTemporaryDirectory() + "sk-shell-\(getpid())"
    _ = system("\(command) > \(output) 2>/dev/null < /dev/null")
    defer { try? FileManager.default.removeItem(atPath: output) }
    return (try? String(contentsOfFile: output, encoding: .utf8)) ?? ""
  }
}

func milliseconds(_ duration: Duration) -> String {
  String(format: "%.2f ms", duration.seconds * 1000)
}
