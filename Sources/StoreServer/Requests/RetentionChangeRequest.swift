import Foundation
import StoreCommands
import StoreJSON
import StoreSimulation

/// The Retention Messaging API's changes, read from their paths, queries and bodies into the
/// engine's typed action, checked as Apple checks them (identifiers UUIDs, an image a PNG of a
/// known size, a message's text within Apple's limits); what they name is the engine's to judge.
enum RetentionChangeRequest {
  /// `PUT /inApps/v1/messaging/image/{imageIdentifier}?imageSize=` with a PNG body.
  static func imageUpload(
    id: String, size: String?, body: [UInt8]
  ) throws(AppStoreError) -> RetentionAction {
    let id = try uuid(id, invalid: AppStoreError(.invalidImage), "image identifier")
    guard let kind = RetentionImageSize(rawValue: size ?? "FULL_SIZE") else {
      throw AppStoreError(
        .badRequestImageSize, message: "imageSize must be FULL_SIZE or BULLET_POINT.")
    }
    let png: PNGHeader
    do throws(PNGHeader.Problem) {
      png = try PNGHeader(body)
    } catch {
      throw AppStoreError(
        .invalidImage, message: "Invalid image. The body is not a PNG file: \(error.reason).")
    }
    return .uploadImage(
      id: id, RetentionImage(size: kind, width: png.width, height: png.height),
      transparent: png.transparent)
  }

  /// `DELETE /inApps/v1/messaging/image/{imageIdentifier}`.
  static func imageDeletion(id: String) throws(AppStoreError) -> RetentionAction {
    .deleteImage(id: try uuid(id, invalid: AppStoreError(.invalidImage), "image identifier"))
  }

  /// `PUT /inApps/v1/messaging/message/{messageIdentifier}` with the message's text.
  static func messageUpload(id: String, body: [UInt8]) throws(AppStoreError) -> RetentionAction {
    let id = try uuid(id, invalid: .generalBadRequest, "message identifier")
    let object = try JSONObject(requestBody: body)
    do throws(RetentionTextError) {
      return .uploadMessage(id: id, try RetentionMessageText(json: object))
    } catch {
      throw AppStoreError(.generalBadRequest, message: "Bad request. \(error.message)")
    }
  }

  /// `DELETE /inApps/v1/messaging/message/{messageIdentifier}`.
  static func messageDeletion(id: String) throws(AppStoreError) -> RetentionAction {
    .deleteMessage(id: try uuid(id, invalid: .generalBadRequest, "message identifier"))
  }

  /// `PUT /inApps/v1/messaging/default/{productId}/{locale}` with a `messageIdentifier`.
  static func defaultMessage(
    productID: String, locale: String, body: [UInt8]
  ) throws(AppStoreError) -> RetentionAction {
    guard case .string(let raw)? = try JSONObject(requestBody: body)["messageIdentifier"] else {
      throw AppStoreError(.generalBadRequest, message: "Bad request. messageIdentifier is missing.")
    }
    let id = try uuid(raw, invalid: .generalBadRequest, "message identifier")
    return .setDefault(productID: productID, locale: locale, messageID: id)
  }

  /// `PUT /inApps/v1/messaging/realtime/url` with a `realtimeURL`.
  static func realtimeURL(body: [UInt8]) throws(AppStoreError) -> RetentionAction {
    guard case .string(let url)? = try JSONObject(requestBody: body)["realtimeURL"] else {
      throw AppStoreError(
        .badRequestRealtimeURL, message: "Invalid request. realtimeURL is missing.")
    }
    return .setRealtimeURL(url)
  }

  /// `text` in lowercase when it is a UUID; `error`, saying so, when it is not.
  static func uuid(
    _ text: String, invalid error: AppStoreError, _ what: String
  ) throws(AppStoreError) -> String {
    guard UUID(uuidString: text) != nil else {
      var answer = error
      answer.message = "Invalid \(what). It must be a UUID."
      throw answer
    }
    return text.lowercased()
  }
}

/// The body of Initiate Performance Test (`POST /inApps/v1/messaging/performanceTest`): the
/// original transaction of the subscription the test asks about, as written.
struct PerformanceTestRequest {
  var originalTransactionID: String

  init(body bytes: [UInt8]) throws(AppStoreError) {
    guard case .string(let text)? = try JSONObject(requestBody: bytes)["originalTransactionId"]
    else {
      throw ServedSession.invalidTest("originalTransactionId names no transaction")
    }
    originalTransactionID = text
  }
}
