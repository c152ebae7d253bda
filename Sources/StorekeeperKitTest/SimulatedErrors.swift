internal import StoreCommands
internal import StoreSimulation
public import StorekeeperKit

/// The error a failure stands for (opaque, as StoreKitTest's is).
public struct _SKTestFailureCode: Equatable, Sendable {
  let error: SimulatedError
}

/// A failure a StoreKit API can be made to fail with.
public protocol SKTestFailure: Equatable, Sendable {
  /// The failure of a code.
  init?(_fromErrorCode code: _SKTestFailureCode)
  /// The failure's code.
  var _errorCode: _SKTestFailureCode { get }
}

/// A StoreKit API a test can make fail (`setSimulatedError(_:forAPI:)`).
public protocol FailableStoreKitAPI<Failure>: Sendable {
  /// The failures it can fail with.
  associatedtype Failure: SKTestFailure
}

/// The failures of each API.
public enum SKTestFailures {
  /// `Product.products(for:)`.
  public enum LoadProducts: SKTestFailure, GenericFailure {
    /// A `StoreKitError`.
    case generic(StoreKitError)
  }
  /// `Product.purchase(options:)`.
  public enum Purchase: SKTestFailure {
    /// A `StoreKitError`.
    case generic(StoreKitError)
    /// A `Product.PurchaseError`.
    case purchase(Product.PurchaseError)

    /// The failure of a code.
    public init?(_fromErrorCode code: _SKTestFailureCode) {
      switch code.error {
      case .generic(let generic): self = .generic(StoreKitError(generic))
      case .purchase(let purchase): self = .purchase(Product.PurchaseError(purchase))
      default: return nil
      }
    }
    /// The failure's code.
    public var _errorCode: _SKTestFailureCode {
      switch self {
      case .generic(let error): _SKTestFailureCode(error: .generic(error.code))
      case .purchase(let error): _SKTestFailureCode(error: .purchase(error.code))
      }
    }
  }
  /// Verifying what StoreKit hands the app.
  public enum Verification: SKTestFailure {
    /// A `VerificationResult.VerificationError`.
    case verification(VerificationResult<Any>.VerificationError)

    /// The failure of a code.
    public init?(_fromErrorCode code: _SKTestFailureCode) {
      guard case .verification(let error) = code.error else { return nil }
      self = .verification(.init(code: error))
    }
    /// The failure's code.
    public var _errorCode: _SKTestFailureCode {
      switch self {
      case .verification(let error): _SKTestFailureCode(error: .verification(error.code))
      }
    }
  }
  /// `AppStore.sync()`.
  public enum AppStoreSync: SKTestFailure, GenericFailure {
    /// A `StoreKitError`.
    case generic(StoreKitError)
  }
  /// `Product.SubscriptionInfo.status(for:)`.
  public enum SubscriptionStatus: SKTestFailure, GenericFailure {
    /// A `StoreKitError`.
    case generic(StoreKitError)
  }
  /// `AppTransaction.shared`.
  public enum AppTransaction: SKTestFailure, GenericFailure {
    /// A `StoreKitError`.
    case generic(StoreKitError)
  }
  /// `AppStore.showManageSubscriptions`.
  public enum ManageSubscriptions: SKTestFailure, GenericFailure {
    /// A `StoreKitError`.
    case generic(StoreKitError)
  }
  /// `Transaction.beginRefundRequest`.
  public enum RefundRequest: SKTestFailure {
    /// A `StoreKitError`.
    case generic(StoreKitError)
    /// A `Transaction.RefundRequestError`.
    case refundRequest(StorekeeperKit.Transaction.RefundRequestError)

    /// The failure of a code.
    public init?(_fromErrorCode code: _SKTestFailureCode) {
      switch code.error {
      case .generic(let generic): self = .generic(StoreKitError(generic))
      case .refundRequest(let error):
        self = .refundRequest(error == .duplicateRequest ? .duplicateRequest : .failed)
      default: return nil
      }
    }
    /// The failure's code.
    public var _errorCode: _SKTestFailureCode {
      switch self {
      case .generic(let error): _SKTestFailureCode(error: .generic(error.code))
      case .refundRequest(let error):
        _SKTestFailureCode(
          error: .refundRequest(error == .duplicateRequest ? .duplicateRequest : .failed))
      }
    }
  }
  /// `AppStore.presentOfferCodeRedeemSheet`.
  public enum OfferCodeRedeem: SKTestFailure, GenericFailure {
    /// A `StoreKitError`.
    case generic(StoreKitError)
  }
}

/// A failure that is a `StoreKitError` and nothing else.
public protocol GenericFailure {
  /// The failure of a `StoreKitError`.
  static func generic(_ error: StoreKitError) -> Self
  /// Its `StoreKitError`.
  var storeKitError: StoreKitError { get }
}

