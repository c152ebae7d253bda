/// Why a verb could not be applied. Nothing changed.
///
/// Its ``reason`` says what was refused and why, typed; its message names the state that
/// forbids the verb (`transaction 7 is already refunded`), and the command layer puts the
/// command in front of it.
public struct SessionError: Error, Equatable, Sendable, CustomStringConvertible {
  /// What was refused and why, with the values a message needs.
  public var reason: Refusal
  /// Close alternatives, such as product IDs that look like a mistyped one.
  public var suggestions: [String]

  /// What is wrong, for a person.
  public var message: String { reason.message }

  /// The refusal of a verb for `reason`.
  public init(_ reason: Refusal, suggestions: [String] = []) {
    self.reason = reason
    self.suggestions = suggestions
  }

  /// The message, with suggestions when there are some.
  public var description: String {
    guard !suggestions.isEmpty else { return message }
    return message + " (did you mean " + suggestions.map { "\"\($0)\"" }.joined(separator: ", ")
      + "?)"
  }
}
