import StoreSimulation

/// An error object of Apple's, by name: its `errorCode`, whose first three digits are the HTTP
/// status Apple answers with, and Apple's words. Each API family has one table of them, written
/// once (from Apple's "Error codes" pages and the App Store Server Library's `APIError`).
public protocol AppleErrorObject: Sendable {
  /// Apple's `errorCode`.
  var rawValue: Int { get }
  /// Apple's words for it.
  var appleMessage: String { get }
}

extension AppleErrorObject {
  /// The HTTP status: the code's first three digits (4000023 answers 400).
  public var status: Int { rawValue / 10_000 }
}

/// The App Store Server API's error objects (general ones included).
public enum AppStoreServerAPIError: Int, CaseIterable, Sendable, AppleErrorObject {
  /// `GeneralBadRequestError`.
  case generalBadRequest = 4_000_000
  /// `InvalidAppIdentifierError`.
  case invalidAppIdentifier = 4_000_002
  /// `InvalidRequestRevisionError`.
  case invalidRequestRevision = 4_000_005
  /// `InvalidTransactionIdError`.
  case invalidTransactionID = 4_000_006
  /// `InvalidOriginalTransactionIdError`.
  case invalidOriginalTransactionID = 4_000_008
  /// `InvalidExtendByDaysError`.
  case invalidExtendByDays = 4_000_009
  /// `InvalidExtendReasonCodeError`.
  case invalidExtendReasonCode = 4_000_010
  /// `InvalidRequestIdentifierError`.
  case invalidRequestIdentifier = 4_000_011
  /// `StartDateTooFarInPastError`.
  case startDateTooFarInPast = 4_000_012
  /// `StartDateAfterEndDateError`.
  case startDateAfterEndDate = 4_000_013
  /// `InvalidPaginationTokenError`.
  case invalidPaginationToken = 4_000_014
  /// `InvalidStartDateError`.
  case invalidStartDate = 4_000_015
  /// `InvalidEndDateError`.
  case invalidEndDate = 4_000_016
  /// `PaginationTokenExpiredError`.
  case paginationTokenExpired = 4_000_017
  /// `InvalidNotificationTypeError`.
  case invalidNotificationType = 4_000_018
  /// `MultipleFiltersSuppliedError`.
  case multipleFiltersSupplied = 4_000_019
  /// `InvalidTestNotificationTokenError`.
  case invalidTestNotificationToken = 4_000_020
  /// `InvalidSortError`.
  case invalidSort = 4_000_021
  /// `InvalidProductTypeError`.
  case invalidProductType = 4_000_022
  /// `InvalidProductIdError`.
  case invalidProductID = 4_000_023
  /// `InvalidSubscriptionGroupIdentifierError`.
  case invalidSubscriptionGroupIdentifier = 4_000_024
  /// `InvalidExcludeRevokedError`.
  case invalidExcludeRevoked = 4_000_025
  /// `InvalidInAppOwnershipTypeError`.
  case invalidInAppOwnershipType = 4_000_026
  /// `InvalidEmptyStorefrontCountryCodeListError`.
  case invalidEmptyStorefrontCountryCodeList = 4_000_027
  /// `InvalidStorefrontCountryCodeError`.
  case invalidStorefrontCountryCode = 4_000_028
  /// `InvalidRevokedError`.
  case invalidRevoked = 4_000_030
  /// `InvalidStatusError`.
  case invalidStatus = 4_000_031
  /// `InvalidAccountTenureError`.
  case invalidAccountTenure = 4_000_032
  /// `InvalidAppAccountTokenError`.
  case invalidAppAccountToken = 4_000_033
  /// `InvalidConsumptionStatusError`.
  case invalidConsumptionStatus = 4_000_034
  /// `InvalidCustomerConsentedError`.
  case invalidCustomerConsented = 4_000_035
  /// `InvalidDeliveryStatusError`.
  case invalidDeliveryStatus = 4_000_036
  /// `InvalidLifetimeDollarsPurchasedError`.
  case invalidLifetimeDollarsPurchased = 4_000_037
  /// `InvalidLifetimeDollarsRefundedError`.
  case invalidLifetimeDollarsRefunded = 4_000_038
  /// `InvalidPlatformError`.
  case invalidPlatform = 4_000_039
  /// `InvalidPlayTimeError`.
  case invalidPlayTime = 4_000_040
  /// `InvalidSampleContentProvidedError`.
  case invalidSampleContentProvided = 4_000_041
  /// `InvalidUserStatusError`.
  case invalidUserStatus = 4_000_042
  /// `InvalidTransactionNotConsumableError`.
  case invalidTransactionNotConsumable = 4_000_043
  /// `InvalidTransactionTypeNotSupportedError`.
  case invalidTransactionTypeNotSupported = 4_000_047
  /// `AppTransactionIdNotSupportedError`.
  case appTransactionIDNotSupported = 4_000_048
  /// `InvalidAppAccountTokenUuidError`.
  case invalidAppAccountTokenUUID = 4_000_183
  /// `FamilyTransactionNotSupportedError`.
  case familyTransactionNotSupported = 4_000_185
  /// `TransactionIdIsNotOriginalTransactionIdError`.
  case transactionIDIsNotOriginalTransactionID = 4_000_187
  /// `SubscriptionExtensionIneligibleError`.
  case subscriptionExtensionIneligible = 4_030_004
  /// `SubscriptionMaxExtensionError`.
  case subscriptionMaxExtension = 4_030_005
  /// `FamilySharedSubscriptionExtensionIneligibleError`.
  case familySharedSubscriptionExtensionIneligible = 4_030_007
  /// `AccountNotFoundError`.
  case accountNotFound = 4_040_001
  /// `AccountNotFoundRetryableError`.
  case accountNotFoundRetryable = 4_040_002
  /// `AppNotFoundError`.
  case appNotFound = 4_040_003
  /// `AppNotFoundRetryableError`.
  case appNotFoundRetryable = 4_040_004
  /// `OriginalTransactionIdNotFoundError`.
  case originalTransactionIDNotFound = 4_040_005
  /// `OriginalTransactionIdNotFoundRetryableError`.
  case originalTransactionIDNotFoundRetryable = 4_040_006
  /// `ServerNotificationUrlNotFoundError`.
  case serverNotificationURLNotFound = 4_040_007
  /// `TestNotificationNotFoundError`.
  case testNotificationNotFound = 4_040_008
  /// `StatusRequestNotFoundError`.
  case statusRequestNotFound = 4_040_009
  /// `TransactionIdNotFoundError`.
  case transactionIDNotFound = 4_040_010
  /// `AppTransactionDoesNotExistError`.
  case appTransactionDoesNotExist = 4_040_019
  /// `RateLimitExceededError`.
  case rateLimitExceeded = 4_290_000
  /// `GeneralInternalError`.
  case generalInternal = 5_000_000
  /// `GeneralInternalRetryableError`.
  case generalInternalRetryable = 5_000_001

