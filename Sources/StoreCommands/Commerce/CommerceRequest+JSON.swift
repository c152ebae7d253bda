import Foundation
import StoreJSON
import StoreSimulation

extension CommerceInAppRequest {
  /// The request an in-app JWS's `request` claim holds (standard base64 of its JSON), checked
  /// against Apple's shapes and limits.
  ///
  /// - Throws: ``CommerceRefusal`` naming the JSON path and the rule.
  public init(base64 text: String) throws(CommerceRefusal) {
    guard let data = Data(base64Encoded: text) ?? Base64URL.decode(text).map({ Data($0) }),
      case .object(let object)? = try? JSONParser.parse(Array(data)).root
    else {
      throw CommerceRefusal(
        .malformedPayload, "the JWS's request claim is not base64 of one JSON object")
    }
    try self.init(json: object)
  }

  /// The request of a JSON object (what the developer's server encodes).
  public init(json object: JSONObject) throws(CommerceRefusal) {
    let read = CommerceReader(object, "$")
    let operation = try read.string("operation")
    let version = try read.optionalString("version") ?? "1"
    guard version == "1" else { throw read.bad("version", "\"1\"", .malformedPayload) }
    let info = try read.requestInfo()
    switch operation {
    case "CREATE_ONE_TIME_CHARGE":
      guard let item = try read.optionalObject("item") else {
        throw read.bad("item", "present (an object)", .malformedPayload)
      }
      let terms = CommerceTerms(
        descriptors: CommerceDescriptors(
          description: try item.string("description"),
          displayName: try item.string("displayName")),
        items: [try item.item()], period: nil, taxCode: try read.taxCode(),
        requestReferenceID: info.requestReferenceID, currency: try read.currency())
      self = .createOneTimeCharge(info, terms, storefront: try read.optionalString("storefront"))
    case "CREATE_SUBSCRIPTION":
      let terms = CommerceTerms(
        descriptors: try read.descriptors(), items: try read.items("items"),
        period: try read.period("period"), taxCode: try read.taxCode(),
        requestReferenceID: info.requestReferenceID, currency: try read.currency())
      self = .createSubscription(
        info, terms, previousTransactionID: try read.optionalString("previousTransactionId"),
        storefront: try read.optionalString("storefront"))
    case "MODIFY_SUBSCRIPTION":
      self = .modify(info, try read.modification())
    case "REACTIVATE_SUBSCRIPTION":
      let skus = try read.objects("items").map { (item) throws(CommerceRefusal) in
        try item.string("SKU")
      }
      self = .reactivate(
        info, transactionID: try read.transactionID(), skus: skus,
        storefront: try read.optionalString("storefront"))
    default:
      throw read.bad(
        "operation",
        "CREATE_ONE_TIME_CHARGE, CREATE_SUBSCRIPTION, MODIFY_SUBSCRIPTION or "
          + "REACTIVATE_SUBSCRIPTION, not \"\(operation.prefix(40))\"", .invalidOperation)
    }
  }
}

extension CommerceServerRequest {
  /// The body of a server endpoint's request, checked against Apple's shapes and limits.
  ///
  /// - Throws: ``CommerceRefusal`` naming the JSON path and the rule.
  public init(_ operation: CommerceOperation, json object: JSONObject) throws(CommerceRefusal) {
    let read = CommerceReader(object, "$")
    let info = try read.requestInfo()
    switch operation {
    case .cancel: self = .cancel(info)
    case .revoke:
      self = .revoke(
        info, refundType: try read.refundType(), refundReason: try read.refundReason())
    case .changePrice:
      let items = try read.objects("items").map { (item) throws(CommerceRefusal) in
        CommercePriceChange(
          sku: try item.string("SKU"), price: try item.price("price"),
          dependentSKUs: try item.strings("dependentSKUs"))
      }
      guard !items.isEmpty else {
        throw read.bad("items", "at least one item", .operationNotAllowed)
      }
      self = .changePrice(info, items: items, currency: try read.optionalCurrency())
    case .changeMetadata:
      self = try read.metadataChange(info)
    case .migrate:
      let items = try read.objects("items").map { (item) throws(CommerceRefusal) in
        try item.item(pricing: false)
      }
      guard !items.isEmpty else {
        throw read.bad("items", "at least one item", .operationNotAllowed)
      }
      let renewal = try read.optionalObjects("renewalItems")?.map {
        (item) throws(CommerceRefusal) in try item.item(pricing: false)
      }
      let terms = CommerceTerms(
        descriptors: try read.descriptors(), items: items, period: nil,
        taxCode: try read.taxCode(), requestReferenceID: info.requestReferenceID, currency: "")
      self = .migrate(
        info, terms, targetProductID: try read.string("targetProductId"), renewalItems: renewal)
    case .requestRefund:
      let items = try read.objects("items").map { (item) throws(CommerceRefusal) in
        CommerceRefundItem(
          sku: try item.string("SKU"), revoke: try item.bool("revoke"),
          reason: try item.refundReason(), type: try item.refundType(),
          amount: try item.optionalPrice("refundAmount"))
      }
      guard !items.isEmpty else {
        throw read.bad("items", "at least one item", .operationNotAllowed)
      }
      self = .requestRefund(info, items: items, currency: try read.optionalCurrency())
    }
  }
}

