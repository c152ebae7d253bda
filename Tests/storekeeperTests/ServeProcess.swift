import Foundation
import StoreTestSupport
import Testing

/// A running `storekeeper serve --port 0`, its port read from its first line.
final class ServeProcess {
  let process = Process()
  let folder: URL
  let out: URL
  let err: URL
  private(set) var port = 0

  /// Starts `storekeeper serve --port 0 ARGUMENTS`, with at most `descriptors` open files when
  /// given (`ulimit -n`, as macOS's default 256).
  init(_ arguments: [String], descriptors: Int? = nil) throws {
    folder = try temporaryFolder()
    out = folder.appendingPathComponent("out")
    err = folder.appendingPathComponent("err")
    _ = FileManager.default.createFile(atPath: out.path, contents: nil)
    _ = FileManager.default.createFile(atPath: err.path, contents: nil)
    let binary = productsDirectory.appendingPathComponent("storekeeper")
    if let descriptors {
      process.executableURL = URL(fileURLWithPath: "/bin/bash")
      process.arguments =
        [
          "-c", "ulimit -n \(descriptors) && exec \"$0\" serve --port 0 \"$@\"", binary.path,
        ] + arguments
    } else {
      process.executableURL = binary
      process.arguments = ["serve", "--port", "0"] + arguments
    }
    process.environment = ProcessInfo.processInfo.environment.merging([
      "XDG_STATE_HOME": folder.path
    ]) { $1 }
    process.currentDirectoryURL = packageRoot
    process.standardOutput = try FileHandle(forWritingTo: out)
    process.standardError = try FileHandle(forWritingTo: err)
    try process.run()
    let deadline = Date().addingTimeInterval(20)
    while Date() < deadline {
      let text = (try? String(contentsOf: out, encoding: .utf8)) ?? ""
      if let line = text.split(separator: "\n").first, line.hasPrefix("listening on http://"),
        let port = Int(line.split(separator: ":").last ?? "")
      {
        self.port = port
        return
      }
      usleep(50_000)
    }
    Issue.record("serve never said where it listens: \(stderr)")
  }

  var stderr: String { (try? String(contentsOf: err, encoding: .utf8)) ?? "" }

  /// Stops it with SIGTERM; its exit status.
  func stop() -> Int32 {
    process.terminate()
    process.waitUntilExit()
    return process.terminationStatus
  }

  deinit {
    if process.isRunning { process.terminate() }
    try? FileManager.default.removeItem(at: folder)
  }
}
