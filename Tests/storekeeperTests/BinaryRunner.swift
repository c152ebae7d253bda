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
  let scratch = FileManager.default.temporaryDirectory.appendingPathComponent(
    "storekeeper-run-\(UUID().uuidString)")
  try FileManager.default.createDirectory(at: scratch, withIntermediateDirectories: true)
  defer { try? FileManager.default.removeItem(at: scratch) }
  let outURL = scratch.appendingPathComponent("out")
  let errURL = scratch.appendingPathComponent("err")
  let inURL = scratch.appendingPathComponent("in")
  _ = FileManager.default.createFile(atPath: outURL.path, contents: nil)
  _ = FileManager.default.createFile(atPath: errURL.path, contents: nil)
  _ = FileManager.default.createFile(atPath: inURL.path, contents: Data((stdin ?? "").utf8))

  let process = Process()
  process.executableURL = URL(fileURLWithPath: path)
  process.arguments = arguments
  process.environment = ProcessInfo.processInfo.environment.merging(environment) { $1 }
  process.currentDirectoryURL = directory
  process.standardOutput = try FileHandle(forWritingTo: outURL)
  process.standardError = try FileHandle(forWritingTo: errURL)
  process.standardInput = try FileHandle(forReadingFrom: inURL)
  try process.run()
  process.waitUntilExit()
  let out = try [UInt8](Data(contentsOf: outURL))
  let err = try Data(contentsOf: errURL)
  return RunResult(
    status: process.terminationStatus, stdout: String(decoding: out, as: UTF8.self),
    stderr: String(decoding: err, as: UTF8.self), stdoutBytes: out)
}
