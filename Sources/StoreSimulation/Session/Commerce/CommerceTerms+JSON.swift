import StoreJSON

extension CommerceTerms {
  /// Apple's `AdvancedCommerceTransactionInfo` (`renewalToken` `nil`) or
  /// `AdvancedCommerceRenewalInfo` (with its `consistencyToken`), as Apple's library decodes
  /// them. `kept`: with what Storekeeper keeps besides (offers' periods left, when a price
  /// change applies, the currency), for a snapshot read back.
  public func payload(
    renewalToken: String? = nil, renewal: Bool = false, kept: Bool = false
  )
    -> JSONValue
  {
    var p = JSONObject()
    if let renewalToken { p["consistencyToken"] = .string(renewalToken) }
    p["descriptors"] = .object(
      JSONObject([
        JSONMember("description", .string(descriptors.description)),
        JSONMember("displayName", .string(descriptors.displayName)),
      ]))
    if !renewal {
      p["estimatedTax"] = .number(JSONNumber(0))
    }
    p["items"] = .array(items.map { $0.payload(renewal: renewal, kept: kept) })
    if let period { p["period"] = .string(period.rawValue) }
    p["requestReferenceId"] = .string(requestReferenceID)
    p["taxCode"] = .string(taxCode)
    if !renewal {
      p["taxExclusivePrice"] = .number(JSONNumber(text: String(price)))
      p["taxRate"] = .string("0.00")
    }
    if kept { p["currency"] = .string(currency) }
    return .object(p)
  }

  /// The terms ``payload(renewalToken:renewal:kept:)`` wrote with `kept`; `nil` when it is
  /// not that.
  init?(kept object: JSONObject) {
    guard case .object(let names)? = object["descriptors"],
      case .string(let description)? = names["description"],
      case .string(let name)? = names["displayName"],
      case .array(let items)? = object["items"],
      case .string(let reference)? = object["requestReferenceId"],
      case .string(let taxCode)? = object["taxCode"],
      case .string(let currency)? = object["currency"]
    else { return nil }
    var read: [CommerceItem] = []
    for value in items {
      guard case .object(let item) = value, let parsed = CommerceItem(kept: item) else {
        return nil
      }
      read.append(parsed)
    }
    var period: CommercePeriod?
    if case .string(let text)? = object["period"] { period = CommercePeriod(rawValue: text) }
    self.init(
      descriptors: CommerceDescriptors(description: description, displayName: name),
      items: read, period: period, taxCode: taxCode, requestReferenceID: reference,
      currency: currency)
  }
}

extension CommerceItem {
  func payload(renewal: Bool, kept: Bool) -> JSONValue {
    var p = JSONObject()
    p["SKU"] = .string(sku)
    p["description"] = .string(description)
    p["displayName"] = .string(displayName)
    if let offer {
      var o = JSONObject([
        JSONMember("period", .string(offer.period)),
        JSONMember("periodCount", .number(JSONNumber(offer.periodCount))),
        JSONMember("price", .number(JSONNumber(text: String(offer.price)))),
        JSONMember("reason", .string(offer.reason)),
      ])
      if kept { o["remaining"] = .number(JSONNumber(offer.remaining)) }
      p["offer"] = .object(o)
    }
    p["price"] = .number(JSONNumber(text: String(price)))
    if renewal || kept, let change = priceIncrease {
      var o = JSONObject([
        JSONMember("dependentSKUs", .array(change.dependentSKUs.map { .string($0) })),
        JSONMember("price", .number(JSONNumber(text: String(change.price)))),
        JSONMember("status", .string(change.status)),
      ])
      if kept { o["from"] = .number(JSONNumber(text: String(change.from))) }
      p["priceIncreaseInfo"] = .object(o)
    }
    if !renewal {
      if !refunds.isEmpty {
        p["refunds"] = .array(
          refunds.map { refund in
            .object(
              JSONObject([
                JSONMember("refundAmount", .number(JSONNumber(text: String(refund.amount)))),
                JSONMember(
                  "refundDate", .number(JSONNumber(text: String(refund.date.milliseconds)))),
                JSONMember("refundReason", .string(refund.reason)),
                JSONMember("refundType", .string(refund.type)),
              ]))
          })
      }
      if let revocationDate {
        p["revocationDate"] = .number(JSONNumber(text: String(revocationDate.milliseconds)))
      }
    }
    return .object(p)
  }

  init?(kept p: JSONObject) {
    func int(_ object: JSONObject, _ key: String) -> Int64? {
      if case .number(let number)? = object[key] { Int64(number.text) } else { nil }
    }
    func text(_ object: JSONObject, _ key: String) -> String? {
      if case .string(let value)? = object[key] { value } else { nil }
    }
    guard let sku = text(p, "SKU"), let description = text(p, "description"),
      let name = text(p, "displayName"), let price = int(p, "price")
    else { return nil }
    self.init(sku: sku, description: description, displayName: name, price: price)
    if case .object(let o)? = p["offer"], let period = text(o, "period"),
      let count = int(o, "periodCount"), let offerPrice = int(o, "price"),
      let reason = text(o, "reason")
    {
      offer = CommerceOffer(
        period: period, periodCount: Int(count), price: offerPrice, reason: reason)
      offer?.remaining = Int(int(o, "remaining") ?? count)
    }
    if case .object(let o)? = p["priceIncreaseInfo"], let newPrice = int(o, "price"),
      let status = text(o, "status")
    {
      var skus: [String] = []
      if case .array(let values)? = o["dependentSKUs"] {
        skus = values.compactMap { if case .string(let s) = $0 { s } else { nil } }
      }
      priceIncrease = CommercePriceIncrease(
        price: newPrice, status: status, dependentSKUs: skus, from: int(o, "from") ?? 0)
    }
    if case .array(let values)? = p["refunds"] {
      for case .object(let r) in values {
        guard let amount = int(r, "refundAmount"), let date = int(r, "refundDate"),
          let reason = text(r, "refundReason"), let type = text(r, "refundType")
        else { return nil }
        refunds.append(
          CommerceRefund(
            amount: amount, date: Instant(milliseconds: date), reason: reason, type: type))
      }
    }
    revocationDate = int(p, "revocationDate").map { Instant(milliseconds: $0) }
  }
}