extension GenericFailure where Self: SKTestFailure {
  /// The failure of a code.
  public init?(_fromErrorCode code: _SKTestFailureCode) {
    guard case .generic(let generic) = code.error else { return nil }
    self = .generic(StoreKitError(generic))
  }
  /// The failure's code.
  public var _errorCode: _SKTestFailureCode {
    _SKTestFailureCode(error: .generic(storeKitError.code))
  }
  /// Two failures are equal when they stand for the same error.
  public static func == (lhs: Self, rhs: Self) -> Bool { lhs._errorCode == rhs._errorCode }
}

extension SKTestFailures.LoadProducts {
  /// Its `StoreKitError`.
  public var storeKitError: StoreKitError {
    if case .generic(let error) = self { error } else { .unknown }
  }
}
extension SKTestFailures.AppStoreSync {
  /// Its `StoreKitError`.
  public var storeKitError: StoreKitError {
    if case .generic(let error) = self { error } else { .unknown }
  }
}
extension SKTestFailures.SubscriptionStatus {
  /// Its `StoreKitError`.
  public var storeKitError: StoreKitError {
    if case .generic(let error) = self { error } else { .unknown }
  }
}
extension SKTestFailures.AppTransaction {
  /// Its `StoreKitError`.
  public var storeKitError: StoreKitError {
    if case .generic(let error) = self { error } else { .unknown }
  }
}
extension SKTestFailures.ManageSubscriptions {
  /// Its `StoreKitError`.
  public var storeKitError: StoreKitError {
    if case .generic(let error) = self { error } else { .unknown }
  }
}
extension SKTestFailures.OfferCodeRedeem {
  /// Its `StoreKitError`.
  public var storeKitError: StoreKitError {
    if case .generic(let error) = self { error } else { .unknown }
  }
}

extension SKTestFailures.Purchase {
  /// Two failures are equal when they stand for the same error.
  public static func == (lhs: Self, rhs: Self) -> Bool { lhs._errorCode == rhs._errorCode }
}
extension SKTestFailures.Verification {
  /// Two failures are equal when they stand for the same error.
  public static func == (lhs: Self, rhs: Self) -> Bool { lhs._errorCode == rhs._errorCode }
}
extension SKTestFailures.RefundRequest {
  /// Two failures are equal when they stand for the same error.
  public static func == (lhs: Self, rhs: Self) -> Bool { lhs._errorCode == rhs._errorCode }
}

extension StoreKitError {
  /// The engine's code of the error.
  var code: StoreKitErrorCode {
    switch self {
    case .unknown: .unknown
    case .userCancelled: .userCancelled
    case .networkError: .networkError
    case .systemError: .systemError
    case .notAvailableInStorefront: .notAvailableInStorefront
    case .notEntitled: .notEntitled
    case .unsupported: .unsupported
    }
  }

  init(_ code: StoreKitErrorCode) {
    self = SimulatedError.generic(code).storeKitError as? StoreKitError ?? .unknown
  }
}

extension Product.PurchaseError {
  var code: PurchaseErrorCode {
    switch self {
    case .invalidQuantity: .invalidQuantity
    case .productUnavailable: .productUnavailable
    case .purchaseNotAllowed: .purchaseNotAllowed
    case .ineligibleForOffer: .ineligibleForOffer
    case .invalidOfferIdentifier: .invalidOfferIdentifier
    case .invalidOfferPrice: .invalidOfferPrice
    case .invalidOfferSignature: .invalidOfferSignature
    case .missingOfferParameters: .missingOfferParameters
    case .paymentMethodBindingConfigurationRequired: .paymentMethodBindingConfigurationRequired
    // Xcode's table of simulated purchase failures has no multiseat codes [unverified]: the
    // nearest, so that a failure a test builds of them still has one.
    case .multiSeatPurchaseDisabled: .productUnavailable
    case .seatReductionNotAllowed: .invalidQuantity
    }
  }

  init(_ code: PurchaseErrorCode) {
    self =
      SimulatedError.purchase(code).storeKitError as? Product.PurchaseError ?? .productUnavailable
  }
}

extension VerificationResult.VerificationError {
  var code: VerificationErrorCode {
    switch self {
    case .revokedCertificate: .revokedCertificate
    case .invalidCertificateChain: .invalidCertificateChain
    case .invalidDeviceVerification: .invalidDeviceVerification
    case .invalidEncoding: .invalidEncoding
    case .invalidSignature: .invalidSignature
    case .missingRequiredProperties: .missingRequiredProperties
    }
  }

  init(code: VerificationErrorCode) { self.init(code) }
}
