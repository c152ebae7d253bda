import StoreConfiguration
import StoreJSON
import StoreSimulation

extension ImportedTransaction {
  /// The transaction an Apple `JWSTransactionDecodedPayload` describes (what `import
  /// transaction` writes). Fields Storekeeper derives itself (`bundleId`, `type`, `environment`,
  /// `signedDate`, `subscriptionGroupIdentifier`, `revocationType`) are not read.
  ///
  /// - Throws: ``CommandError`` naming the JSON path of a missing or malformed field.
  public init(payload p: JSONObject) throws(CommandError) {
    var read = PayloadReader(p, "the transaction")
    self.init(
      id: try read.id("transactionId"), originalID: try read.id("originalTransactionId"),
      productID: try read.string("productId"), purchaseDate: try read.instant("purchaseDate"))
    originalPurchaseDate = try read.optionalInstant("originalPurchaseDate") ?? purchaseDate
    webOrderLineItemID = try read.optionalString("webOrderLineItemId")
    expirationDate = try read.optionalInstant("expiresDate")
    quantity = try read.optionalInt("quantity") ?? 1
    price = Int64(try read.optionalInt("price") ?? 0)
    currency = try read.optionalString("currency") ?? "USD"
    storefront = try read.optionalString("storefront") ?? "USA"
    storefrontID = try read.optionalString("storefrontId") ?? "143441"
    let reasonName = try read.optionalString("transactionReason") ?? "PURCHASE"
    guard let reason = ["PURCHASE": TransactionReason.purchase, "RENEWAL": .renewal][reasonName]
    else { throw read.bad("transactionReason", "PURCHASE or RENEWAL") }
    self.reason = reason
    offer = try read.offer()
    revocationDate = try read.optionalInstant("revocationDate")
    if let number = try read.optionalInt("revocationReason") {
      guard number == 0 || number == 1 else { throw read.bad("revocationReason", "0 or 1") }
      revocationReason = number == 1 ? .developerIssue : .other
    }
    revocationPercentage = try read.optionalInt("revocationPercentage")
    isUpgraded = try read.optionalBool("isUpgraded") ?? false
    appAccountToken = try read.optionalString("appAccountToken")?.lowercased()
    appTransactionID = try read.optionalString("appTransactionId")
    let owner = try read.optionalString("inAppOwnershipType") ?? Ownership.purchased.rawValue
    guard let ownership = Ownership(rawValue: owner) else {
      throw read.bad("inAppOwnershipType", "PURCHASED or FAMILY_SHARED")
    }
    self.ownership = ownership
  }

  /// The payload's fields this transaction keeps, in Apple's names: what the journal writes.
  public var payload: JSONObject {
    var p = PayloadWriter()
    p.string("transactionId", String(id))
    p.string("originalTransactionId", String(originalID))
    p.string("webOrderLineItemId", webOrderLineItemID)
    p.string("productId", productID)
    p.instant("purchaseDate", purchaseDate)
    p.instant("originalPurchaseDate", originalPurchaseDate)
    p.instant("expiresDate", expirationDate)
    p.int("quantity", quantity)
    p.int("price", Int(price))
    p.string("currency", currency)
    p.string("storefront", storefront)
    p.string("storefrontId", storefrontID)
    p.string("transactionReason", reason == .renewal ? "RENEWAL" : "PURCHASE")
    p.offer(offer)
    p.instant("revocationDate", revocationDate)
    p.int("revocationReason", revocationReason.map { $0 == .developerIssue ? 1 : 0 })
    p.int("revocationPercentage", revocationPercentage)
    if isUpgraded { p.object.members.append(JSONMember("isUpgraded", .bool(true))) }
    p.string("appAccountToken", appAccountToken)
    p.string("appTransactionId", appTransactionID)
    p.string("inAppOwnershipType", ownership.rawValue)
    return p.object
  }
}

extension ImportedRenewal {
  /// The state an Apple `JWSRenewalInfoDecodedPayload` describes, with Get All Subscription
  /// Statuses' `status` beside it (what `import renewal` writes).
  ///
  /// - Throws: ``CommandError`` naming the JSON path of a missing or malformed field.
  public init(payload p: JSONObject) throws(CommandError) {
    var read = PayloadReader(p, "the renewal info")
    let number = try read.int("status")
    guard let state = RenewalState.allCases.first(where: { $0.statusNumber == number }) else {
      throw read.bad("status", "1 (active) to 5 (revoked)")
    }
    let product = try read.string("productId")
    self.init(
      originalID: try read.id("originalTransactionId"), state: state, productID: product,
      autoRenewProductID: try read.optionalString("autoRenewProductId") ?? product,
      willAutoRenew: (try read.optionalInt("autoRenewStatus") ?? 0) == 1)
    if let intent = try read.optionalInt("expirationIntent") {
      guard let reason = ExpirationReason(appleIntent: intent) else {
        throw read.bad("expirationIntent", "1 to 5")
      }
      expirationReason = reason
    }
    gracePeriodExpiration = try read.optionalInstant("gracePeriodExpiresDate")
    let increase = try read.optionalInt("priceIncreaseStatus")
    guard
      let status = [PriceIncreaseStatus.noIncreasePending, .pending, .agreed].first(where: {
        $0.appleNumber == increase
      })
    else { throw read.bad("priceIncreaseStatus", "0 or 1") }
    priceIncrease = status
    renewalPrice = try read.optionalInt("renewalPrice").map(Int64.init)
    renewalDate = try read.optionalInstant("renewalDate")
    recentStart = try read.optionalInstant("recentSubscriptionStartDate")
    offer = try read.offer()
  }

