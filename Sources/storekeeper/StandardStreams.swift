import Foundation

/// Writes a line for a person to standard error.
func printError(_ line: String) {
  FileHandle.standardError.write(Data((line + "\n").utf8))
}

enum StandardStreams {
  /// Writes raw bytes to standard output.
  static func writeOut(_ bytes: [UInt8]) {
    FileHandle.standardOutput.write(Data(bytes))
  }

  /// The bytes of a file, or `nil` when it cannot be read.
  static func contents(of path: String) -> [UInt8]? {
    FileManager.default.contents(atPath: path).map { [UInt8]($0) }
  }
}