  // Multiseat's seat endpoints (App Store Server API 1.23): Apple's pages name these objects
  // but could not be read for their codes, and Apple's libraries do not have them yet; the
  // codes are Storekeeper's choice [unverified] (Fidelity.md), in Apple's pattern.
  /// `TransactionNotDevManagedGroupError`.
  case transactionNotDevManagedGroup = 4_000_230
  /// `NoAvailableSeatsError`.
  case noAvailableSeats = 4_030_020
  /// `SeatClaimIdNotFoundError`.
  case seatClaimIDNotFound = 4_040_030
  /// `AppTransactionIdNotFoundError`.
  case appTransactionIDNotFound = 4_040_031

  /// The codes Storekeeper chose for objects whose codes Apple's pages and libraries do not give.
  public static let chosenCodes: Set<AppStoreServerAPIError> = [
    .transactionNotDevManagedGroup, .noAvailableSeats, .seatClaimIDNotFound,
    .appTransactionIDNotFound,
  ]

  /// Apple's words for it, which an answer may follow with the particulars.
  public var appleMessage: String {
    switch self {
    case .transactionNotDevManagedGroup:
      "The transaction is not of a multiseat subscription whose invitations your app hosts."
    case .noAvailableSeats: "The subscription has no seats available to claim."
    case .seatClaimIDNotFound: "The seat claim identifier wasn't found."
    case .appTransactionIDNotFound: "The app transaction identifier wasn't found."
    case .generalBadRequest: "Bad request."
    case .invalidAppIdentifier: "An invalid app identifier."
    case .invalidRequestRevision: "Invalid request revision."
    case .invalidTransactionID: "Invalid transaction id."
    case .invalidOriginalTransactionID: "Invalid original transaction id."
    case .invalidExtendByDays: "An invalid extend-by-days value."
    case .invalidExtendReasonCode: "An invalid reason code."
    case .invalidRequestIdentifier: "An invalid request identifier."
    case .startDateTooFarInPast: "The start date is more than 180 days in the past."
    case .startDateAfterEndDate: "Invalid request. The start date is later than the end date."
    case .invalidPaginationToken: "Invalid pagination token."
    case .invalidStartDate: "Invalid request start date."
    case .invalidEndDate: "Invalid request end date."
    case .paginationTokenExpired: "The pagination token expired."
    case .invalidNotificationType: "Invalid notification type."
    case .multipleFiltersSupplied: "Give either a transaction id or a notification type, not both."
    case .invalidTestNotificationToken: "Invalid test notification token."
    case .invalidSort: "Invalid request sort."
    case .invalidProductType: "Invalid request product type."
    case .invalidProductID: "Invalid product id."
    case .invalidSubscriptionGroupIdentifier: "An invalid subscription group identifier."
    case .invalidExcludeRevoked: "The query parameter exclude-revoked is invalid."
    case .invalidInAppOwnershipType: "Invalid request in-app ownership type."
    case .invalidEmptyStorefrontCountryCodeList: "A required storefront country code is empty."
    case .invalidStorefrontCountryCode: "Invalid storefront country code."
    case .invalidRevoked: "Invalid request revoked."
    case .invalidStatus: "Invalid request status."
    case .invalidAccountTenure: "The value of the account tenure field is invalid."
    case .invalidAppAccountToken: "The value of the app account token field is invalid."
    case .invalidConsumptionStatus: "The value of the consumption status field is invalid."
    case .invalidCustomerConsented:
      "The customer consented field is invalid or doesn't indicate that the customer consented."
    case .invalidDeliveryStatus: "The value in the delivery status field is invalid."
    case .invalidLifetimeDollarsPurchased:
      "The value in the lifetime dollars purchased field is invalid."
    case .invalidLifetimeDollarsRefunded:
      "The value in the lifetime dollars refunded field is invalid."
    case .invalidPlatform: "The value in the platform field is invalid."
    case .invalidPlayTime: "The value in the playtime field is invalid."
    case .invalidSampleContentProvided: "The value in the sample content provided field is invalid."
    case .invalidUserStatus: "The value in the user status field is invalid."
    case .invalidTransactionNotConsumable:
      "The transaction identifier doesn't represent a consumable in-app purchase."
    case .invalidTransactionTypeNotSupported:
      "The transaction identifier represents an unsupported in-app purchase type."
    case .appTransactionIDNotSupported: "The endpoint doesn't support an app transaction ID."
    case .invalidAppAccountTokenUUID: "Invalid app account token. It must be a UUID."
    case .familyTransactionNotSupported:
      "The transaction is for a product the customer obtains through Family Sharing, which this endpoint does not support."
    case .transactionIDIsNotOriginalTransactionID:
      "The transaction id is not an original transaction id."
    case .subscriptionExtensionIneligible:
      "The subscription doesn't qualify for a renewal-date extension due to its subscription state."
    case .subscriptionMaxExtension:
      "The subscription was extended the most times Apple allows in a year."
    case .familySharedSubscriptionExtensionIneligible:
      "A subscription isn't directly eligible for a renewal date extension because the user obtained it through Family Sharing."
    case .accountNotFound: "The App Store account wasn't found."
    case .accountNotFoundRetryable: "The App Store account wasn't found, but you can try again."
    case .appNotFound: "The app wasn't found."
    case .appNotFoundRetryable: "The app wasn't found, but you can try again."
    case .originalTransactionIDNotFound: "Original transaction id not found."
    case .originalTransactionIDNotFoundRetryable:
      "The original transaction identifier wasn't found, but you can try again."
    case .serverNotificationURLNotFound:
      "The App Store server couldn't find a notifications URL for your app in this environment."
    case .testNotificationNotFound: "Test notification not found."
    case .statusRequestNotFound:
      "The server didn't find a subscription-renewal-date extension request for the request identifier and product identifier you provided."
    case .transactionIDNotFound: "Transaction id not found."
    case .appTransactionDoesNotExist: "An app transaction doesn't exist for the specified customer."
    case .rateLimitExceeded: "The request exceeded the rate limit."
    case .generalInternal: "An unknown error occurred."
    case .generalInternalRetryable: "An unknown error occurred, but you can try again."
    }
  }
}

