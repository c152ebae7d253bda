import StoreJSON

extension JSONObject {
  /// A request's body read as the JSON object Apple's endpoints take; Apple's General Bad
  /// Request (4000000) when it is not one.
  init(requestBody body: [UInt8]) throws(AppStoreError) {
    guard case .object(let object)? = try? JSONParser.parse(body).root else {
      throw AppStoreError(
        .generalBadRequest, message: "Bad request. The body is not a JSON object.")
    }
    self = object
  }
}
