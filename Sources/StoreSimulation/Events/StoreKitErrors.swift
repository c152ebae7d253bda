import StoreConfiguration

/// `StoreKitError`'s cases, in the order StoreKit declares them.
public enum StoreKitErrorCode: String, CaseIterable, Sendable {
  /// An unknown error.
  case unknown
  /// The customer cancelled.
  case userCancelled
  /// The network failed.
  case networkError
  /// The system failed.
  case systemError
  /// The product is not sold in the storefront.
  case notAvailableInStorefront
  /// The app is not entitled to the request.
  case notEntitled
  /// The request is not supported here.
  case unsupported
}

/// `Product.PurchaseError`'s cases, in the order StoreKit declares them.
public enum PurchaseErrorCode: String, CaseIterable, Sendable {
  /// The quantity is out of range.
  case invalidQuantity
  /// The product cannot be bought.
  case productUnavailable
  /// The customer may not make purchases.
  case purchaseNotAllowed
  /// The customer cannot have the offer.
  case ineligibleForOffer
  /// The offer id is not the product's.
  case invalidOfferIdentifier
  /// The offer's price is not valid.
  case invalidOfferPrice
  /// The offer's signature does not verify.
  case invalidOfferSignature
  /// The offer lacks a parameter.
  case missingOfferParameters
  /// The app has not configured the payment method binding the purchase needs (iOS 26.5).
  case paymentMethodBindingConfigurationRequired
}

/// `VerificationResult.VerificationError`'s cases, in the order StoreKit declares them.
public enum VerificationErrorCode: String, CaseIterable, Sendable {
  /// A certificate of the chain was revoked.
  case revokedCertificate
  /// The chain does not verify.
  case invalidCertificateChain
  /// The device verification does not match.
  case invalidDeviceVerification
  /// The JWS is not well-formed.
  case invalidEncoding
  /// The signature does not verify.
  case invalidSignature
  /// A required field is missing.
  case missingRequiredProperties
}

/// `Transaction.RefundRequestError`'s cases.
public enum RefundRequestErrorCode: String, CaseIterable, Sendable {
  /// A refund was already requested.
  case duplicateRequest
  /// The request failed.
  case failed
}

/// An error a StoreKit API can be made to fail with (`SKTestSession.setSimulatedError`).
public enum SimulatedError: Hashable, Sendable, CustomStringConvertible {
  /// A `StoreKitError`.
  case generic(StoreKitErrorCode)
  /// A `Product.PurchaseError`.
  case purchase(PurchaseErrorCode)
  /// A `VerificationResult.VerificationError`.
  case verification(VerificationErrorCode)
  /// A `Transaction.RefundRequestError`.
  case refundRequest(RefundRequestErrorCode)

  /// The error's family as `.storekit` files name it (`generic`, `purchase` …).
  public var family: String {
    switch self {
    case .generic: "generic"
    case .purchase: "purchase"
    case .verification: "verification"
    case .refundRequest: "refundRequest"
    }
  }

  /// The case name, `notEntitled`.
  public var name: String {
    switch self {
    case .generic(let code): code.rawValue
    case .purchase(let code): code.rawValue
    case .verification(let code): code.rawValue
    case .refundRequest(let code): code.rawValue
    }
  }

  /// The Swift type that carries the error.
  public var typeName: String {
    switch self {
    case .generic: "StoreKitError"
    case .purchase: "Product.PurchaseError"
    case .verification: "VerificationResult.VerificationError"
    case .refundRequest: "Transaction.RefundRequestError"
    }
  }

  /// `generic(networkError)`.
  public var description: String { "\(family)(\(name))" }

  /// Every error, for completion and lookup by name.
  public static let all: [SimulatedError] =
    StoreKitErrorCode.allCases.map { .generic($0) }
    + PurchaseErrorCode.allCases.map { .purchase($0) }
    + VerificationErrorCode.allCases.map { .verification($0) }
    + RefundRequestErrorCode.allCases.map { .refundRequest($0) }

  /// An error by case name (`networkError`) or qualified (`purchase.productUnavailable`,
  /// `generic(unknown)`).
  public init?(name: String) {
    let cleaned = name.replacingOccurrences(of: "(", with: ".").replacingOccurrences(
      of: ")", with: "")
    let parts = cleaned.split(separator: ".").map(String.init)
    let candidates = SimulatedError.all.filter {
      parts.count == 2 ? ($0.family == parts[0] && $0.name == parts[1]) : $0.name == cleaned
    }
    guard let match = candidates.first else { return nil }
    self = match
  }

  /// The error a `.storekit` file selects: `{"index" : 2, "type" : "generic"}`. The index is the
  /// position in the family's list in StoreKit's declaration order (an unverified mapping).
  init?(family: String, index: Int) {
    func pick<T: CaseIterable>(_ type: T.Type) -> T? {
      let all = Array(T.allCases)
      return all.indices.contains(index) ? all[index] : nil
    }
    switch family {
    case "generic":
      guard let code = pick(StoreKitErrorCode.self) else { return nil }; self = .generic(code)
    case "purchase":
      guard let code = pick(PurchaseErrorCode.self) else { return nil }; self = .purchase(code)
    case "verification":
      guard let code = pick(VerificationErrorCode.self) else { return nil }
      self = .verification(code)
    case "refundRequest":
      guard let code = pick(RefundRequestErrorCode.self) else { return nil }
      self = .refundRequest(code)
    default: return nil
    }
  }

