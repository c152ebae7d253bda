import StoreConfiguration
import StoreJSON
import StoreSimulation

/// The body of Extend a Subscription Renewal Date and of Extend Subscription Renewal Dates for
/// All Active Subscribers (`mass`), checked as Apple checks it: `extendByDays` 1 to 90,
/// `extendReasonCode` 0 to 3, a `requestIdentifier` of at most 128 characters; the mass one's
/// `productId` and `storefrontCountryCodes`.
struct ExtensionRequest {
  var days: Int
  var reason: ExtendReason
  var identifier: String
  var productID: String?
  var storefronts: [String] = []

  init(body bytes: [UInt8], mass: Bool) throws(AppStoreError) {
    try self.init(JSONObject(requestBody: bytes), mass: mass)
  }

  init(_ body: JSONObject, mass: Bool) throws(AppStoreError) {
    let range = Session.extensionDays
    guard case .number(let daysNumber)? = body["extendByDays"], let days = daysNumber.intValue,
      range.contains(days)
    else {
      throw AppStoreError(
        .invalidExtendByDays,
        message: "Invalid extend by days value. It is \(range.lowerBound) to \(range.upperBound).")
    }
    guard case .number(let codeNumber)? = body["extendReasonCode"], let code = codeNumber.intValue,
      let reason = ExtendReason.allCases.first(where: { $0.code == code })
    else {
      throw AppStoreError(
        .invalidExtendReasonCode, message: "Invalid extend reason code. It is 0 to 3.")
    }
    guard case .string(let identifier)? = body["requestIdentifier"], !identifier.isEmpty,
      identifier.utf8.count <= 128
    else {
      throw AppStoreError(
        .invalidRequestIdentifier,
        message: "Invalid request identifier. It is a string of at most 128 characters.")
    }
    self.days = days
    self.reason = reason
    self.identifier = identifier
    guard mass else { return }
    if case .string(let product)? = body["productId"] { productID = product }
    if let codes = body["storefrontCountryCodes"] {
      guard case .array(let list) = codes else {
        throw AppStoreError(.invalidStorefrontCountryCode)
      }
      for code in list {
        guard case .string(let text) = code, Storefront(countryCode: text) != nil else {
          throw AppStoreError(.invalidStorefrontCountryCode)
        }
        storefronts.append(text)
      }
    }
  }
}
