/// A StoreKit 1 payment's state, as `SKTestTransaction.state` reports it.
public enum SKPaymentTransactionState: Int, Sendable {
  /// Being processed.
  case purchasing = 0
  /// Bought.
  case purchased = 1
  /// The payment failed; the transaction's error says why.
  case failed = 2
  /// A purchase restored from the customer's history.
  case restored = 3
  /// Waiting (Ask to Buy).
  case deferred = 4
}

/// StoreKit 1's errors, as `SKTestSession.failureError` names them.
public struct SKError: Error, Equatable, Hashable, Sendable {
  /// StoreKit 1's error codes.
  public enum Code: Int, Sendable, CaseIterable {
    case unknown = 0
    case clientInvalid
    case paymentCancelled
    case paymentInvalid
    case paymentNotAllowed
    case storeProductNotAvailable
    case cloudServicePermissionDenied
    case cloudServiceNetworkConnectionFailed
    case cloudServiceRevoked
    case privacyAcknowledgementRequired
    case unauthorizedRequestData
    case invalidOfferIdentifier
    case invalidSignature
    case missingOfferParams
    case invalidOfferPrice
    case overlayCancelled
    case overlayInvalidConfiguration
    case overlayTimeout
    case ineligibleForOffer
    case unsupportedPlatform
    case overlayPresentedInBackgroundScene
  }

  /// Which failure, as `SKError.Code` numbers it.
  public let code: Code

  /// An error of a code.
  public init(_ code: Code) { self.code = code }
}
