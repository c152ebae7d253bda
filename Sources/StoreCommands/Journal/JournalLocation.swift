import Foundation

/// Where journals live by default: `$XDG_STATE_HOME/storekeeper/` (or
/// `~/.local/state/storekeeper/`), one journal per configuration path.
public enum JournalLocation {
  /// The folder, created with mode 0700 when missing.
  public static func folder(
    environment: [String: String] = ProcessInfo.processInfo.environment
  )
    throws(CommandError) -> String
  {
    let base: String
    if let state = environment["XDG_STATE_HOME"], state.hasPrefix("/") {
      base = state
    } else {
      let home = environment["HOME"] ?? NSHomeDirectory()
      base = home + "/.local/state"
    }
    let folder = base + "/storekeeper"
    do {
      try FileManager.default.createDirectory(
        atPath: folder, withIntermediateDirectories: true, attributes: [.posixPermissions: 0o700])
    } catch {
      throw CommandError(
        "cannot create the journal folder \(folder): \(error.localizedDescription)")
    }
    return folder
  }

  /// The default journal of a configuration file: its name and a hash of its absolute path,
  /// `FoodTruck-1a2b3c4d.journal`.
  public static func journalPath(
    forConfiguration configurationPath: String,
    environment: [String: String] = ProcessInfo.processInfo.environment
  ) throws(CommandError) -> String {
    let absolute = URL(fileURLWithPath: configurationPath).standardizedFileURL.path
    let name = URL(fileURLWithPath: absolute).deletingPathExtension().lastPathComponent
    let safeName = String(
      name.map { $0.isLetter || $0.isNumber || $0 == "-" || $0 == "_" ? $0 : "_" })
    var hash: UInt32 = 2_166_136_261
    for byte in absolute.utf8 { hash = (hash ^ UInt32(byte)) &* 16_777_619 }
    let suffix = String(hash, radix: 16)
    let padded = String(repeating: "0", count: 8 - suffix.count) + suffix
    return try folder(environment: environment) + "/\(safeName)-\(padded).journal"
  }
}
