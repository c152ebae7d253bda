import StoreSimulation

/// Why a line could not be applied: it is not a command, or the session refused it. Nothing
/// changed.
public struct CommandError: Error, Equatable, Sendable, CustomStringConvertible {
  /// What is wrong, for a person.
  public var message: String
  /// Close alternatives (product IDs, verbs, values).
  public var suggestions: [String]
  /// The command as written, when known.
  public var command: String?
  /// The 1-based line of a script, when known.
  public var line: Int?
  /// What the engine refused and why, when the engine refused the line; front ends map it to
  /// their own errors (StoreKitTest's codes, StoreKit's errors).
  public var refusal: Refusal?

  /// Creates an error.
  public init(
    _ message: String, suggestions: [String] = [], command: String? = nil, line: Int? = nil
  ) {
    self.message = message
    self.suggestions = suggestions
    self.command = command
    self.line = line
  }

  /// The engine's refusal as a command's error: its message and suggestions, with the command.
  /// The one place an engine error becomes a command error.
  public init(_ error: SessionError, command: String? = nil) {
    self.init(error.message, suggestions: error.suggestions, command: command)
    refusal = error.reason
  }

  /// The message with its suggestions: `there is no product "x" (did you mean "y"?)`.
  public var explanation: String {
    guard !suggestions.isEmpty else { return message }
    let listed = suggestions.map { "\"\($0)\"" }.joined(separator: ", ")
    return "\(message) (did you mean \(listed)?)"
  }

  /// `line 3: refund 7: transaction 7 is already refunded`.
  public var description: String {
    var text = ""
    if let line { text += "line \(line): " }
    if let command, !command.isEmpty { text += "\(command): " }
    return text + explanation
  }
}
