/// What a verified in-app Advanced Commerce request makes.
extension Session {
  /// Applies a checked in-app request: spends its nonce and `requestReferenceId`, then makes
  /// the charge, the subscription, its modification or its reactivation.
  mutating func performCommercePurchase(
    _ request: CommerceInAppRequest, nonce: String, _ productIndex: Int,
    _ options: PurchaseOptions, delivery: Delivery, _ sink: EventSink
  ) {
    serverRecords.spentOfferNonces.insert(nonce)
    // An in-app request's id is never good again (no retry answers as the first): what it
    // asked is not kept.
    spendRequest(request.info, request: request.operation)
    var options = options
    options.appAccountToken = request.info.appAccountToken ?? options.appAccountToken?.lowercased()
    switch request {
    case .createOneTimeCharge(_, let terms, _):
      var record = TransactionRecord(
        id: 0, originalID: TransactionRecord.ownID, purchaseDate: now.milliseconds,
        originalPurchaseDate: now.milliseconds, price: terms.price,
        product: Int32(productIndex), storefront: storefrontIndex(), state: .purchased)
      let position = place(&record, token: options.appAccountToken, reusing: nil)
      ledger.updateDetails(at: position) { $0.commerce = terms }
      announcePurchase(position, delivery: delivery, options: options, sink)
    case .createSubscription(_, let terms, _, _):
      options.commerceTerms = terms
      completePurchase(productIndex, options, date: now.milliseconds, delivery: delivery, sink)
    case .modify(let info, let change):
      modifySubscription(change, info, options, delivery: delivery, sink)
    case .reactivate(_, let id, let skus, _):
      guard let (group, original) = try? commerceGroup(id) else { return }
      groups[group].willAutoRenew = true
      if !skus.isEmpty {
        makeUnique()
        storage.commerce.subscriptions[original]!.renewal.items.removeAll { !skus.contains($0.sku) }
      }
      storage.commerce.subscriptions[original]!.renewal.requestReferenceID =
        request.info.requestReferenceID
      renewToken(original)
      if let position = ledger.position(of: groups[group].current) {
        announcePurchase(position, delivery: delivery, options: options, sink)
      }
      emitStatus(group: group, at: now.milliseconds, sink)
    }
  }

  /// Opens the first period of an Advanced Commerce subscription at `position`: its end by the
  /// request's period, its price the items', its terms in its details and the session's
  /// record of what renews.
  mutating func openCommerce(at position: Int, terms: CommerceTerms, anchor: inout Int8) {
    let record = ledger[position]
    anchor = 0
    let end = periodEnd(
      of: (terms.period ?? .oneMonth).subscriptionPeriod, start: record.purchaseDate,
      anchor: &anchor)
    ledger.update(position) {
      $0.expirationDate = end
      $0.price = terms.price
    }
    ledger.updateDetails(at: position) { $0.commerce = terms }
    makeUnique()
    storage.commerce.open(record.originalID, renewing: terms.charged())
  }

  /// A renewal of an Advanced Commerce subscription: its end by the period that renews, its
  /// price the items' (offers and price changes due applied) and the terms it charged.
  mutating func renewCommerce(
    group index: Int, start: Int64, anchor: inout Int8
  ) -> (expiration: Int64, price: Int64, terms: CommerceTerms) {
    let original = groups[index].originalID
    makeUnique()
    var terms = storage.commerce.renewal(of: original)
    let consented = groups[index].priceIncrease == .agreed
    for item in terms.items.indices {
      guard let change = terms.items[item].priceIncrease,
        change.status != "PENDING" || consented, start >= change.from
      else { continue }
      terms.items[item].price = change.price
      terms.items[item].priceIncrease = nil
    }
    let end = periodEnd(
      of: (terms.period ?? .oneMonth).subscriptionPeriod, start: start, anchor: &anchor)
    storage.commerce.subscriptions[original]!.renewal = terms.charged()
    var charged = terms
    for item in charged.items.indices { charged.items[item].priceIncrease = nil }
    return (end, charged.price, charged)
  }

