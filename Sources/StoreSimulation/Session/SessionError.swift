/// Why a verb could not be applied. Nothing changed.
///
/// The message names the state that forbids the verb (`transaction 7 is already refunded`);
/// the command layer puts the command in front of it.
public struct SessionError: Error, Equatable, Sendable, CustomStringConvertible {
  /// `SKTestError.Code`, the test framework's error codes.
  public enum Code: Int, Sendable {
    /// The test service is not available.
    case serviceUnavailable = 0
    /// No such product.
    case invalidProductIdentifier
    /// The product's type does not allow it.
    case invalidProductType
    /// A URL is not valid.
    case invalidURL
    /// The configuration file is missing.
    case fileNotFound
    /// No subscription matches.
    case noSubscriptionFound
    /// No transaction matches.
    case noTransactionFound
    /// The state does not allow it.
    case invalidAction
  }

  /// The test framework's code for the error.
  public var code: Code
  /// What is wrong, for a person.
  public var message: String
  /// Close alternatives, such as product IDs that look like a mistyped one.
  public var suggestions: [String]

  /// Creates an error.
  public init(_ code: Code, _ message: String, suggestions: [String] = []) {
    self.code = code
    self.message = message
    self.suggestions = suggestions
  }

  /// The message, with suggestions when there are some.
  public var description: String {
    guard !suggestions.isEmpty else { return message }
    return message + " (did you mean " + suggestions.map { "\"\($0)\"" }.joined(separator: ", ")
      + "?)"
  }
}