/// The Retention Messaging API's error objects (its general ones are the App Store Server
/// API's).
public enum RetentionMessagingError: Int, CaseIterable, Sendable, AppleErrorObject {
  /// `InvalidImageError`.
  case invalidImage = 4_000_161
  /// `HeaderTooLongError`.
  case headerTooLong = 4_000_162
  /// `BodyTooLongError`.
  case bodyTooLong = 4_000_163
  /// `InvalidLocaleError`.
  case invalidLocale = 4_000_164
  /// `AltTextTooLongError`.
  case altTextTooLong = 4_000_175
  /// `InvalidPerformanceTestRequestError`.
  case invalidPerformanceTestRequest = 4_000_211
  /// `InvalidRequestIdError`.
  case invalidRequestID = 4_000_212
  /// `ExistingPerformanceTestRunError`.
  case existingPerformanceTestRun = 4_000_213
  /// `BadRequestRealtimeUrlError`.
  case badRequestRealtimeURL = 4_000_215
  /// `BadRequestImageSizeError`.
  case badRequestImageSize = 4_000_216
  /// `BadRequestTooManyBulletPointsError`.
  case badRequestTooManyBulletPoints = 4_000_218
  /// `BadRequestBulletPointTextTooLongError`.
  case badRequestBulletPointTextTooLong = 4_000_219
  /// `BadRequestAboveImageRequiresAnImageError`.
  case badRequestAboveImageRequiresAnImage = 4_000_224
  /// `MaximumNumberOfImagesReachedError`.
  case maximumNumberOfImagesReached = 4_030_014
  /// `MaximumNumberOfMessagesReachedError`.
  case maximumNumberOfMessagesReached = 4_030_016
  /// `MessageNotApprovedError`.
  case messageNotApproved = 4_030_017
  /// `ImageNotApprovedError`.
  case imageNotApproved = 4_030_018
  /// `ImageInUseError`.
  case imageInUse = 4_030_019
  /// `ForbiddenNoPassingTestError`.
  case forbiddenNoPassingTest = 4_030_026
  /// `ImageNotFoundError`.
  case imageNotFound = 4_040_014
  /// `MessageNotFoundError`.
  case messageNotFound = 4_040_015
  /// `PerformanceTestRunNotFoundError`.
  case performanceTestRunNotFound = 4_040_018
  /// `DefaultMessageNotFoundError`.
  case defaultMessageNotFound = 4_040_020
  /// `RealtimeUrlNotFoundError`.
  case realtimeURLNotFound = 4_040_021
  /// `ImageAlreadyExistsError`.
  case imageAlreadyExists = 4_090_000
  /// `MessageAlreadyExistsError`.
  case messageAlreadyExists = 4_090_001

