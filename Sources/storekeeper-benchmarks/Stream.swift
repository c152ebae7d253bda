import ArgumentParser
import Foundation
import StoreCommands
import StoreConfiguration
import StoreJSON
import StoreSimulation

/// The event stream against the engine that makes it: events per second of the engine alone,
/// of the engine plus JSON encoding, and of `storekeeper run` writing to `/dev/null` (with and
/// without a journal), each with its ratio to the engine, in one run.
struct Stream: ParsableCommand {
  static let configuration = CommandConfiguration(
    abstract: "Compare run's event stream with the engine's speed (ratio to the engine).")

  @Option(help: "How many renewals the advance makes.")
  var renewals = 2_000_000

  @Option(help: "The storekeeper binary.")
  var binary = ".build/release/storekeeper"

  @Option(help: "Keep the generated configuration, script and journal in this folder.")
  var keep: String?

  func run() throws {
    let groups = 4
    let configuration = Renewals.configuration(groups: groups)
    let start = Instant(iso8601: "2026-01-01T00:00:00Z")!
    let end = start.adding(milliseconds: Int64(renewals / groups) * 2000)

    var engineEvents = 0
    let engine = try seconds {
      var session = Self.session(configuration, start: start)
      try session.advance(to: end) { _ in engineEvents += 1 }
    }
    var encoder = EventEncoder()
    var buffer = ByteWriter(capacity: 1 << 20 + 1 << 16)
    var encodedBytes = 0
    let encoding = try seconds {
      var session = Self.session(configuration, start: start)
      try session.advance(to: end) { event in
        encoder.append(event, to: &buffer)
        if buffer.count >= 1 << 20 {
          encodedBytes += buffer.count
          buffer.removeAll()
        }
      }
    }
    encodedBytes += buffer.count

    let folder = keep ?? NSTemporaryDirectory() + "storekeeper-stream-\(getpid())"
    try FileManager.default.createDirectory(atPath: folder, withIntermediateDirectories: true)
    defer { if keep == nil { try? FileManager.default.removeItem(atPath: folder) } }
    try? FileManager.default.removeItem(atPath: folder + "/bench.journal")
    let configurationPath = folder + "/bench.storekit"
    try Data(configuration.xcodeFormattedBytes()).write(
      to: URL(fileURLWithPath: configurationPath))
    let script =
      (0..<groups).map { "buy bench.\($0)\n" }.joined() + "advance \(end.iso8601)\n"
    try script.write(toFile: folder + "/script", atomically: true, encoding: .utf8)
    let common =
      "\(binary) run \(configurationPath) \(folder)/script --start \(start.iso8601) "
      + "--rate oneRenewalEveryTwoSeconds --max-events \(renewals * 4)"
    let plain = try timedShell(common + " > /dev/null").time
    let journaled = try timedShell(common + " --journal \(folder)/bench.journal > /dev/null").time
    let perSecond = Double(engineEvents) / engine
    func line(_ name: String, _ time: Double) -> String {
      let rate = Double(engineEvents) / time
      return "  \(name): \(String(format: "%.2f", rate / 1e6)) million events/s, "
        + "ratio to the engine \(String(format: "%.2f", rate / perSecond))"
    }
    print(
      """
      stream: \(engineEvents) events from \(renewals) renewals in \(groups) groups
        engine alone: \(String(format: "%.2f", perSecond / 1e6)) million events/s
      \(line("engine + JSON encoding (\(encodedBytes >> 20) MiB)", encoding))
      \(line("run > /dev/null", plain))
      \(line("run --journal > /dev/null", journaled))
      """)
  }

  private static func session(_ configuration: StoreKitConfiguration, start: Instant) -> Session {
    let options = SessionOptions.unbounded
    var session = Session(configuration: configuration, start: start, options: options)
    session.updateSettings { $0.timeRate = .oneRenewalEveryTwoSeconds }
    for group in 0..<(configuration.subscriptionGroups?.count ?? 0) {
      try! session.buy("bench.\(group)", PurchaseOptions()) { _ in }
    }
    return session
  }

  private func seconds(_ body: () throws -> Void) rethrows -> Double {
    try ContinuousClock().measure(body).seconds
  }
}
