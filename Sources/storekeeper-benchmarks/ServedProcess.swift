import ArgumentParser
import Foundation

/// A `storekeeper serve` the benchmarks start: the release binary on a free port, paused, its
/// standard error thrown away; stopped when the value is done with.
final class ServedProcess {
  let process = Process()
  /// Where it listens.
  let port: Int
  /// How long it took to say so, in seconds.
  let startup: Double

  init(binary: String, _ arguments: [String]) throws {
    process.executableURL = URL(fileURLWithPath: binary)
    process.arguments = ["serve", "--paused", "--port", "0"] + arguments
    let output = Pipe()
    process.standardOutput = output
    process.standardError = FileHandle(forWritingAtPath: "/dev/null")
    let opened = ContinuousClock.now
    try process.run()
    let line = String(decoding: output.fileHandleForReading.availableData, as: UTF8.self)
    guard
      let port = line.split(separator: ":").last.flatMap({
        Int($0.trimmingCharacters(in: .whitespacesAndNewlines))
      })
    else {
      process.terminate()
      throw ValidationError("serve did not say where it listens: \(line)")
    }
    self.port = port
    startup = (ContinuousClock.now - opened).seconds
  }

  deinit {
    process.terminate()
    process.waitUntilExit()
  }
}
