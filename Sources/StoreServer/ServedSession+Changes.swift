import StoreCommands
import StoreConfiguration
import StoreJSON
import StoreSimulation

/// The App Store Server API calls that change the session. Each comes down to a command of the
/// language (so it is journaled, replayed and shown as any command is): `extend`, `extend-all`,
/// `consumption`, `account-token`, `finish`.
extension ServedSession {
  /// `PUT /inApps/v1/subscriptions/extend/{originalTransactionId}` (Extend a Subscription
  /// Renewal Date).
  func extend(_ originalText: String, body: [UInt8]) throws(AppStoreError) -> JSONValue {
    let original = try reader.originalTransaction(originalText)
    return try acting(as: original.owner.customer) { () throws(AppStoreError) in
      try extend(original, body: body)
    }
  }

  private func extend(_ original: Transaction, body: [UInt8]) throws(AppStoreError) -> JSONValue {
    do {
      _ = try host.session.requirePurchasersTransaction(original.id)
    } catch {
      throw Self.extensionError(error.reason, message: error.message)
    }
    let request = try ExtensionRequest(try reader.bodyObject(body), mass: false)
    let events = try applyCall(
      .extend(.id(original.id), days: request.days, reason: request.reason),
      refused: { Self.extensionError($0.refusal, message: $0.message) })
    let extended = events.lazy.compactMap { event -> RenewalExtension? in
      if case .renewalExtension(let extended) = event.kind { extended } else { nil }
    }.first
    var members = [
      JSONMember("originalTransactionId", .string(String(original.id))),
      JSONMember("webOrderLineItemId", .string(String(extended?.transactionID ?? original.id))),
      JSONMember("success", .bool(extended?.newExpirationDate != nil)),
    ]
    if let date = extended?.newExpirationDate {
      members.append(JSONMember("effectiveDate", .number(JSONNumber(Int(date.milliseconds)))))
    }
    return .object(JSONObject(members))
  }

  /// Apple's error for an extension the engine refused.
  private static func extensionError(_ refusal: Refusal?, message: String) -> AppStoreError {
    switch refusal {
    case .familySharedTransaction?:
      // FamilySharedSubscriptionExtensionIneligibleError: extend the purchaser's.
      AppStoreError(
        status: 403, code: 4_030_007,
        message: "Subscription is ineligible for renewal date extension because it was obtained "
          + "through Family Sharing.")
    case .notExtendable(_, .extendedTwiceThisYear)?:
      AppStoreError(
        status: 403, code: 4_030_005,
        message: "The subscription was extended the most times Apple allows in a year.")
    default:
      AppStoreError(
        status: 403, code: 4_030_004,
        message: "The subscription is not eligible for an extension: \(message)")
    }
  }

  /// `POST /inApps/v1/subscriptions/extend/mass` (Extend Subscription Renewal Dates for All
  /// Active Subscribers): applied at once; its summary is kept for the status call.
  func extendAll(body: [UInt8]) throws(AppStoreError) -> JSONValue {
    let request = try ExtensionRequest(try reader.bodyObject(body), mass: true)
    guard let product = request.productID, let item = host.session.catalog.product(product),
      item.groupIndex != nil
    else {
      throw AppStoreError(status: 400, code: 4_000_023, message: "Invalid product id.")
    }
    _ = try applyCall(
      .extendAll(
        productID: product, days: request.days, reason: request.reason,
        request: request.identifier, storefronts: request.storefronts),
      refused: { AppStoreError(status: 400, code: 4_000_000, message: $0.message) })
    return .object(JSONObject([JSONMember("requestIdentifier", .string(request.identifier))]))
  }

  /// `PUT /inApps/v1|v2/transactions/consumption/{transactionId}` (Send Consumption
  /// Information): accepted (202) only while a refund request waits, within 12 hours of it.
  func consumption(_ id: String, version: String, body: [UInt8]) throws(AppStoreError) {
    let transaction = try reader.transaction(id)
    let fields = try ConsumptionValidation.fields(try reader.bodyObject(body), version: version)
    _ = try acting(as: transaction.owner.customer) { () throws(AppStoreError) in
      try applyCall(
        .consumption(.id(transaction.id), fields: fields),
        refused: {
          AppStoreError(status: 400, code: 4_000_000, message: "Bad request. \($0.message)")
        })
    }
  }

