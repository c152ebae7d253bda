public import Foundation

/// An error StoreKit's calls throw (StoreKit's `StoreKitError`).
public enum StoreKitError: Error, Sendable, LocalizedError {
  /// An unknown error.
  case unknown
  /// The customer cancelled.
  case userCancelled
  /// The network failed.
  case networkError(URLError)
  /// The system failed.
  case systemError(any Error)
  /// The product is not available in the storefront.
  case notAvailableInStorefront
  /// The app is not entitled to the request.
  case notEntitled
  /// The request is not supported.
  case unsupported

  /// What went wrong.
  public var errorDescription: String? {
    switch self {
    case .unknown: "An unknown error occurred."
    case .userCancelled: "The user cancelled."
    case .networkError(let error): "A network error occurred: \(error.localizedDescription)"
    case .systemError(let error): "A system error occurred: \(error)"
    case .notAvailableInStorefront: "The product is not available in the current storefront."
    case .notEntitled: "The app is not entitled to make this request."
    case .unsupported: "This request is not supported."
    }
  }
}

/// The App Store (StoreKit's `AppStore`).
public enum AppStore: Sendable {
  /// Where a signed value comes from.
  public struct Environment: RawRepresentable, Equatable, Hashable, Sendable {
    /// `Production`, `Sandbox`, `Xcode`.
    public let rawValue: String
    /// An environment by name.
    public init(rawValue: String) { self.rawValue = rawValue }
    /// The App Store.
    public static let production = Environment(rawValue: "Production")
    /// Apple's sandbox: TestFlight and development builds signed in.
    public static let sandbox = Environment(rawValue: "Sandbox")
    /// Xcode's test environment (and Storekeeper's).
    public static let xcode = Environment(rawValue: "Xcode")
  }

  /// The platform of a purchase.
  public struct Platform: RawRepresentable, Equatable, Hashable, Sendable {
    /// `iOS`, `macOS` …
    public let rawValue: String
    /// A platform by name.
    public init(rawValue: String) { self.rawValue = rawValue }
    /// iOS.
    public static let iOS = Platform(rawValue: "iOS")
    /// macOS.
    public static let macOS = Platform(rawValue: "macOS")
    /// tvOS.
    public static let tvOS = Platform(rawValue: "tvOS")
    /// visionOS.
    public static let visionOS = Platform(rawValue: "visionOS")
    /// A managed device (its wire value, `Managed`, is Storekeeper's guess).
    public static let managed = Platform(rawValue: "Managed")
  }
}
