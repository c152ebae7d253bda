import Foundation
import StoreJSON
import StoreSimulation

extension RetentionMessageText {
  /// The text as Apple's `UploadMessageRequestBody`.
  public var json: JSONValue {
    var members: [JSONMember] = [
      JSONMember("header", .string(header)),
      JSONMember("body", .string(body)),
    ]
    if let imageID {
      members.append(
        JSONMember(
          "image",
          .object(
            JSONObject([
              JSONMember("imageIdentifier", .string(imageID)),
              JSONMember("altText", .string(altText ?? "")),
            ]))))
    }
    if headerAboveImage {
      members.append(JSONMember("headerPosition", .string("ABOVE_IMAGE")))
    }
    if !bullets.isEmpty {
      let items = bullets.map { bullet in
        JSONValue.object(
          JSONObject([
            JSONMember("text", .string(bullet.text)),
            JSONMember("imageIdentifier", .string(bullet.imageID)),
            JSONMember("altText", .string(bullet.altText)),
          ]))
      }
      members.append(JSONMember("bulletPoints", .array(items)))
    }
    return .object(JSONObject(members))
  }

  /// Reads Apple's `UploadMessageRequestBody`.
  ///
  /// - Throws: what is missing or of the wrong type, by its JSON path (`$.image.altText`).
  public init(json object: JSONObject) throws(RetentionTextError) {
    func text(
      _ object: JSONObject, _ key: String, _ path: String
    ) throws(RetentionTextError)
      -> String
    {
      guard case .string(let value)? = object[key] else {
        throw RetentionTextError("\(path).\(key) must be a string")
      }
      return value
    }
    func uuid(_ object: JSONObject, _ path: String) throws(RetentionTextError) -> String {
      let value = try text(object, "imageIdentifier", path)
      guard UUID(uuidString: value) != nil else {
        throw RetentionTextError("\(path).imageIdentifier must be a UUID")
      }
      return value.lowercased()
    }
    self.init(header: try text(object, "header", "$"), body: try text(object, "body", "$"))
    if let image = object["image"], image != .null {
      guard case .object(let image) = image else {
        throw RetentionTextError("$.image must be an object")
      }
      imageID = try uuid(image, "$.image")
      altText = try text(image, "altText", "$.image")
    }
    switch object["headerPosition"] {
    case nil, .null, .string("ABOVE_BODY")?: headerAboveImage = false
    case .string("ABOVE_IMAGE")?: headerAboveImage = true
    default: throw RetentionTextError("$.headerPosition must be ABOVE_BODY or ABOVE_IMAGE")
    }
    guard let list = object["bulletPoints"], list != .null else { return }
    guard case .array(let items) = list else {
      throw RetentionTextError("$.bulletPoints must be an array")
    }
    for (index, item) in items.enumerated() {
      let path = "$.bulletPoints[\(index)]"
      guard case .object(let bullet) = item else {
        throw RetentionTextError("\(path) must be an object")
      }
      bullets.append(
        RetentionBullet(
          text: try text(bullet, "text", path), imageID: try uuid(bullet, path),
          altText: try text(bullet, "altText", path)))
    }
  }
}

/// What is wrong with an uploaded message's JSON.
public struct RetentionTextError: Error, Equatable, Sendable {
  /// The problem, by JSON path.
  public var message: String
  init(_ message: String) { self.message = message }
}