  /// `PUT /inApps/v1/transactions/{originalTransactionId}/appAccountToken` (Set App Account
  /// Token).
  func setAppAccountToken(_ originalText: String, body: [UInt8]) throws(AppStoreError) {
    let transaction = try reader.transaction(originalText)
    try acting(as: transaction.owner.customer) { () throws(AppStoreError) in
      try setAppAccountToken(transaction, body: body)
    }
  }

  private func setAppAccountToken(_ transaction: Transaction, body: [UInt8]) throws(AppStoreError) {
    do {
      _ = try host.session.requirePurchasersTransaction(transaction.id)
    } catch {
      guard case .familySharedTransaction = error.reason else {
        throw AppStoreError(status: 400, code: 4_000_000, message: error.message)
      }
      // Apple's FamilyTransactionNotSupportedError.
      throw AppStoreError(
        status: 400, code: 4_000_185,
        message: "Invalid request. The transaction is for a product obtained through Family "
          + "Sharing, which this endpoint does not support.")
    }
    guard transaction.originalID == transaction.id else {
      throw AppStoreError(
        status: 400, code: 4_000_187,
        message: "The transaction id is not an original transaction id.")
    }
    guard case .string(let token)? = try reader.bodyObject(body)["appAccountToken"],
      let command = try? Command.parse("account-token \(transaction.id) \(token)"),
      token != "none"
    else {
      throw AppStoreError(
        status: 400, code: 4_000_183, message: "Invalid app account token. It must be a UUID.")
    }
    _ = try applyCall(
      command, refused: { AppStoreError(status: 400, code: 4_000_000, message: $0.message) })
  }

  /// `POST /inApps/v1/transactions/{transactionId}/finish`: a transaction already finished
  /// stays so.
  func finish(_ id: String) throws(AppStoreError) {
    let transaction = try reader.transaction(id)
    guard !transaction.isFinished else { return }
    _ = try acting(as: transaction.owner.customer) { () throws(AppStoreError) in
      try applyCall(
        .finish(.id(transaction.id)),
        refused: { AppStoreError(status: 400, code: 4_000_000, message: $0.message) })
    }
  }
}

/// The body of an extension request, checked as Apple checks it.
struct ExtensionRequest {
  var days: Int
  var reason: ExtendReason
  var identifier: String
  var productID: String?
  var storefronts: [String] = []

  init(_ body: JSONObject, mass: Bool) throws(AppStoreError) {
    guard case .number(let daysNumber)? = body["extendByDays"], let days = daysNumber.intValue,
      (1...90).contains(days)
    else {
      throw AppStoreError(
        status: 400, code: 4_000_009, message: "Invalid extend by days value. It is 1 to 90.")
    }
    guard case .number(let codeNumber)? = body["extendReasonCode"], let code = codeNumber.intValue,
      let reason = ExtendReason.allCases.first(where: { $0.code == code })
    else {
      throw AppStoreError(
        status: 400, code: 4_000_010, message: "Invalid extend reason code. It is 0 to 3.")
    }
    guard case .string(let identifier)? = body["requestIdentifier"], !identifier.isEmpty,
      identifier.utf8.count <= 128
    else {
      throw AppStoreError(
        status: 400, code: 4_000_011,
        message: "Invalid request identifier. It is a string of at most 128 characters.")
    }
    self.days = days
    self.reason = reason
    self.identifier = identifier
    guard mass else { return }
    if case .string(let product)? = body["productId"] { productID = product }
    if let codes = body["storefrontCountryCodes"] {
      guard case .array(let list) = codes else {
        throw AppStoreError(
          status: 400, code: 4_000_028, message: "Invalid storefront country code.")
      }
      for code in list {
        guard case .string(let text) = code, Storefront(countryCode: text) != nil else {
          throw AppStoreError(
            status: 400, code: 4_000_028, message: "Invalid storefront country code.")
        }
        storefronts.append(text)
      }
    }
  }
}