  /// The SK1 `SKError.Code` an SK1 payment fails with for this error.
  var skErrorCode: SKErrorCode {
    switch self {
    case .generic(.userCancelled): .paymentCancelled
    case .generic: .unknown
    case .purchase(.invalidQuantity): .paymentInvalid
    case .purchase(.productUnavailable): .storeProductNotAvailable
    case .purchase(.purchaseNotAllowed): .paymentNotAllowed
    case .purchase(.ineligibleForOffer): .ineligibleForOffer
    case .purchase(.invalidOfferIdentifier): .invalidOfferIdentifier
    case .purchase(.invalidOfferPrice): .invalidOfferPrice
    case .purchase(.invalidOfferSignature): .invalidSignature
    case .purchase(.missingOfferParameters): .missingOfferParams
    case .purchase(.paymentMethodBindingConfigurationRequired): .unknown
    case .verification, .refundRequest: .unknown
    }
  }
}

/// SK1's `SKError.Code` (domain `SKErrorDomain`).
public enum SKErrorCode: Int, CaseIterable, Sendable {
  /// An unknown error.
  case unknown = 0
  /// The client may not make the request.
  case clientInvalid
  /// The customer cancelled.
  case paymentCancelled
  /// A payment parameter was not recognized.
  case paymentInvalid
  /// The device may not make payments.
  case paymentNotAllowed
  /// The product is not available in the storefront.
  case storeProductNotAvailable
  /// No access to cloud service information.
  case cloudServicePermissionDenied
  /// The device could not reach the network.
  case cloudServiceNetworkConnectionFailed
  /// Cloud service permission was revoked.
  case cloudServiceRevoked
  /// The customer has not acknowledged Apple's privacy policy.
  case privacyAcknowledgementRequired
  /// The app asked for data it may not have.
  case unauthorizedRequestData
  /// The offer id is not valid.
  case invalidOfferIdentifier
  /// The offer's signature is not valid.
  case invalidSignature
  /// An offer parameter is missing.
  case missingOfferParams
  /// The offer's price is not valid.
  case invalidOfferPrice
  /// The customer dismissed the overlay.
  case overlayCancelled
  /// The overlay's configuration is not valid.
  case overlayInvalidConfiguration
  /// The overlay timed out.
  case overlayTimeout
  /// The customer cannot have the offer.
  case ineligibleForOffer
  /// The platform does not support it.
  case unsupportedPlatform
  /// The overlay was presented in a background scene.
  case overlayPresentedInBackgroundScene

  /// The codes `SKTestSession.failureError` accepts.
  public static let failureErrors: [SKErrorCode] = [
    .unknown, .invalidOfferIdentifier, .invalidSignature, .missingOfferParams, .invalidOfferPrice,
  ]

  /// The case name.
  public var name: String { "\(self)" }

  /// A code by case name or raw value.
  public init?(name: String) {
    if let raw = Int(name) {
      self.init(rawValue: raw)
      return
    }
    guard let match = Self.allCases.first(where: { $0.name == name }) else { return nil }
    self = match
  }

  /// The StoreKit 2 error a legacy failing transaction throws.
  var simulatedError: SimulatedError {
    switch self {
    case .invalidOfferIdentifier: .purchase(.invalidOfferIdentifier)
    case .invalidSignature: .purchase(.invalidOfferSignature)
    case .missingOfferParams: .purchase(.missingOfferParameters)
    case .invalidOfferPrice: .purchase(.invalidOfferPrice)
    case .paymentCancelled: .generic(.userCancelled)
    default: .generic(.unknown)
    }
  }
}

/// The nine StoreKit APIs whose failure can be simulated (`FailableStoreKitAPI`).
public enum StoreKitAPI: String, CaseIterable, Sendable {
  /// `Product.products(for:)`.
  case loadProducts
  /// `Product.purchase()`.
  case purchase
  /// Transaction verification.
  case verification
  /// `AppStore.sync()`.
  case appStoreSync
  /// `Product.SubscriptionInfo.status`.
  case subscriptionStatus
  /// `AppTransaction.shared`.
  case appTransaction
  /// The manage-subscriptions sheet.
  case manageSubscriptions
  /// `Transaction.beginRefundRequest`.
  case refundRequest
  /// The offer-code redemption sheet.
  case offerCodeRedeem

  /// The category's name in `.storekit` files (`_storeKitErrors[].name`).
  public var configurationName: String {
    StoreConfiguration.StoreKitErrorSetting.categories[Self.allCases.firstIndex(of: self)!]
  }

  /// The API for a `.storekit` category name.
  public init?(configurationName: String) {
    guard
      let index = StoreConfiguration.StoreKitErrorSetting.categories.firstIndex(
        of: configurationName)
    else { return nil }
    self = Self.allCases[index]
  }

  /// Whether `error` is one this API can fail with.
  public func accepts(_ error: SimulatedError) -> Bool {
    switch (self, error) {
    case (.verification, .verification): true
    case (.verification, _): false
    case (_, .verification): false
    case (.purchase, .purchase), (_, .generic): true
    case (.refundRequest, .refundRequest): true
    default: false
    }
  }
}
