import Foundation
import OrderedCollections

/// Apple's rules for what the Retention Messaging API takes (Upload Image, Upload Message,
/// Configure Default Message, Configure Realtime URL), each with the error Apple answers.
extension Session {
  /// The longest header and bullet point text, body and alternative text, in characters
  /// (Unicode scalars, as Apple's library counts them).
  static let headerLimit = 66
  static let bodyLimit = 144
  static let altTextLimit = 150
  static let bulletLimit = 5
  static let realtimeURLLimit = 256
  /// A bullet point icon's sides, in pixels ([unverified]: square, as an icon is).
  static let bulletSides = 48...1024

  /// Why an image's dimensions are not Apple's for its size, if they are not.
  static func sizeProblem(_ image: RetentionImage) -> String? {
    switch image.size {
    case .fullSize:
      guard image.width == 3840, (160...2160).contains(image.height) else {
        return "a FULL_SIZE image is 3840 pixels wide and 160 to 2160 high, not "
          + "\(image.width)×\(image.height) (InvalidImageError)"
      }
    case .bulletPoint:
      guard image.width == image.height, bulletSides.contains(image.width) else {
        return "a BULLET_POINT image is square, \(bulletSides.lowerBound) to "
          + "\(bulletSides.upperBound) pixels a side, not \(image.width)×\(image.height) "
          + "(InvalidImageError)"
      }
    }
    return nil
  }

  /// Apple's error for a message's text, if it has one.
  static func textProblem(
    _ text: RetentionMessageText, images: RetentionSetup.ImageTable
  ) -> (RetentionRule, String)? {
    func long(_ value: String, _ limit: Int) -> Bool { value.unicodeScalars.count > limit }
    if long(text.header, headerLimit) {
      return (
        .headerTooLong, "the header is longer than \(headerLimit) characters (HeaderTooLongError)"
      )
    }
    if long(text.body, bodyLimit) {
      return (.bodyTooLong, "the body is longer than \(bodyLimit) characters (BodyTooLongError)")
    }
    if let alt = text.altText, long(alt, altTextLimit) {
      return (.altTextTooLong, "the image's altText is longer than \(altTextLimit) characters")
    }
    if text.bullets.count > bulletLimit {
      return (
        .tooManyBulletPoints,
        "a message has at most \(bulletLimit) bullet points, not \(text.bullets.count)"
      )
    }
    for bullet in text.bullets {
      if long(bullet.text, headerLimit) {
        return (
          .bulletPointTextTooLong, "a bullet point's text is longer than \(headerLimit) characters"
        )
      }
      if long(bullet.altText, altTextLimit) {
        return (
          .altTextTooLong, "a bullet point's altText is longer than \(altTextLimit) characters"
        )
      }
    }
    if text.headerAboveImage && text.imageID == nil {
      return (.headerAboveNoImage, "headerPosition ABOVE_IMAGE needs an image")
    }
    return imageProblem(text, images: images)
  }

  private static func imageProblem(
    _ text: RetentionMessageText, images: RetentionSetup.ImageTable
  ) -> (RetentionRule, String)? {
    let wanted =
      (text.imageID.map { [($0, RetentionImageSize.fullSize)] } ?? [])
      + text.bullets.map { ($0.imageID, .bulletPoint) }
    for (id, size) in wanted {
      guard let image = images[id] else {
        return (.invalidImage, "there is no image \(id): upload it first (InvalidImageError)")
      }
      guard image.size == size else {
        return (
          .imageSize,
          "the image \(id) is \(image.size.rawValue); this place takes a \(size.rawValue) image"
        )
      }
    }
    return nil
  }

  /// Why a real-time URL is refused, if it is: Apple takes `https://` URLs of at most 256
  /// characters; Storekeeper also takes `http://` on the loopback interface, for tests.
  static func realtimeURLProblem(_ text: String) -> String? {
    guard text.count <= realtimeURLLimit else {
      return "the realtimeURL is longer than \(realtimeURLLimit) characters"
    }
    guard let url = URL(string: text), let scheme = url.scheme?.lowercased(),
      let host = url.host, !host.isEmpty
    else { return "\"\(text)\" is not a URL (BadRequestRealtimeUrlError)" }
    if scheme == "https" { return nil }
    let loopback = ["localhost", "127.0.0.1", "::1", "[::1]"].contains(host.lowercased())
    if scheme == "http" && loopback { return nil }
    return "the realtimeURL must begin with https:// (http:// only on the loopback interface)"
  }

  /// Whether `text` is a locale as Apple writes one: a language, an optional script and an
  /// optional region, joined by hyphens (`en-US`, `zh-Hans-CN`, `es-419`, `fr`).
  public static func isLocale(_ text: String) -> Bool {
    let parts = text.split(separator: "-", omittingEmptySubsequences: false)
    guard (1...3).contains(parts.count), isLetters(parts[0], 2...3, upper: false) else {
      return false
    }
    var rest = parts.dropFirst()
    if let script = rest.first, script.count == 4 {
      guard script.first!.isUppercase, isLetters(script.dropFirst(), 3...3, upper: false) else {
        return false
      }
      rest = rest.dropFirst()
    }
    guard let region = rest.first else { return true }
    guard rest.count == 1 else { return false }
    return isLetters(region, 2...2, upper: true)
      || (region.count == 3 && region.allSatisfy { $0.isASCII && $0.isNumber })
  }

  private static func isLetters(
    _ text: Substring, _ lengths: ClosedRange<Int>, upper: Bool
  )
    -> Bool
  {
    lengths.contains(text.count)
      && text.allSatisfy { $0.isASCII && $0.isLetter && (upper ? $0.isUppercase : $0.isLowercase) }
  }

  /// The session's locale as Apple writes it in a real-time request (`en_US` → `en-US`).
  public var appleLocale: String {
    settings.locale.replacingOccurrences(of: "_", with: "-")
  }
}

extension RetentionSetup {
  /// Images by identifier.
  public typealias ImageTable = OrderedDictionary<String, RetentionImage>
}