/// Reads a request's fields, each refusal naming its JSON path and the rule it breaks.
struct CommerceReader {
  let object: JSONObject
  let path: String

  init(_ object: JSONObject, _ path: String) {
    self.object = object
    self.path = path
  }

  /// Apple's limits (`HelperValidationUtils`).
  static let longestDescription = 45
  static let longestDisplayName = 30
  static let longestSKU = 128

  func bad(_ key: String, _ expected: String, _ rule: CommerceRule) -> CommerceRefusal {
    CommerceRefusal(rule, "\(path).\(key) must be \(expected)")
  }

  func string(_ key: String) throws(CommerceRefusal) -> String {
    try present(key, "a string", .malformedPayload) { (r) throws(CommerceRefusal) in
      try r.optionalString(key)
    }
  }

  func optionalString(_ key: String) throws(CommerceRefusal) -> String? {
    switch object[key] {
    case nil, .null?: return nil
    case .string(let text)?: return text
    default: throw bad(key, "a string", .malformedPayload)
    }
  }

  func strings(_ key: String) throws(CommerceRefusal) -> [String] {
    switch object[key] {
    case nil, .null?: return []
    case .array(let values)?:
      return try values.map { (value) throws(CommerceRefusal) in
        guard case .string(let text) = value else {
          throw bad(key, "an array of strings", .malformedPayload)
        }
        return text
      }
    default: throw bad(key, "an array of strings", .malformedPayload)
    }
  }

  func bool(_ key: String) throws(CommerceRefusal) -> Bool {
    guard case .bool(let value)? = object[key] else {
      throw bad(key, "true or false", .malformedPayload)
    }
    return value
  }

  func price(_ key: String) throws(CommerceRefusal) -> Int64 {
    try present(key, "milliunits, a whole number", .malformedPayload) {
      (r) throws(CommerceRefusal) in try r.optionalPrice(key)
    }
  }

  func optionalPrice(_ key: String) throws(CommerceRefusal) -> Int64? {
    switch object[key] {
    case nil, .null?: return nil
    case .number(let number)?:
      guard let value = Int64(number.text) else {
        throw bad(key, "a whole number of milliunits", .malformedPayload)
      }
      guard value >= 0 else { throw bad(key, "0 or more, not \(value)", .negativePrice) }
      return value
    default: throw bad(key, "a number", .malformedPayload)
    }
  }

  func optionalObject(_ key: String) throws(CommerceRefusal) -> CommerceReader? {
    switch object[key] {
    case nil, .null?: return nil
    case .object(let inner)?: return CommerceReader(inner, "\(path).\(key)")
    default: throw bad(key, "an object", .malformedPayload)
    }
  }

  func objects(_ key: String) throws(CommerceRefusal) -> [CommerceReader] {
    try optionalObjects(key) ?? []
  }

  func optionalObjects(_ key: String) throws(CommerceRefusal) -> [CommerceReader]? {
    switch object[key] {
    case nil, .null?: return nil
    case .array(let values)?:
      return try values.enumerated().map { (index, value) throws(CommerceRefusal) in
        guard case .object(let inner) = value else {
          throw bad("\(key)[\(index)]", "an object", .malformedPayload)
        }
        return CommerceReader(inner, "\(path).\(key)[\(index)]")
      }
    default: throw bad(key, "an array", .malformedPayload)
    }
  }

