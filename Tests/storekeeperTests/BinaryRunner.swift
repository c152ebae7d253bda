import Foundation
import StoreTestSupport

/// What a run of the built `storekeeper` binary produced.
struct RunResult {
  var status: Int32
  var stdout: String
  var stderr: String
  var stdoutBytes: [UInt8]
}

/// The folder holding the built products (the test bundle sits beside the binary).
let productsDirectory: URL = {
  #if os(macOS)
    for bundle in Bundle.allBundles where bundle.bundlePath.hasSuffix(".xctest") {
      return bundle.bundleURL.deletingLastPathComponent()
    }
    fatalError("no .xctest bundle found")
  #else
    return Bundle.main.bundleURL
  #endif
}()

let fixtures = URL(fileURLWithPath: #filePath).deletingLastPathComponent()
  .appendingPathComponent("Fixtures")

/// Runs `storekeeper` with `arguments` in `directory`, feeding `stdin`, and waits for it.
func storekeeper(
  _ arguments: [String], in directory: URL = packageRoot, stdin: String? = nil,
  environment: [String: String] = [:]
) throws -> RunResult {
  try runProcess(
    productsDirectory.appendingPathComponent("storekeeper").path, arguments, in: directory,
    stdin: stdin, environment: environment)
}

/// Runs the program at `path` with `arguments` in `directory`, feeding `stdin`, and waits for it.
func runProcess(
  _ path: String, _ arguments: [String], in directory: URL = packageRoot, stdin: String? = nil,
  environment: [String: String] = [:]
) throws -> RunResult {
  let run = try StartedProcess(
    path, arguments, in: directory, stdin: stdin, environment: environment)
  run.process.waitUntilExit()
  return try run.result()
}

/// Runs `storekeeper` as ``storekeeper(_:in:stdin:environment:)`` does, awaiting its end rather
/// than blocking a thread of the test process's pool (a long run that blocks one starves the
/// async tests beside it: their clocks then measure the wait, not what they test).
func storekeeperAwaiting(
  _ arguments: [String], in directory: URL = packageRoot, stdin: String? = nil
) async throws -> RunResult {
  let run = try StartedProcess(
    productsDirectory.appendingPathComponent("storekeeper").path, arguments, in: directory,
    stdin: stdin, environment: [:])
  await run.ended()
  return try run.result()
}

/// A started process whose standard streams go to files of a scratch folder.
final class StartedProcess {
  let process: Process
  private let scratch: URL

  init(
    _ path: String, _ arguments: [String], in directory: URL, stdin: String?,
    environment: [String: String]
  ) throws {
    scratch = FileManager.default.temporaryDirectory.appendingPathComponent(
      "storekeeper-run-\(UUID().uuidString)")
    try FileManager.default.createDirectory(at: scratch, withIntermediateDirectories: true)
    let outURL = scratch.appendingPathComponent("out")
    let errURL = scratch.appendingPathComponent("err")
    let inURL = scratch.appendingPathComponent("in")
    _ = FileManager.default.createFile(atPath: outURL.path, contents: nil)
    _ = FileManager.default.createFile(atPath: errURL.path, contents: nil)
    _ = FileManager.default.createFile(atPath: inURL.path, contents: Data((stdin ?? "").utf8))
    process = Process()
    process.executableURL = URL(fileURLWithPath: path)
    process.arguments = arguments
    process.environment = ProcessInfo.processInfo.environment.merging(environment) { $1 }
    process.currentDirectoryURL = directory
    process.standardOutput = try FileHandle(forWritingTo: outURL)
    process.standardError = try FileHandle(forWritingTo: errURL)
    process.standardInput = try FileHandle(forReadingFrom: inURL)
    try process.run()
  }

  deinit { try? FileManager.default.removeItem(at: scratch) }

  /// Waits for the process's end without holding a thread.
  func ended() async {
    while process.isRunning { try? await Task.sleep(for: .milliseconds(20)) }
  }

  /// What it wrote, and how it ended.
  func result() throws -> RunResult {
    let out = try [UInt8](Data(contentsOf: scratch.appendingPathComponent("out")))
    let err = try Data(contentsOf: scratch.appendingPathComponent("err"))
    return RunResult(
      status: process.terminationStatus, stdout: String(decoding: out, as: UTF8.self),
      stderr: String(decoding: err, as: UTF8.self), stdoutBytes: out)
  }
}
