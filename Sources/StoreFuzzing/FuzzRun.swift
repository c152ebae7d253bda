import Foundation
import StoreUtilities

/// Runs a target over generated inputs. A crash ends the process (the input is written to
/// standard error first); an input that runs longer than the hang limit is reported by a
/// watchdog, which then ends the process too.
package struct FuzzRun: Sendable {
  /// What a run did.
  package struct Report: Sendable, CustomStringConvertible {
    /// The target's name.
    package var target: String
    /// Inputs tried.
    package var inputs: Int
    /// Seconds it took.
    package var seconds: Double
    /// The slowest input, in seconds.
    package var slowest: Double

    /// One line: inputs, speed, the slowest input, and that nothing crashed or hung.
    package var description: String {
      "\(target): \(inputs) inputs in \(String(format: "%.1f", seconds)) s "
        + "(\(Int(Double(inputs) / max(seconds, 0.001))) a second; slowest "
        + "\(String(format: "%.1f", slowest * 1000)) ms); 0 crashes, 0 hangs"
    }
  }

  /// What is fuzzed: the configuration parser, the command language …
  package let target: FuzzTarget
  /// The seed of the input generator.
  package let seed: UInt64
  /// How long one input may run before it counts as a hang.
  package var hangLimit: Double = 10
  /// Whether each input is kept where a crash handler can print it (``CurrentInput``); only for
  /// one run at a time in a process.
  package var keepsInputForCrashes = false

  /// A run of `target` from `seed`.
  package init(target: FuzzTarget, seed: UInt64) {
    self.target = target
    self.seed = seed
  }

  /// Tries `count` inputs: the seeds themselves first, then mutations of them.
  package func run(inputs count: Int, progress: ((Int) -> Void)? = nil) -> Report {
    var random = SplitMix64(seed: seed)
    let mutator = Mutator()
    let watchdog = Watchdog(target: target.name, limit: hangLimit)
    let started = Date()
    var slowest = 0.0
    for index in 0..<count {
      let input =
        index < target.seeds.count
        ? target.seeds[index]
        : mutator.input(from: target.seeds, tokens: target.tokens, using: &random)
      if keepsInputForCrashes { CurrentInput.set(target.name, input) }
      let began = Date()
      watchdog.begin(input)
      target.run(input)
      watchdog.end()
      slowest = max(slowest, Date().timeIntervalSince(began))
      if let progress, index % 100_000 == 99_999 { progress(index + 1) }
    }
    watchdog.stop()
    return Report(
      target: target.name, inputs: count, seconds: Date().timeIntervalSince(started),
      slowest: slowest)
  }
}

/// Ends the process when one input runs longer than the limit, printing it. Its thread and
/// the fuzzing loop share the input under way only under a lock.
private final class Watchdog: Sendable {
  private struct Watch {
    var current: [UInt8]?
    var since = Date()
    var stopped = false
  }

  private let watch = Locked(Watch())

  init(target: String, limit: Double) {
    Thread { [self] in
      while true {
        Thread.sleep(forTimeInterval: min(1, limit / 4))
        let now = watch.value
        if now.stopped { return }
        if let input = now.current, Date().timeIntervalSince(now.since) > limit {
          FileHandle.standardError.write(
            Data(
              ("storekeeper-fuzz: \(target): an input ran for more than \(limit) s (a hang): "
                + "\(Data(input).base64EncodedString())\n").utf8))
          exit(2)
        }
      }
    }.start()
  }

  func begin(_ input: [UInt8]) {
    watch.withLock {
      $0.current = input
      $0.since = Date()
    }
  }

  func end() { watch.withLock { $0.current = nil } }

  func stop() { watch.withLock { $0.stopped = true } }
}

/// The input being run, written to standard error if the process crashes on it.
/// `nonisolated(unsafe)`: the crash handler reads it with no lock it could take safely; only
/// runs that ask for crash reports (one fuzzing loop per process) write it.
package enum CurrentInput {
  nonisolated(unsafe) private static var text: [UInt8] = []

  static func set(_ target: String, _ input: [UInt8]) {
    text =
      Array("storekeeper-fuzz: \(target) crashed on the input (base64): ".utf8)
      + Array(Data(input).base64EncodedString().utf8) + [0x0A]
  }

  /// Installs handlers that print the current input on a crash, then let the crash go on.
  package static func reportCrashes() {
    for signal in [SIGILL, SIGTRAP, SIGABRT, SIGSEGV, SIGBUS, SIGFPE] {
      Foundation.signal(signal) { number in
        CurrentInput.text.withUnsafeBytes { _ = write(2, $0.baseAddress, $0.count) }
        Foundation.signal(number, SIG_DFL)
        raise(number)
      }
    }
  }
}
