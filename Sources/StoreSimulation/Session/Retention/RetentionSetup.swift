import OrderedCollections

/// App Review's verdict on an uploaded image or message (Apple's `imageState`, `messageState`).
public enum RetentionReview: String, Sendable, CaseIterable {
  /// Waiting for review.
  case pending = "PENDING"
  /// Approved: the App Store may show it.
  case approved = "APPROVED"
  /// Rejected: never shown.
  case rejected = "REJECTED"
}

/// Apple's `imageSize`: a message's main image or a bullet point's icon.
public enum RetentionImageSize: String, Sendable, CaseIterable {
  /// Shown above the message body: 3840 pixels wide, 160 to 2160 high.
  case fullSize = "FULL_SIZE"
  /// A bullet point's icon.
  case bulletPoint = "BULLET_POINT"
}

/// An uploaded image: what the PNG's header said of it, and its review.
public struct RetentionImage: Equatable, Sendable {
  /// What it is for.
  public var size: RetentionImageSize
  /// Its width and height in pixels.
  public var width: Int
  /// Its height in pixels.
  public var height: Int
  /// Its review.
  public var review: RetentionReview = .approved

  /// An image.
  public init(size: RetentionImageSize, width: Int, height: Int) {
    self.size = size
    self.width = width
    self.height = height
  }
}

/// One bullet point of a message: its text and its icon.
public struct RetentionBullet: Equatable, Sendable {
  /// The text (at most 66 characters).
  public var text: String
  /// The `BULLET_POINT` image used as its icon.
  public var imageID: String
  /// The icon's alternative text (at most 150 characters).
  public var altText: String

  /// A bullet point.
  public init(text: String, imageID: String, altText: String) {
    self.text = text
    self.imageID = imageID
    self.altText = altText
  }
}

/// What Upload Message uploads (`UploadMessageRequestBody`).
public struct RetentionMessageText: Equatable, Sendable {
  /// Shown above the body, or above the image (at most 66 characters).
  public var header: String
  /// The main text (at most 144 characters).
  public var body: String
  /// The `FULL_SIZE` image shown with it, if any.
  public var imageID: String?
  /// The image's alternative text.
  public var altText: String?
  /// Whether the header sits above the image (`ABOVE_IMAGE`) rather than above the body.
  public var headerAboveImage = false
  /// Its bullet points (at most 5).
  public var bullets: [RetentionBullet] = []

  /// A message's text.
  public init(header: String, body: String) {
    self.header = header
    self.body = body
  }

  /// Whether it holds an image or bullet points: only a text-based message may
  /// (`UploadMessageRequestBody`: switch-plan and promotional-offer messages carry neither).
  public var hasImages: Bool { imageID != nil || !bullets.isEmpty }

  /// Every image it uses.
  public var imageIDs: [String] { (imageID.map { [$0] } ?? []) + bullets.map(\.imageID) }
}

/// An uploaded message and its review.
public struct RetentionMessage: Equatable, Sendable {
  /// Its text.
  public var text: RetentionMessageText
  /// Its review.
  public var review: RetentionReview = .approved
}

/// What the developer set up with the Retention Messaging API: the same for every customer,
/// kept in the session (and so in its journal) like everything else.
public struct RetentionSetup: Equatable, Sendable {
  /// Images by identifier (lowercased UUID), in upload order.
  public internal(set) var images: OrderedDictionary<String, RetentionImage> = [:]
  /// Messages by identifier (lowercased UUID), in upload order.
  public internal(set) var messages: OrderedDictionary<String, RetentionMessage> = [:]
  /// Default messages by product and locale (``defaultKey(productID:locale:)``).
  public internal(set) var defaults: [String: String] = [:]
  /// The Get Retention Message endpoint's URL, when one is configured.
  public internal(set) var realtimeURL: String?

  /// The most images and messages an app may upload (Upload Image: 2,000 images).
  public static let maximumImages = 2_000
  /// The most messages ([unverified]: as many as images).
  public static let maximumMessages = 2_000

  /// The key of a default message.
  public static func defaultKey(productID: String, locale: String) -> String {
    productID + "\u{1F}" + locale
  }

  /// The default message for a product in a locale, if one is configured.
  public func defaultMessage(productID: String, locale: String) -> String? {
    defaults[Self.defaultKey(productID: productID, locale: locale)]
  }

  /// Whether the message and every image it uses are approved: the App Store shows nothing
  /// else.
  public func isShowable(_ messageID: String) -> Bool {
    guard let message = messages[messageID], message.review == .approved else { return false }
    return message.text.imageIDs.allSatisfy { images[$0]?.review == .approved }
  }

  /// The first message that uses the image, if one does.
  public func message(using imageID: String) -> String? {
    messages.first { $0.value.text.imageIDs.contains(imageID) }?.key
  }
}
