/// An uploaded item the review changes.
public enum RetentionItem: String, Sendable, CaseIterable {
  case image
  case message
}

/// What `serve`'s Retention Messaging API and the `retention` command change: the developer's
/// setup, App Review's verdicts, and the customer's side (the subscription page's message, and
/// taking what it offered).
public enum RetentionAction: Equatable, Sendable {
  /// Upload Image: an image of this size with these dimensions (read from its PNG header);
  /// `transparent` when the PNG has an alpha channel or a transparent colour.
  case uploadImage(id: String, RetentionImage, transparent: Bool)
  /// Delete Image.
  case deleteImage(id: String)
  /// Upload Message.
  case uploadMessage(id: String, RetentionMessageText)
  /// Delete Message.
  case deleteMessage(id: String)
  /// Configure Default Message.
  case setDefault(productID: String, locale: String, messageID: String)
  /// Delete Default Message (done when none is configured: Apple's endpoint is idempotent).
  case deleteDefault(productID: String, locale: String)
  /// Configure Realtime URL, or with `nil` Delete Realtime URL.
  case setRealtimeURL(String?)
  /// App Review's verdict (`retention review message|image <uuid> approved|rejected|pending`).
  case review(RetentionItem, id: String, RetentionReview)
  /// The customer opens their subscription's page: with the real-time exchange made for it
  /// (what the developer's endpoint answered), or `nil` when none was made (no URL, or nothing
  /// here calls one): the default message then.
  case show(RealtimeExchange?)
  /// The customer takes what the page's message offered: the other plan, or the offer.
  case accept
}

/// One call of the developer's Get Retention Message endpoint, as it went: recorded in the
/// journal so that a replay shows the same message without calling anyone.
public struct RealtimeExchange: Equatable, Sendable {
  /// How the call ended.
  public enum Outcome: Equatable, Sendable {
    /// An HTTP status, the body's text (as the journal keeps it) and what the edge read in it
    /// (``RealtimeAnswer``, or what is wrong with its shape).
    case answered(
      status: Int, body: String, reading: Result<RealtimeAnswer, RetentionAnswerProblem>)
    /// No answer: Apple's `sendAttemptResult` word (`TIMED_OUT`, `NO_RESPONSE`, …) and why.
    case failed(result: String, reason: String)
  }

  /// The request's `requestIdentifier` (a new UUID each time).
  public var requestID: String
  /// How it ended.
  public var outcome: Outcome
  /// The app's bundle id promotional offer signatures are checked for; `nil` for the default.
  public var bundleID: String?

  /// An exchange.
  public init(requestID: String, outcome: Outcome, bundleID: String? = nil) {
    self.requestID = requestID
    self.outcome = outcome
    self.bundleID = bundleID
  }

  /// The most of an answer's body kept (a longer one is cut: no valid answer is that long).
  public static let maximumBody = 16_384
}

/// What the subscription page asks the developer's endpoint (`DecodedRealtimeRequestBody`,
/// but for the fields the signer adds: `appAppleId`, `requestIdentifier`, `signedDate`,
/// `environment`).
public struct RetentionRequest: Equatable, Sendable {
  /// The subscription's original transaction.
  public var originalTransactionID: UInt64
  /// The product the customer is subscribed to.
  public var productID: String
  /// The customer's locale as Apple writes it (`en-US`).
  public var userLocale: String
  /// The configured URL, if any.
  public var url: String?
}

/// Why a retention action is refused: which of Retention Messaging's rules it broke, and the
/// words for a person. Each front end maps the rule to its own answer (`serve`: Apple's error
/// object of that name).
public typealias RetentionRefusal = RuleRefusal<RetentionRule>

/// A rule of Retention Messaging, named as Apple's error objects are.
public enum RetentionRule: Equatable, Sendable, CaseIterable {
  /// An image of that id was uploaded before (ImageAlreadyExistsError).
  case imageAlreadyExists
  /// A message of that id was uploaded before (MessageAlreadyExistsError).
  case messageAlreadyExists
  /// The app holds the most images Apple keeps (MaximumNumberOfImagesReachedError).
  case tooManyImages
  /// The app holds the most messages Apple keeps (MaximumNumberOfMessagesReachedError).
  case tooManyMessages
  /// The image is not one Apple takes, or a message names no uploaded image
  /// (InvalidImageError).
  case invalidImage
  /// An image of the wrong size for its place (BadRequestImageSizeError).
  case imageSize
  /// No image of that id (ImageNotFoundError).
  case imageNotFound
  /// No message of that id (MessageNotFoundError).
  case messageNotFound
  /// The image is used by a message (ImageInUseError).
  case imageInUse
  /// The message is not approved (MessageNotApprovedError).
  case messageNotApproved
  /// The message's image is not approved (ImageNotApprovedError).
  case imageNotApproved
  /// A header too long (HeaderTooLongError).
  case headerTooLong
  /// A body too long (BodyTooLongError).
  case bodyTooLong
  /// An alt text too long (AltTextTooLongError).
  case altTextTooLong
  /// Too many bullet points (BadRequestTooManyBulletPointsError).
  case tooManyBulletPoints
  /// A bullet point's text too long (BadRequestBulletPointTextTooLongError).
  case bulletPointTextTooLong
  /// A header above an image with no image (BadRequestAboveImageRequiresAnImageError).
  case headerAboveNoImage
  /// A real-time URL Apple does not take (BadRequestRealtimeUrlError).
  case realtimeURL
  /// A product that is no auto-renewable subscription of the app (InvalidProductIdError).
  case invalidProduct
  /// A locale that is not one (InvalidLocaleError).
  case invalidLocale
  /// The customer's side: the page has nothing to show or accept (no API answers it).
  case customer
}

/// What the subscription page showed (`retentionMessage`).
public struct RetentionDisplay: Equatable, Sendable {
  /// Where the message came from.
  public enum Source: String, Sendable {
    /// The developer's real-time answer.
    case realtime
    /// The default message for the product and locale.
    case `default`
    /// No message.
    case none
  }

  /// Where it came from.
  public var source: Source
  /// The message shown.
  public var messageID: String?
  /// A switch-plan message's product.
  public var alternateProduct: String?
  /// The billing plan the switch-plan message suggests (`MONTHLY`, `BILLED_UPFRONT`; Retention
  /// Messaging 1.5), when the answer named one the product bills by.
  public var alternatePlan: String?
  /// A promotional-offer message's offer and the product it is for.
  public var promotionalOffer: String?
  /// The product the promotional offer is for.
  public var offerProductID: String?
  /// The product subscribed to.
  public var productID: String
  /// The subscription's original transaction: what cancelling from the page turns auto-renew
  /// off for.
  public var originalTransactionID: UInt64 = 0
  /// Why the page fell back to the default message (or to none) after asking the developer's
  /// server: the answer's problem, or why there was no answer.
  public var fallbackReason: String?
}
