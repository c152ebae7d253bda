import Foundation
import StoreJSON

/// The body of Claim Seat (`POST /inApps/groups/v1/transactions/{id}/seats`): a UUID
/// `requestIdentifier` (a retry's key) and, maybe, the member's `appTransactionId`.
struct SeatClaimRequest {
  /// The request's identifier, in lowercase.
  var requestIdentifier: String
  var appTransactionID: String?

  init(body bytes: [UInt8]) throws(AppStoreError) {
    let body = try JSONObject(requestBody: bytes)
    guard case .string(let request)? = body["requestIdentifier"], UUID(uuidString: request) != nil
    else {
      throw AppStoreError(
        .invalidRequestIdentifier, message: "Invalid request identifier. It must be a UUID.")
    }
    requestIdentifier = request.lowercased()
    appTransactionID = try Self.appTransactionID(body, required: false)
  }

  /// `appTransactionId`, a string or a number as Apple's clients send it; 4000000 when a
  /// required one is missing, 4040031 when it is of another kind.
  static func appTransactionID(
    _ body: JSONObject, required: Bool
  ) throws(AppStoreError) -> String? {
    switch body["appTransactionId"] {
    case .string(let text)?: return text
    case .number(let number)?: return number.text
    case nil, .null?:
      guard required else { return nil }
      throw AppStoreError(.generalBadRequest, message: "Bad request. appTransactionId is missing.")
    default:
      throw AppStoreError(.appTransactionIDNotFound)
    }
  }
}

/// The body of Associate Seat (`POST …/seats/{seatClaimId}/associate`): the member's
/// `appTransactionId`.
struct SeatAssociationRequest {
  var appTransactionID: String

  init(body bytes: [UInt8]) throws(AppStoreError) {
    appTransactionID =
      try SeatClaimRequest.appTransactionID(JSONObject(requestBody: bytes), required: true) ?? ""
  }
}
