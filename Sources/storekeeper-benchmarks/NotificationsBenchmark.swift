import ArgumentParser
import Foundation

/// `run --notifications` over one subscription renewing every 30 seconds for 30 simulated days
/// (86,401 notifications, each signed and written to its own file): wall time, notifications
/// per second and peak memory. The folder is on tmpfs (`/dev/shm`) when there is one, so that
/// the file system's own costs (ext4's search of recently deleted inodes, after earlier runs)
/// do not hide the program's.
struct NotificationsBenchmark: ParsableCommand {
  static let configuration = CommandConfiguration(
    commandName: "notifications",
    abstract: "Time run --notifications over 86,401 notifications; peak memory.")

  @Option(help: "Simulated days of renewals every 30 seconds (2,880 a day).")
  var days = 30

  @Option(help: "The storekeeper binary.")
  var binary = ".build/release/storekeeper"

  func run() throws {
    let base =
      FileManager.default.fileExists(atPath: "/dev/shm") ? "/dev/shm/" : NSTemporaryDirectory()
    let folder = base + "storekeeper-notifications-\(getpid())"
    try FileManager.default.createDirectory(atPath: folder, withIntermediateDirectories: true)
    defer { try? FileManager.default.removeItem(atPath: folder) }
    try "buy socialfeed.monthly\nadvance \(days)d\n".write(
      toFile: folder + "/script", atomically: true, encoding: .utf8)
    let measured = try timedShell(
      "\(binary) run Configs/FoodTruck.storekit \(folder)/script "
        + "--notifications \(folder)/sent > /dev/null")
    let count = try FileManager.default.contentsOfDirectory(atPath: folder + "/sent").count
    print(
      """
      notifications: \(count) signed and written in \(String(format: "%.2f", measured.time)) s \
      = \(Int(Double(count) / measured.time)) notifications/s; peak memory \(measured.peak)
      """)
  }
}
