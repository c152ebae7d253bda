/// Apple's error objects of the Advanced Commerce API (ACA/errorcodes), by the rule of the
/// engine that breaks each: written once, read by `serve` (the HTTP answer) and the StoreKit port
/// (`InvalidRequestError`).
extension CommerceRule {
  /// Apple's `errorCode`; its first three digits are the HTTP status.
  public var appleCode: Int {
    switch self {
    case .invalidStorefront: 4_000_028
    case .invalidCurrency: 4_000_053
    case .nullRequestInfo: 4_000_079
    case .nullRequestReferenceID: 4_000_080
    case .invalidRequestReferenceID: 4_000_081
    case .invalidConsistencyToken: 4_000_082
    case .negativePrice: 4_000_086
    case .descriptionTooLong: 4_000_088
    case .displayNameTooLong: 4_000_089
    case .repeatedRequestReferenceID: 4_000_097
    case .invalidTaxCode: 4_000_127
    case .operationNotAllowed: 4_000_135
    case .removeItemNotFound: 4_000_145
    case .changeItemNotFound: 4_000_146
    case .invalidTargetProduct: 4_000_167
    case .invalidOperation: 4_000_172
    case .malformedPayload: 4_000_173
    case .invalidSignature: 4_000_174
    case .alreadyMigrated: 4_000_176
    case .revokeInactive: 4_000_186
    case .alreadyExists: 4_030_009
    case .notEligible: 4_030_010
    case .alreadyActive: 4_030_011
    case .inactive: 4_030_015
    case .alreadyRefunded: 4_030_021
    case .productNotEligible: 4_030_023
    case .notRefundable: 4_030_024
    case .migrationAfterPriceIncrease: 4_030_027
    }
  }

  /// Apple's name of the error object.
  public var appleName: String {
    switch self {
    case .invalidStorefront: "InvalidStorefrontError"
    case .invalidCurrency: "InvalidCurrencyError"
    case .nullRequestInfo: "NullRequestInfoError"
    case .nullRequestReferenceID: "NullRequestReferenceIDError"
    case .invalidRequestReferenceID: "InvalidRequestReferenceIDError"
    case .invalidConsistencyToken: "InvalidConsistencyTokenError"
    case .negativePrice: "NegativePriceError"
    case .descriptionTooLong: "DescriptionLengthExceededError"
    case .displayNameTooLong: "DisplayNameLengthExceededError"
    case .repeatedRequestReferenceID: "RepeatedRequestReferenceIdError"
    case .invalidTaxCode: "InvalidTaxProductCodeError"
    case .operationNotAllowed: "OperationNotAllowedError"
    case .removeItemNotFound: "RemoveItemNotFoundError"
    case .changeItemNotFound: "ChangeItemNotFoundError"
    case .invalidTargetProduct: "InvalidTargetProductIdError"
    case .invalidOperation: "InvalidOperationError"
    case .malformedPayload: "MalformedPayloadError"
    case .invalidSignature: "InvalidSignatureError"
    case .alreadyMigrated: "SubscriptionAlreadyMigratedError"
    case .revokeInactive: "RevokeOnInactiveSubscriptionError"
    case .alreadyExists: "SubscriptionAlreadyExistsError"
    case .notEligible: "SubscriptionNotEligibleError"
    case .alreadyActive: "SubscriptionAlreadyActiveError"
    case .inactive: "InactiveACASubError"
    case .alreadyRefunded: "AlreadyRefundedError"
    case .productNotEligible: "ProductNotEligibleError"
    case .notRefundable: "TransactionNotRefundableError"
    case .migrationAfterPriceIncrease: "MigrationNotAllowedWhenPriceIncreaseCommunicatedError"
    }
  }

  /// Apple's words for it, which an answer follows with the particulars.
  public var appleMessage: String {
    switch self {
    case .invalidStorefront: "The storefront is invalid."
    case .invalidCurrency: "The currency is invalid."
    case .nullRequestInfo: "The requestInfo value is missing."
    case .nullRequestReferenceID: "The requestReferenceId value is missing."
    case .invalidRequestReferenceID: "The requestReferenceId value is invalid."
    case .invalidConsistencyToken: "The consistency token is invalid."
    case .negativePrice: "The price can't be negative."
    case .descriptionTooLong: "The description exceeds the maximum length."
    case .displayNameTooLong: "The display name exceeds the maximum length."
    case .repeatedRequestReferenceID: "The requestReferenceId value was used before."
    case .invalidTaxCode: "The tax code is invalid."
    case .operationNotAllowed: "The operation isn't allowed."
    case .removeItemNotFound: "The item to remove isn't in the subscription."
    case .changeItemNotFound: "The item to change isn't in the subscription."
    case .invalidTargetProduct: "The target product identifier is invalid."
    case .invalidOperation: "The operation is invalid."
    case .malformedPayload: "The payload is malformed."
    case .invalidSignature: "The signature is invalid."
    case .alreadyMigrated: "The subscription was already migrated."
    case .revokeInactive: "You can't revoke an inactive subscription."
    case .alreadyExists: "The subscription already exists."
    case .notEligible: "The subscription isn't eligible for this request."
    case .alreadyActive: "The subscription is already active."
    case .inactive: "The Advanced Commerce subscription is inactive."
    case .alreadyRefunded: "The transaction or item was already refunded."
    case .productNotEligible: "The product isn't eligible for this request."
    case .notRefundable: "The transaction isn't refundable."
    case .migrationAfterPriceIncrease:
      "The subscription can't migrate after a price increase was communicated."
    }
  }
}