  /// `MODIFY_SUBSCRIPTION`: what renews changes now; immediate changes make a transaction now
  /// (the rest of the period prorated with `retainBillingCycle`, else a new period), changes
  /// at the next renewal hand back the current one.
  private mutating func modifySubscription(
    _ change: CommerceModification, _ info: CommerceRequestInfo, _ options: PurchaseOptions,
    delivery: Delivery, _ sink: EventSink
  ) {
    guard let (group, original) = try? commerceGroup(change.transactionID),
      let currentPosition = ledger.position(of: groups[group].current)
    else { return }
    let id = info.requestReferenceID
    makeUnique()
    storage.commerce.subscriptions[original]!.renewal = change.applied(
      to: storage.commerce.renewal(of: original), immediateOnly: false, requestReferenceID: id)
    let stamp = now.milliseconds
    guard change.changesNow else {
      renewToken(original)
      announcePurchase(currentPosition, delivery: delivery, options: options, sink)
      emitStatus(group: group, at: stamp, sink, also: .init(.didChangeRenewalPref, .downgrade))
      return
    }
    let old = ledger[currentPosition]
    let current = ledger.details(of: old)?.commerce ?? storage.commerce.renewal(of: original)
    let terms = change.applied(to: current, immediateOnly: true, requestReferenceID: id)
    var anchor = groups[group].anchorDay
    var record = TransactionRecord(
      id: 0, originalID: original, purchaseDate: stamp,
      originalPurchaseDate: old.originalPurchaseDate, expirationDate: groups[group].periodEnd,
      price: 0, product: old.product, storefront: storefrontIndex(), state: .purchased)
    if change.retainBillingCycle {
      let left = Double(max(0, old.expirationDate - stamp))
      let share = left / Double(max(1, old.expirationDate - old.purchaseDate))
      record.price = change.proratedCharge(from: current, share: share)
    } else {
      anchor = 0
      record.expirationDate = periodEnd(
        of: (terms.period ?? .oneMonth).subscriptionPeriod, start: stamp, anchor: &anchor)
      record.price = terms.price
      storage.commerce.subscriptions[original]!.renewal = storage.commerce.renewal(of: original)
        .charged()
    }
    ledger.update(currentPosition) { $0.flags.insert(.upgraded) }
    emitTransaction(currentPosition, delivery: .updates, at: stamp, sink)
    var details = TransactionDetails(
      appAccountToken: options.appAccountToken ?? ledger.details(of: old)?.appAccountToken)
    details.commerce = terms
    let made = appendMade(record, details: details)
    groups[group].current = made
    groups[group].purchasedCount += 1
    groups[group].periodEnd = record.expirationDate
    groups[group].anchorDay = anchor
    reschedule(group: group)
    renewToken(original)
    announcePurchase(
      ledger.records.count - 1, delivery: delivery, options: options, sink,
      cause: .init(.didChangeRenewalPref, .upgrade))
    emitStatus(group: group, at: stamp, sink)
  }
}

extension CommerceTerms {
  /// The terms after a period charged them: each offer one period fewer, spent ones gone.
  func charged() -> CommerceTerms {
    var next = self
    for index in next.items.indices {
      guard var offer = next.items[index].offer else { continue }
      offer.remaining -= 1
      next.items[index].offer = offer.remaining > 0 ? offer : nil
    }
    return next
  }
}

extension CommerceModification {
  /// `terms` with this modification's changes: all of them (what renews), or only those that
  /// take effect now (what the transaction made now charges).
  func applied(
    to terms: CommerceTerms, immediateOnly: Bool, requestReferenceID: String
  ) -> CommerceTerms {
    var next = terms
    for change in changeItems where !immediateOnly || change.effective == .immediately {
      if let index = next.items.firstIndex(where: { $0.sku == change.currentSKU }) {
        next.items[index] = change.item
      }
    }
    if !immediateOnly { next.items.removeAll { removeItems.contains($0.sku) } }
    next.items += addItems.map(\.item)
    if let periodChange, !immediateOnly || periodChange.effective == .immediately {
      next.period = periodChange.period
    }
    if let descriptors, !immediateOnly || descriptors.effective == .immediately {
      next.descriptors.description = descriptors.description ?? next.descriptors.description
      next.descriptors.displayName = descriptors.displayName ?? next.descriptors.displayName
    }
    next.taxCode = taxCode ?? next.taxCode
    next.requestReferenceID = requestReferenceID
    return next
  }

  /// What the rest of a period costs for the items added or changed now: each one's
  /// `proratedPrice`, else its price (less the replaced item's) times the share left.
  func proratedCharge(from current: CommerceTerms, share: Double) -> Int64 {
    var total: Int64 = 0
    for (item, prorated) in addItems {
      total += prorated ?? Int64((Double(item.charged) * share).rounded())
    }
    for change in changeItems where change.effective == .immediately {
      let replaced = current.item(change.currentSKU)?.charged ?? 0
      total +=
        change.prorated
        ?? Int64((Double(max(0, change.item.charged - replaced)) * share).rounded())
    }
    return total
  }
}
