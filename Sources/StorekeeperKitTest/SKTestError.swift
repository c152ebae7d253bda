public import Foundation

/// The domain of ``SKTestError``.
public let SKTestErrorDomain = "SKTestErrorDomain"

/// An error of a test session (StoreKitTest's `SKTestError`): its code and what went wrong.
public struct SKTestError: CustomNSError, Hashable, Error, LocalizedError {
  /// What kind of error.
  public enum Code: Int, Sendable, Equatable, Hashable {
    /// The test service is not available.
    case serviceUnavailable = 0
    /// No such product.
    case invalidProductIdentifier = 1
    /// The product's type does not allow the action.
    case invalidProductType = 2
    /// The URL does not name a usable configuration.
    case invalidURL = 3
    /// The configuration file is not there.
    case fileNotFound = 4
    /// No subscription matches.
    case noSubscriptionFound = 5
    /// No transaction matches.
    case noTransactionFound = 6
    /// The state does not allow the action.
    case invalidAction = 7
  }

  /// Which failure, as `SKTestError.Code` numbers it.
  public let code: Code
  /// What went wrong, for a person (naming the file, the transaction …).
  public let message: String

  /// An error.
  public init(_ code: Code, userInfo: [String: Any] = [:]) {
    self.code = code
    message = userInfo[NSLocalizedDescriptionKey] as? String ?? "\(code)"
  }

  init(_ code: Code, _ message: String) {
    self.code = code
    self.message = message
  }

  /// `SKTestErrorDomain`.
  public static var errorDomain: String { SKTestErrorDomain }
  /// The code's raw value.
  public var errorCode: Int { code.rawValue }
  /// The message under `NSLocalizedDescriptionKey`.
  public var errorUserInfo: [String: Any] { [NSLocalizedDescriptionKey: message] }
  /// The message.
  public var errorDescription: String? { message }

  /// The test service is not available.
  public static var serviceUnavailable: Code { .serviceUnavailable }
  /// No such product.
  public static var invalidProductIdentifier: Code { .invalidProductIdentifier }
  /// The product's type does not allow the action.
  public static var invalidProductType: Code { .invalidProductType }
  /// The URL does not name a usable configuration.
  public static var invalidURL: Code { .invalidURL }
  /// The configuration file is not there.
  public static var fileNotFound: Code { .fileNotFound }
  /// No subscription matches.
  public static var noSubscriptionFound: Code { .noSubscriptionFound }
  /// No transaction matches.
  public static var noTransactionFound: Code { .noTransactionFound }
  /// The state does not allow the action.
  public static var invalidAction: Code { .invalidAction }
}

/// `catch SKTestError.fileNotFound`: an error matches its code.
public func ~= (code: SKTestError.Code, error: any Error) -> Bool {
  (error as? SKTestError)?.code == code
}