  /// Apple's words for it, which an answer may follow with the particulars.
  public var appleMessage: String {
    switch self {
    case .invalidImage: "The image that's uploading is invalid."
    case .headerTooLong: "The header text is too long."
    case .bodyTooLong: "The body text is too long."
    case .invalidLocale: "Invalid locale."
    case .altTextTooLong: "The alternative text for an image is too long."
    case .invalidPerformanceTestRequest: "The performance test request is invalid."
    case .invalidRequestID: "Invalid request id."
    case .existingPerformanceTestRun: "A performance test is already running."
    case .badRequestRealtimeURL: "The URL is invalid."
    case .badRequestImageSize: "The image size provided is invalid."
    case .badRequestTooManyBulletPoints: "There are too many bullet points."
    case .badRequestBulletPointTextTooLong: "The text for a bullet point is too long."
    case .badRequestAboveImageRequiresAnImage:
      "No image object is included, but the request indicates that the header should be placed above the image."
    case .maximumNumberOfImagesReached: "You reach the maximum number of uploaded images."
    case .maximumNumberOfMessagesReached: "You reach the maximum number of uploaded messages."
    case .messageNotApproved:
      "The message isn't in the approved state, so you can't configure it as a default message."
    case .imageNotApproved:
      "The image isn't in the approved state, so you can't configure it as part of a default message."
    case .imageInUse: "The image is currently in use as part of a message, so you can't delete it."
    case .forbiddenNoPassingTest:
      "Passing a performance test is required before you can set a URL for the production environment."
    case .imageNotFound: "The system can't find the image identifier."
    case .messageNotFound: "The system can't find the message identifier."
    case .performanceTestRunNotFound: "Performance test run not found."
    case .defaultMessageNotFound: "Default message not found."
    case .realtimeURLNotFound: "Realtime URL not found."
    case .imageAlreadyExists: "The image identifier already exists."
    case .messageAlreadyExists: "The message identifier already exists."
    }
  }
}

/// The Advanced Commerce API's error objects: the engine's rules carry Apple's codes
/// (`CommerceRule+Apple.swift`, one table the server and the StoreKit port both read).
extension CommerceRule: AppleErrorObject {
  /// Apple's `errorCode`.
  public var rawValue: Int { appleCode }
}
