import Foundation

/// The lines of a script file or of standard input (`-`), read as they come (a person typing
/// into `run -` sees each line's events before typing the next).
public final class ScriptReader {
  private let handle: UnsafeMutablePointer<FILE>?
  private let ownsHandle: Bool

  /// A reader of the script at `path`, or of standard input for `-`.
  ///
  /// - Throws: ``CommandError`` when the file cannot be read (or is a folder).
  public init(path: String) throws(CommandError) {
    if path == "-" {
      handle = fdopen(STDIN_FILENO, "r")
      ownsHandle = false
      return
    }
    var isDirectory: ObjCBool = false
    guard FileManager.default.fileExists(atPath: path, isDirectory: &isDirectory),
      !isDirectory.boolValue,
      let file = fopen(path, "r")
    else { throw CommandError("cannot read the script \(path)") }
    handle = file
    ownsHandle = true
  }

  deinit { if ownsHandle, let handle { fclose(handle) } }

  /// The next line, its ending (LF or CRLF) taken off; `nil` at the end.
  public func next() -> String? {
    var line: UnsafeMutablePointer<CChar>?
    var capacity = 0
    defer { free(line) }
    guard getline(&line, &capacity, handle) >= 0, let line else { return nil }
    let bytes = UnsafeRawBufferPointer(start: line, count: strlen(line))
    return Command.scriptLines(Array(bytes)).first ?? ""
  }
}
