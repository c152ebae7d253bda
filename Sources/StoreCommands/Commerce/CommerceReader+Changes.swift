import StoreSimulation

extension CommerceReader {
  /// `SubscriptionModifyInAppRequest`'s fields.
  func modification() throws(CommerceRefusal) -> CommerceModification {
    let adds = try objects("addItems").map { (item) throws(CommerceRefusal) in
      (item: try item.item(), prorated: try item.optionalPrice("proratedPrice"))
    }
    let changes = try objects("changeItems").map { (item) throws(CommerceRefusal) in
      let reason = try item.string("reason")
      guard ["UPGRADE", "DOWNGRADE", "APPLY_OFFER"].contains(reason) else {
        throw item.bad("reason", "UPGRADE, DOWNGRADE or APPLY_OFFER", .malformedPayload)
      }
      return CommerceItemChange(
        currentSKU: try item.string("currentSKU"), item: try item.item(), reason: reason,
        effective: try item.effective(), prorated: try item.optionalPrice("proratedPrice"))
    }
    let removes = try objects("removeItems").map { (item) throws(CommerceRefusal) in
      try item.string("SKU")
    }
    var period: (CommercePeriod, CommerceEffective)?
    if let change = try optionalObject("periodChange") {
      period = (try change.period("period"), try change.effective())
    }
    var descriptors: CommerceDescriptorChange?
    if let change = try optionalObject("descriptors") {
      descriptors = CommerceDescriptorChange(
        description: try change.checkedDescription(),
        displayName: try change.checkedDisplayName(), effective: try change.effective())
    }
    let modification = CommerceModification(
      transactionID: try transactionID(), retainBillingCycle: try bool("retainBillingCycle"),
      addItems: adds, changeItems: changes, removeItems: removes, periodChange: period,
      descriptors: descriptors, currency: try optionalCurrency(), taxCode: try optionalTaxCode())
    guard
      !adds.isEmpty || !changes.isEmpty || !removes.isEmpty || period != nil
        || descriptors != nil
    else {
      throw CommerceRefusal(
        .operationNotAllowed,
        "\(path) changes nothing: give addItems, changeItems, removeItems, periodChange or "
          + "descriptors")
    }
    return modification
  }

  /// `SubscriptionChangeMetadataRequest`'s fields.
  func metadataChange(_ info: CommerceRequestInfo) throws(CommerceRefusal) -> CommerceServerRequest
  {
    var descriptors: CommerceDescriptorChange?
    if let change = try optionalObject("descriptors") {
      descriptors = CommerceDescriptorChange(
        description: try change.checkedDescription(),
        displayName: try change.checkedDisplayName(), effective: try change.effective())
    }
    let items = try objects("items").map { (item) throws(CommerceRefusal) in
      let sku = try item.optionalString("SKU")
      if let sku, sku.isEmpty || sku.count > Self.longestSKU {
        throw item.bad("SKU", "1 to \(Self.longestSKU) characters", .operationNotAllowed)
      }
      return CommerceMetadataChange(
        currentSKU: try item.string("currentSKU"), effective: try item.effective(), sku: sku,
        description: try item.checkedDescription(), displayName: try item.checkedDisplayName())
    }
    let taxCode = try optionalTaxCode()
    guard descriptors != nil || !items.isEmpty || taxCode != nil else {
      throw CommerceRefusal(
        .operationNotAllowed, "\(path) changes nothing: give descriptors, items or taxCode")
    }
    return .changeMetadata(info, descriptors: descriptors, items: items, taxCode: taxCode)
  }
}
