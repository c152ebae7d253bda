import StoreJSON
import StoreUtilities

/// A problem found in a `.storekit` file: what it is, where it is and how bad.
public struct Diagnostic: Equatable, Sendable {
  /// How bad a problem is.
  public enum Severity: String, Equatable, Sendable {
    /// The file cannot be used as it is: `format` refuses it, the simulator does not load it.
    case error
    /// Xcode-written files do contain this; it is worth knowing, and the file still loads.
    case warning
  }

  /// How bad the problem is.
  public var severity: Severity
  /// What is wrong and, where possible, what was expected.
  public var message: String
  /// The value the problem is about, when it is about one.
  public var path: JSONPath?
  /// The 1-based line, for syntax errors.
  public var line: Int?
  /// The 1-based column, for syntax errors.
  public var column: Int?

  /// Creates a diagnostic.
  public init(
    _ severity: Severity, _ message: String, path: JSONPath? = nil, line: Int? = nil,
    column: Int? = nil
  ) {
    self.severity = severity
    self.message = message
    self.path = path
    self.line = line
    self.column = column
  }

  /// One line in the compiler's shape: `FILE: error: PATH: message`, or
  /// `FILE:LINE:COLUMN: error: message` for syntax errors. Safe to print on a terminal: text
  /// from the file cannot carry control sequences through.
  public func formatted(file: String) -> String {
    var location = file
    if let line {
      location += ":\(line)"
      if let column { location += ":\(column)" }
    }
    var text = "\(location): \(severity.rawValue): "
    if let path, !path.isRoot { text += "\(path): " }
    return (text + message).sanitizedForTerminal
  }

  /// The diagnostic as a JSON object: `severity`, `message`, and `path`, `line`, `column` when
  /// known.
  public var json: JSONValue {
    var object = JSONObject()
    object["severity"] = .string(severity.rawValue)
    if let path { object["path"] = .string(path.description) }
    if let line { object["line"] = .number(JSONNumber(line)) }
    if let column { object["column"] = .number(JSONNumber(column)) }
    object["message"] = .string(message)
    return .object(object)
  }
}

/// Diagnostics collected while reading one file.
struct DiagnosticLog {
  private(set) var entries: [Diagnostic] = []

  mutating func error(_ path: JSONPath?, _ message: String) {
    entries.append(Diagnostic(.error, message, path: path))
  }

  mutating func warning(_ path: JSONPath?, _ message: String) {
    entries.append(Diagnostic(.warning, message, path: path))
  }

  mutating func append(_ diagnostic: Diagnostic) { entries.append(diagnostic) }

  var hasErrors: Bool { entries.contains { $0.severity == .error } }
}
