import ArgumentParser
import Foundation
import StoreTestSupport

/// `simulate --customers 10000 --months 12` with every notification signed and written to its
/// JSON-lines file (or a file each) (and, with `--webhook`, POSTed to a local webhook that answers 200): wall time,
/// notifications and signatures a second, the signatures against `openssl speed -multi <cores>
/// ecdsap256` run beside it, and peak memory. With `--webhook` it also checks that every
/// notification reached the webhook once, in the order the files were written.
struct SimulateBenchmark: ParsableCommand {
  static let configuration = CommandConfiguration(
    commandName: "simulate",
    abstract: "Time simulate with notifications; signatures against openssl; peak memory.")

  @Option(help: "Customers.")
  var customers = 10_000

  @Option(help: "Months.")
  var months = 12

  @Flag(help: "Also POST every notification to a local webhook that answers 200.")
  var webhook = false

  @Flag(help: "Write a numbered file each (--notification-files), not one JSON-lines file.")
  var notificationFiles = false

  @Option(help: "The storekeeper binary.")
  var binary = ".build/release/storekeeper"

  @Option(
    help: """
      Where the notification files go: a folder made (and removed) inside this one. By default \
      memory (/dev/shm); a disk folder counts writing them too.
      """)
  var under: String?

  func run() throws {
    let base =
      under.map { $0.hasSuffix("/") ? $0 : $0 + "/" }
      ?? (FileManager.default.fileExists(atPath: "/dev/shm") ? "/dev/shm/" : NSTemporaryDirectory())
    let folder = base + "storekeeper-simulate-\(getpid())"
    defer { try? FileManager.default.removeItem(atPath: folder) }
    let server = webhook ? try WebhookServer() : nil
    defer { server?.stop() }
    let url = server.map { " --notify-url http://127.0.0.1:\($0.port)/asn" } ?? ""
    let measured = try timedShell(
      "\(binary) simulate Configs/FoodTruck.storekit --customers \(customers) --months \(months) "
        + "--seed 1 --environment LocalTesting --notifications \(folder)\(url)"
        + (notificationFiles ? " --notification-files" : "") + " > /dev/null 2>&1")
    let bodies = try Self.bodies(in: folder)
    var signatures = 0
    var order: [String] = []
    for text in bodies {
      let payload = Self.payload(ofFile: text)
      signatures +=
        1 + (payload.contains("\"signedTransactionInfo\"") ? 1 : 0)
        + (payload.contains("\"signedRenewalInfo\"") ? 1 : 0)
      order.append(Self.uuid(in: payload))
    }
    let cores = ProcessInfo.processInfo.activeProcessorCount
    let openssl = Self.opensslSignsPerSecond(cores: cores)
    let perSecond = Double(signatures) / measured.time
    print(
      """
      simulate: \(customers) customers, \(months) months: \(bodies.count) notifications \
      (\(signatures) signatures) signed and written in \(String(format: "%.2f", measured.time)) s \
      = \(Int(Double(bodies.count) / measured.time)) notifications/s, \(Int(perSecond)) \
      signatures/s; openssl speed -multi \(cores) ecdsap256: \(Int(openssl)) signs/s \
      (ratio \(String(format: "%.2f", perSecond / openssl))); peak memory \(measured.peak)
      """)
    guard let server else { return }
    let delivered = server.requests().map { Self.uuid(in: Self.payload(ofFile: $0.body)) }
    let once = Set(delivered).count == delivered.count
    print(
      "webhook: \(delivered.count) of \(bodies.count) delivered, "
        + (once ? "each once" : "SOME MORE THAN ONCE") + ", "
        + (delivered == order ? "in the order they were made" : "OUT OF ORDER"))
  }

  /// Every notification body in `folder`, in the order they were written: the lines of its
  /// JSON-lines file, or its numbered files by number.
  static func bodies(in folder: String) throws -> [String] {
    let names = try FileManager.default.contentsOfDirectory(atPath: folder).sorted {
      (Int($0.prefix { $0.isNumber }) ?? 0) < (Int($1.prefix { $0.isNumber }) ?? 0)
    }
    return try names.flatMap { name in
      let text = try String(contentsOfFile: folder + "/" + name, encoding: .utf8)
      return name.hasSuffix(".jsonl") ? text.split(separator: "\n").map(String.init) : [text]
    }
  }

  /// The decoded payload of a notification file's (or body's) `signedPayload`.
  static func payload(ofFile text: String) -> String {
    guard let start = text.range(of: "\"signedPayload\":\"")?.upperBound,
      let end = text[start...].firstIndex(of: "\"")
    else { return "" }
    let parts = text[start..<end].split(separator: ".")
    guard parts.count == 3 else { return "" }
    var encoded = String(parts[1]).replacingOccurrences(of: "-", with: "+")
      .replacingOccurrences(of: "_", with: "/")
    while encoded.count % 4 != 0 { encoded += "=" }
    return Data(base64Encoded: encoded).map { String(decoding: $0, as: UTF8.self) } ?? ""
  }

  static func uuid(in payload: String) -> String {
    guard let start = payload.range(of: "\"notificationUUID\":\"")?.upperBound else { return "" }
    return String(payload[start...].prefix(36))
  }

  /// What `openssl speed` signs a second on every core, or 0 when it cannot be run.
  static func opensslSignsPerSecond(cores: Int) -> Double {
    let file = NSTemporaryDirectory() + "storekeeper-openssl-\(getpid())"
    defer { try? FileManager.default.removeItem(atPath: file) }
    guard system("openssl speed -seconds 3 -multi \(cores) ecdsap256 > \(file) 2>/dev/null") == 0,
      let output = try? String(contentsOfFile: file, encoding: .utf8)
    else { return 0 }
    // "256 bits ecdsa (nistp256)   0.0000s   0.0000s 143923.0  49740.7"
    guard let line = output.split(separator: "\n").last(where: { $0.contains("nistp256") }) else {
      return 0
    }
    let fields = line.split(separator: " ")
    return fields.count >= 2 ? Double(fields[fields.count - 2]) ?? 0 : 0
  }
}
