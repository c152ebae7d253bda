// The one place Apple's numbers and words for StoreKit's enums are written: the App Store's
// decoded payloads (`JWSTransactionDecodedPayload`, `JWSRenewalInfoDecodedPayload`) carry these,
// the signer writes them and an import reads them.

extension OfferType {
  /// `offerType`: 1 introductory, 2 promotional, 3 offer code, 4 win-back.
  public var appleNumber: Int {
    switch self {
    case .introductory: 1
    case .promotional: 2
    case .code: 3
    case .winBack: 4
    }
  }

  /// The offer type Apple's `offerType` number names.
  public init?(appleNumber: Int) {
    guard
      let type = [Self.introductory, .promotional, .code, .winBack].first(where: {
        $0.appleNumber == appleNumber
      })
    else { return nil }
    self = type
  }
}

extension OfferPaymentMode {
  /// `offerDiscountType`: `FREE_TRIAL`, `PAY_AS_YOU_GO`, `PAY_UP_FRONT`, `ONE_TIME`.
  public var appleName: String {
    switch self {
    case .freeTrial: "FREE_TRIAL"
    case .payAsYouGo: "PAY_AS_YOU_GO"
    case .payUpFront: "PAY_UP_FRONT"
    case .oneTime: "ONE_TIME"
    }
  }

  /// The payment mode Apple's `offerDiscountType` names.
  public init?(appleName: String) {
    guard
      let mode = [Self.freeTrial, .payAsYouGo, .payUpFront, .oneTime].first(where: {
        $0.appleName == appleName
      })
    else { return nil }
    self = mode
  }
}

extension ExpirationReason {
  /// `expirationIntent`: 1 auto-renew turned off, 2 billing error, 3 price increase not agreed,
  /// 4 product unavailable, 5 other.
  public var appleIntent: Int {
    switch self {
    case .autoRenewDisabled: 1
    case .billingError: 2
    case .didNotConsentToPriceIncrease: 3
    case .productUnavailable: 4
    case .unknown: 5
    }
  }

  /// The reason Apple's `expirationIntent` number names.
  public init?(appleIntent: Int) {
    let reasons: [Self] = [
      .autoRenewDisabled, .billingError, .didNotConsentToPriceIncrease, .productUnavailable,
      .unknown,
    ]
    guard let reason = reasons.first(where: { $0.appleIntent == appleIntent }) else { return nil }
    self = reason
  }
}

extension PriceIncreaseStatus {
  /// `priceIncreaseStatus`: 0 pending, 1 agreed; absent when no increase is pending.
  public var appleNumber: Int? {
    switch self {
    case .noIncreasePending: nil
    case .pending: 0
    case .agreed: 1
    }
  }
}