  func requestInfo() throws(CommerceRefusal) -> CommerceRequestInfo {
    guard let info = try optionalObject("requestInfo") else {
      throw CommerceRefusal(.nullRequestInfo, "\(path).requestInfo is missing")
    }
    guard let reference = try info.optionalString("requestReferenceId") else {
      throw CommerceRefusal(
        .nullRequestReferenceID, "\(info.path).requestReferenceId is missing")
    }
    guard UUID(uuidString: reference) != nil else {
      throw info.bad("requestReferenceId", "a UUID", .invalidRequestReferenceID)
    }
    let token = try info.optionalString("appAccountToken")
    if let token, UUID(uuidString: token) == nil {
      throw info.bad("appAccountToken", "a UUID", .malformedPayload)
    }
    return CommerceRequestInfo(
      requestReferenceID: reference.lowercased(), appAccountToken: token?.lowercased(),
      consistencyToken: try info.optionalString("consistencyToken"))
  }

  func transactionID() throws(CommerceRefusal) -> UInt64 {
    let text = try string("transactionId")
    guard let id = UInt64(text) else {
      throw bad("transactionId", "a decimal transaction id", .malformedPayload)
    }
    return id
  }

  /// What `read` gives, refused by `rule` when the field is missing.
  func present<Value>(
    _ key: String, _ what: String, _ rule: CommerceRule,
    _ read: (Self) throws(CommerceRefusal) -> Value?
  ) throws(CommerceRefusal) -> Value {
    guard let value = try read(self) else { throw bad(key, "present (\(what))", rule) }
    return value
  }

  func currency() throws(CommerceRefusal) -> String {
    try present("currency", "an ISO 4217 code", .invalidCurrency) { (r) throws(CommerceRefusal) in
      try r.optionalCurrency()
    }
  }

  func optionalCurrency() throws(CommerceRefusal) -> String? {
    guard let text = try optionalString("currency") else { return nil }
    guard text.count == 3, text.allSatisfy({ $0.isASCII && $0.isUppercase }) else {
      throw bad("currency", "an ISO 4217 code such as USD", .invalidCurrency)
    }
    return text
  }

  func taxCode() throws(CommerceRefusal) -> String {
    try present("taxCode", "one of Apple's tax codes", .invalidTaxCode) {
      (r) throws(CommerceRefusal) in try r.optionalTaxCode()
    }
  }

  func optionalTaxCode() throws(CommerceRefusal) -> String? {
    guard let code = try optionalString("taxCode") else { return nil }
    guard !code.isEmpty, code.count <= 64,
      code.allSatisfy({ $0.isASCII && ($0.isLetter || $0.isNumber || $0 == "-" || $0 == "_") })
    else { throw bad("taxCode", "one of Apple's tax codes (such as C003-00-1)", .invalidTaxCode) }
    return code
  }

  func period(_ key: String) throws(CommerceRefusal) -> CommercePeriod {
    let text = try string(key)
    guard let period = CommercePeriod(rawValue: text) else {
      throw bad(
        key, "P1W, P1M, P2M, P3M, P6M or P1Y, not \"\(text.prefix(20))\"", .operationNotAllowed)
    }
    return period
  }

  func effective(_ key: String = "effective") throws(CommerceRefusal) -> CommerceEffective {
    let text = try string(key)
    guard let effective = CommerceEffective(rawValue: text) else {
      throw bad(key, "IMMEDIATELY or NEXT_BILL_CYCLE", .malformedPayload)
    }
    return effective
  }

  /// A text of at most `longest` characters, refused by `rule` when longer.
  func limited(
    _ key: String, _ longest: Int, _ rule: CommerceRule
  ) throws(CommerceRefusal) -> String? {
    guard let text = try optionalString(key) else { return nil }
    guard text.count <= longest else { throw bad(key, "at most \(longest) characters", rule) }
    return text
  }

  func checkedDescription() throws(CommerceRefusal) -> String? {
    try limited("description", Self.longestDescription, .descriptionTooLong)
  }

