public import Foundation
internal import StoreSimulation

/// The domain of ``SKError``.
public let SKErrorDomain = "SKErrorDomain"

/// An error of StoreKit's original API (StoreKit's `SKError`): a failed payment's
/// `SKPaymentTransaction.error`, a products or receipt request's failure, and the code
/// `SKTestSession.failureError` names. `@unchecked Sendable`: `errorUserInfo` is written once,
/// at `init`, and holds what Foundation's errors hold (strings and errors).
public struct SKError: CustomNSError, Hashable, @unchecked Sendable, LocalizedError {
  /// StoreKit 1's error codes, numbered as `SKErrorDomain` numbers them.
  public enum Code: Int, Sendable, CaseIterable, Equatable, Hashable {
    /// An unknown error (an interrupted purchase fails with it).
    case unknown = 0
    /// The client may not make the request.
    case clientInvalid = 1
    /// The customer cancelled the payment.
    case paymentCancelled = 2
    /// A payment parameter was not recognized.
    case paymentInvalid = 3
    /// The device may not make payments.
    case paymentNotAllowed = 4
    /// The product is not available in the storefront.
    case storeProductNotAvailable = 5
    /// No permission to read cloud service information.
    case cloudServicePermissionDenied = 6
    /// The device could not reach the network.
    case cloudServiceNetworkConnectionFailed = 7
    /// The customer revoked the cloud service permission.
    case cloudServiceRevoked = 8
    /// The customer has not acknowledged Apple's privacy policy.
    case privacyAcknowledgementRequired = 9
    /// The app asked for data it may not have.
    case unauthorizedRequestData = 10
    /// The payment's offer identifier is not one of the product's promotional offers.
    case invalidOfferIdentifier = 11
    /// The payment discount's signature does not verify.
    case invalidSignature = 12
    /// A payment discount parameter is missing.
    case missingOfferParams = 13
    /// The offer's price is not valid.
    case invalidOfferPrice = 14
    /// The customer dismissed an overlay.
    case overlayCancelled = 15
    /// An overlay's configuration is not valid.
    case overlayInvalidConfiguration = 16
    /// An overlay timed out.
    case overlayTimeout = 17
    /// The customer may not redeem the offer.
    case ineligibleForOffer = 18
    /// The platform does not support the request.
    case unsupportedPlatform = 19
    /// An overlay was presented from a background scene.
    case overlayPresentedInBackgroundScene = 20
  }

  /// Which failure.
  public let code: Code
  /// What the error carries under `NSLocalizedDescriptionKey` and other keys.
  public let errorUserInfo: [String: Any]

  /// An error of a code, as Foundation's bridged errors are made (`SKError(.paymentCancelled)`).
  public init(_ code: Code, userInfo: [String: Any] = [:]) {
    self.code = code
    errorUserInfo = userInfo
  }

  /// `SKErrorDomain`.
  public static var errorDomain: String { SKErrorDomain }
  /// The code's number.
  public var errorCode: Int { code.rawValue }
  /// The message under `NSLocalizedDescriptionKey`, else the code's name.
  public var errorDescription: String? {
    errorUserInfo[NSLocalizedDescriptionKey] as? String ?? "SKError \(code.rawValue) (\(code))"
  }

  /// Errors of the same code and message are equal.
  public static func == (lhs: SKError, rhs: SKError) -> Bool {
    lhs.code == rhs.code && lhs.errorDescription == rhs.errorDescription
  }

  /// Hashes the code.
  public func hash(into hasher: inout Hasher) { hasher.combine(code) }

  /// `SKError.unknown`, as `catch SKError.unknown` and `error.code == SKError.unknown` write it.
  public static var unknown: Code { .unknown }
  /// `SKError.clientInvalid`.
  public static var clientInvalid: Code { .clientInvalid }
  /// `SKError.paymentCancelled`.
  public static var paymentCancelled: Code { .paymentCancelled }
  /// `SKError.paymentInvalid`.
  public static var paymentInvalid: Code { .paymentInvalid }
  /// `SKError.paymentNotAllowed`.
  public static var paymentNotAllowed: Code { .paymentNotAllowed }
  /// `SKError.storeProductNotAvailable`.
  public static var storeProductNotAvailable: Code { .storeProductNotAvailable }
  /// `SKError.invalidOfferIdentifier`.
  public static var invalidOfferIdentifier: Code { .invalidOfferIdentifier }
  /// `SKError.invalidSignature`.
  public static var invalidSignature: Code { .invalidSignature }
  /// `SKError.missingOfferParams`.
  public static var missingOfferParams: Code { .missingOfferParams }
  /// `SKError.invalidOfferPrice`.
  public static var invalidOfferPrice: Code { .invalidOfferPrice }
  /// `SKError.ineligibleForOffer`.
  public static var ineligibleForOffer: Code { .ineligibleForOffer }

  /// The error of the engine's code, with a message saying what failed.
  init(_ code: SKErrorCode, _ message: String? = nil) {
    self.init(
      Code(rawValue: code.rawValue) ?? .unknown,
      userInfo: message.map { [NSLocalizedDescriptionKey: $0] } ?? [:])
  }
}

extension SKError.Code {
  /// `catch SKError.paymentCancelled` matches an error of that code.
  public static func ~= (code: SKError.Code, error: any Error) -> Bool {
    (error as? SKError)?.code == code
  }
}