  /// The fields this state keeps, in Apple's names: what the journal writes.
  public var payload: JSONObject {
    var p = PayloadWriter()
    p.string("originalTransactionId", String(originalID))
    p.int("status", state.statusNumber)
    p.string("productId", productID)
    p.string("autoRenewProductId", autoRenewProductID)
    p.int("autoRenewStatus", willAutoRenew ? 1 : 0)
    p.int("expirationIntent", expirationReason?.appleIntent)
    p.instant("gracePeriodExpiresDate", gracePeriodExpiration)
    p.int("priceIncreaseStatus", priceIncrease.appleNumber)
    p.int("renewalPrice", renewalPrice.map { Int($0) })
    p.instant("renewalDate", renewalDate)
    p.instant("recentSubscriptionStartDate", recentStart)
    p.offer(offer)
    return p.object
  }
}

/// Reads an Apple payload's fields, each error naming its JSON path.
private struct PayloadReader {
  let object: JSONObject
  let what: String

  init(_ object: JSONObject, _ what: String) {
    self.object = object
    self.what = what
  }

  func bad(_ key: String, _ expected: String) -> CommandError {
    CommandError("\(what): $.\(key) must be \(expected)")
  }

  func string(_ key: String) throws(CommandError) -> String {
    guard let text = try optionalString(key) else { throw bad(key, "present (a string)") }
    return text
  }

  func optionalString(_ key: String) throws(CommandError) -> String? {
    switch object[key] {
    case nil, .null?: return nil
    case .string(let text)?: return text
    default: throw bad(key, "a string")
    }
  }

  func id(_ key: String) throws(CommandError) -> UInt64 {
    guard let id = UInt64(try string(key)) else { throw bad(key, "a decimal transaction id") }
    return id
  }

  func int(_ key: String) throws(CommandError) -> Int {
    guard let number = try optionalInt(key) else { throw bad(key, "present (a number)") }
    return number
  }

  func optionalInt(_ key: String) throws(CommandError) -> Int? {
    switch object[key] {
    case nil, .null?: return nil
    case .number(let number)?:
      guard let value = number.integralValue else { throw bad(key, "a whole number") }
      return value
    default: throw bad(key, "a number")
    }
  }

  func optionalBool(_ key: String) throws(CommandError) -> Bool? {
    switch object[key] {
    case nil, .null?: return nil
    case .bool(let value)?: return value
    default: throw bad(key, "true or false")
    }
  }

  func instant(_ key: String) throws(CommandError) -> Instant {
    guard let instant = try optionalInstant(key) else {
      throw bad(key, "present (milliseconds since 1970)")
    }
    return instant
  }

  func optionalInstant(_ key: String) throws(CommandError) -> Instant? {
    try optionalInt(key).map { Instant(milliseconds: Int64($0)) }
  }

  /// `offerType`, `offerIdentifier`, `offerDiscountType`, `offerPeriod`.
  func offer() throws(CommandError) -> TransactionOffer? {
    guard let number = try optionalInt("offerType") else { return nil }
    guard let type = OfferType(appleNumber: number) else { throw bad("offerType", "1 to 4") }
    let name = try optionalString("offerDiscountType") ?? OfferPaymentMode.freeTrial.appleName
    guard let mode = OfferPaymentMode(appleName: name) else {
      throw bad("offerDiscountType", "FREE_TRIAL, PAY_AS_YOU_GO, PAY_UP_FRONT or ONE_TIME")
    }
    var period: SubscriptionPeriod?
    if let text = try optionalString("offerPeriod") {
      guard let parsed = SubscriptionPeriod(iso8601: text) else {
        throw bad("offerPeriod", "an ISO 8601 duration such as P1M")
      }
      period = parsed
    }
    return TransactionOffer(
      type: type, id: try optionalString("offerIdentifier"), paymentMode: mode,
      period: period)
  }
}

/// Writes an Apple payload's fields in a fixed order, leaving out absent ones.
private struct PayloadWriter {
  var object = JSONObject()

  mutating func string(_ key: String, _ value: String?) {
    if let value { object.members.append(JSONMember(key, .string(value))) }
  }

  mutating func int(_ key: String, _ value: Int?) {
    if let value { object.members.append(JSONMember(key, .number(JSONNumber(value)))) }
  }

  mutating func instant(_ key: String, _ value: Instant?) {
    int(key, value.map { Int($0.milliseconds) })
  }

  mutating func offer(_ offer: TransactionOffer?) {
    guard let offer else { return }
    int("offerType", offer.type.appleNumber)
    string("offerIdentifier", offer.id)
    string("offerDiscountType", offer.paymentMode.appleName)
    string("offerPeriod", offer.period?.iso8601)
  }
}