  func checkedDisplayName() throws(CommerceRefusal) -> String? {
    try limited("displayName", Self.longestDisplayName, .displayNameTooLong)
  }

  func descriptors() throws(CommerceRefusal) -> CommerceDescriptors {
    guard let inner = try optionalObject("descriptors") else {
      throw bad("descriptors", "present (description, displayName)", .malformedPayload)
    }
    guard let description = try inner.checkedDescription() else {
      throw inner.bad("description", "present (a string)", .malformedPayload)
    }
    guard let name = try inner.checkedDisplayName() else {
      throw inner.bad("displayName", "present (a string)", .malformedPayload)
    }
    return CommerceDescriptors(description: description, displayName: name)
  }

  /// An item: `SKU`, `description`, `displayName`, and (`pricing`) `price` and `offer`.
  func item(pricing: Bool = true) throws(CommerceRefusal) -> CommerceItem {
    let sku = try string("SKU")
    guard !sku.isEmpty, sku.count <= Self.longestSKU else {
      throw bad("SKU", "1 to \(Self.longestSKU) characters", .operationNotAllowed)
    }
    guard let description = try checkedDescription() else {
      throw bad("description", "present (a string)", .malformedPayload)
    }
    guard let name = try checkedDisplayName() else {
      throw bad("displayName", "present (a string)", .malformedPayload)
    }
    let price = pricing ? try self.price("price") : try optionalPrice("price") ?? 0
    return CommerceItem(
      sku: sku, description: description, displayName: name, price: price,
      offer: pricing ? try offer() : nil)
  }

  /// Apple's offer periods (`OfferPeriod`) and reasons (`OfferReason`).
  static let offerPeriods: Set<String> = [
    "P3D", "P1W", "P2W", "P1M", "P2M", "P3M", "P6M", "P9M", "P1Y",
  ]
  static let offerReasons: Set<String> = ["ACQUISITION", "WIN_BACK", "RETENTION"]

  func offer() throws(CommerceRefusal) -> CommerceOffer? {
    guard let inner = try optionalObject("offer") else { return nil }
    let period = try inner.string("period")
    guard Self.offerPeriods.contains(period) else {
      throw inner.bad(
        "period", "one of \(Self.offerPeriods.sorted().joined(separator: ", "))",
        .operationNotAllowed)
    }
    guard case .number(let count)? = inner.object["periodCount"], let periods = count.integralValue,
      (1...12).contains(periods)
    else { throw inner.bad("periodCount", "1 to 12", .operationNotAllowed) }
    let reason = try inner.string("reason")
    guard Self.offerReasons.contains(reason) else {
      throw inner.bad("reason", "ACQUISITION, WIN_BACK or RETENTION", .operationNotAllowed)
    }
    return CommerceOffer(
      period: period, periodCount: periods, price: try inner.price("price"), reason: reason)
  }

  /// The items of `key`: at least one, no SKU twice.
  func items(_ key: String) throws(CommerceRefusal) -> [CommerceItem] {
    let items = try objects(key).map { (item) throws(CommerceRefusal) in try item.item() }
    guard !items.isEmpty else { throw bad(key, "at least one item", .operationNotAllowed) }
    guard Set(items.map(\.sku)).count == items.count else {
      throw bad(key, "items of different SKUs", .operationNotAllowed)
    }
    return items
  }

  static let refundTypes: Set<String> = ["FULL", "PRORATED", "CUSTOM"]
  static let refundReasons: Set<String> = [
    "UNINTENDED_PURCHASE", "FULFILLMENT_ISSUE", "UNSATISFIED_WITH_PURCHASE", "LEGAL", "OTHER",
    "MODIFY_ITEMS_REFUND", "SIMULATE_REFUND_DECLINE",
  ]

  func refundType() throws(CommerceRefusal) -> String {
    let type = try string("refundType")
    guard Self.refundTypes.contains(type) else {
      throw bad("refundType", "FULL, PRORATED or CUSTOM", .malformedPayload)
    }
    return type
  }

  func refundReason() throws(CommerceRefusal) -> String {
    let reason = try string("refundReason")
    guard Self.refundReasons.contains(reason) else {
      throw bad(
        "refundReason", "one of \(Self.refundReasons.sorted().joined(separator: ", "))",
        .malformedPayload)
    }
    return reason
  }
}
