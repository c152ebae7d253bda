import Foundation
import Testing

/// A child applying commands to a journal is killed with SIGKILL at random moments: every
/// reopened journal replays, and every transaction whose events were printed is in it.
@Suite struct CrashSafetyTests {
  @Test func killedWritersLoseNothingTheyReported() throws {
    let folder = try temporaryFolder()
    defer { try? FileManager.default.removeItem(at: folder) }
    let commands = folder.appendingPathComponent("commands")
    let lines = (0..<400).map {
      $0 % 10 == 9 ? "advance 3s" : "buy foodtruck.donuts.box quantity=\($0 % 3 + 1)"
    }
    try (lines.joined(separator: "\n") + "\n").write(
      to: commands, atomically: true, encoding: .utf8)
    var generator = SystemRandomNumberGenerator()
    var killedMidway = 0
    for round in 0..<20 {
      let journal = folder.appendingPathComponent("r\(round).journal").path
      let output = folder.appendingPathComponent("r\(round).out")
      FileManager.default.createFile(atPath: output.path, contents: nil)
      let process = Process()
      process.executableURL = productsDirectory.appendingPathComponent("storekeeper")
      process.arguments = ["run", "Configs/FoodTruck.storekit", "-", "--journal", journal]
      process.currentDirectoryURL = packageRoot
      process.standardInput = try FileHandle(forReadingFrom: commands)
      process.standardOutput = try FileHandle(forWritingTo: output)
      process.standardError = FileHandle.nullDevice
      try process.run()
      usleep(UInt32.random(in: 20_000...400_000, using: &generator))
      if process.isRunning { killedMidway += 1 }
      kill(process.processIdentifier, SIGKILL)
      process.waitUntilExit()

      let printed = try String(contentsOf: output, encoding: .utf8).split(separator: "\n")
        .compactMap { line -> Int? in
          guard line.contains(#""event":"paymentQueue""#), line.contains(#""state":"purchased""#),
            let range = line.range(of: #""transactionID":"#)
          else { return nil }
          return Int(line[range.upperBound...].prefix { $0.isNumber })
        }
      guard FileManager.default.fileExists(atPath: journal) else {
        #expect(printed.isEmpty, "round \(round): events printed but no journal")
        continue
      }
      let reopened = try storekeeper(
        ["run", "Configs/FoodTruck.storekit", "--journal", journal], stdin: "")
      #expect(reopened.status == 0, "round \(round): \(reopened.stderr)")
      let listed = try storekeeper(
        ["transactions", "Configs/FoodTruck.storekit", "--journal", journal, "--format", "csv"])
      let ids = Set(
        listed.stdout.split(separator: "\n").dropFirst().compactMap {
          Int($0.prefix { $0.isNumber })
        })
      let missing = printed.filter { !ids.contains($0) }
      #expect(missing.isEmpty, "round \(round): printed but not journaled: \(missing)")
    }
    #expect(killedMidway > 0, "no round killed the writer while it worked")
  }
}
