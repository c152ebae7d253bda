/// The Advanced Commerce API, server half: the six endpoints' changes of a customer's
/// subscription or transaction, each journaled as a `commerce` command and notified.
extension Session {
  /// Whether `action` repeats an earlier request of the same `requestReferenceId` and body:
  /// Apple answers a retry as the first, changing nothing.
  public func isCommerceRetry(_ action: CommerceAction) -> Bool {
    storage.commerce.isRetry(action.request.info.requestReferenceID, asking: "\(action)")
  }

  /// Why a server request cannot apply: Apple's rules against the transaction's state.
  func checkCommerce(_ action: CommerceAction) throws(SessionError) {
    let info = action.request.info
    try checkFresh(info, request: "\(action)")
    let position = try requireTransaction(action.reference)
    let record = ledger[position]
    switch action.request {
    case .requestRefund(_, let items, let currency):
      try checkMarket(currency, storefront: nil)
      try checkRefund(items, position)
      return
    case .migrate(_, _, let target, _):
      try checkMigration(record, target: target)
      return
    default: break
    }
    let (group, original) = try commerceGroup(action.reference)
    try checkToken(info, original)
    let state = groups[group]
    switch action.request {
    case .revoke:
      guard state.isActive else {
        throw commerceRefusal(.revokeInactive, "subscription \(original) is not active")
      }
    case .changePrice(_, let items, let currency):
      try checkMarket(currency, storefront: nil)
      guard state.phase == .subscribed else {
        throw commerceRefusal(
          .notEligible,
          "subscription \(original) is not active or is in billing retry: its price cannot change")
      }
      let held = Set(storage.commerce.renewal(of: original).items.map(\.sku))
      if let missing = items.first(where: { !held.contains($0.sku) }) {
        throw commerceRefusal(.changeItemNotFound, "no SKU \(missing.sku) renews")
      }
    case .changeMetadata(_, _, let items, _):
      let held = Set(storage.commerce.renewal(of: original).items.map(\.sku))
      if let missing = items.first(where: { !held.contains($0.currentSKU) }) {
        throw commerceRefusal(.changeItemNotFound, "no SKU \(missing.currentSKU) renews")
      }
      fallthrough
    case .cancel:
      guard state.isActive else {
        throw commerceRefusal(.inactive, "subscription \(original) has ended")
      }
    case .migrate, .requestRefund: break
    }
  }

  private func checkMigration(_ record: TransactionRecord, target: String) throws(SessionError) {
    let id = record.id
    guard let group = product(at: record.product).groupIndex else {
      throw commerceRefusal(.notEligible, "transaction \(id) is no subscription's")
    }
    if storage.commerce[record.originalID] != nil {
      throw commerceRefusal(
        .alreadyMigrated,
        "subscription \(record.originalID) is an Advanced Commerce one already")
    }
    guard let index = catalog.index(of: target), catalog.commerceKinds[index] == .subscription
    else {
      throw commerceRefusal(
        .invalidTargetProduct,
        "targetProductId \(target) is no generic Advanced Commerce subscription product (set "
          + "advanced-commerce \(target) subscription)")
    }
    guard groups[group].isActive else {
      throw commerceRefusal(.inactive, "subscription \(record.originalID) has ended")
    }
    guard groups[group].priceIncrease == .noIncreasePending, groups[group].increase == nil else {
      throw commerceRefusal(
        .migrationAfterPriceIncrease,
        "subscription \(record.originalID) has a price increase communicated")
    }
  }

  private func checkRefund(_ items: [CommerceRefundItem], _ position: Int) throws(SessionError) {
    let record = ledger[position]
    guard let terms = ledger.details(of: record)?.commerce else {
      throw commerceRefusal(
        .notEligible, "transaction \(record.id) is no Advanced Commerce transaction")
    }
    guard !record.isRevoked, record.state == .purchased else {
      throw commerceRefusal(.alreadyRefunded, "transaction \(record.id) was refunded")
    }
    for refund in items {
      guard let item = terms.item(refund.sku) else {
        throw commerceRefusal(
          .notRefundable, "transaction \(record.id) has no SKU \(refund.sku)")
      }
      guard item.revocationDate == nil, item.refunds.isEmpty else {
        throw commerceRefusal(.alreadyRefunded, "SKU \(refund.sku) was refunded")
      }
      if refund.type == "CUSTOM" {
        guard let amount = refund.amount, amount <= item.charged else {
          throw commerceRefusal(
            .operationNotAllowed,
            "a CUSTOM refund of \(refund.sku) gives refundAmount, at most its price "
              + "\(item.charged)")
        }
      }
    }
  }

  /// Applies a server request (the endpoint the request names).
  ///
  /// - Throws: ``refusal(_:)``'s answer; nothing changes then.
  public mutating func performCommerce(
    _ action: CommerceAction, _ sink: EventSink
  ) throws(SessionError) {
    if isCommerceRetry(action) { return }
    try checkCommerce(action)
    spendRequest(action.request.info, request: "\(action)")
    let stamp = now.milliseconds
    switch action.request {
    case .requestRefund(_, let items, _):
      refundItems(items, of: action.reference, sink)
      settle(sink)
      return
    case .migrate(let info, let terms, _, let renewal):
      migrate(action.reference, terms, renewal: renewal, info, sink)
      settle(sink)
      return
    default: break
    }
    let (group, original) = try commerceGroup(action.reference)
    switch action.request {
    case .cancel:
      groups[group].willAutoRenew = false
      renewToken(original)
      emitStatus(group: group, at: stamp, sink)
    case .revoke(_, let type, _):
      let current = groups[group].current
      let share = type == "PRORATED" ? proratedShare(current) : nil
      markItems(of: current, type: type, reason: "OTHER", revoke: true)
      renewToken(original)
      try refund(current, reason: .other, share: share, sink)
    case .changePrice(let info, let items, _):
      changePrice(group, original, items, info)
      let waits = storage.commerce.renewal(of: original).items.contains {
        $0.priceIncrease?.status == "PENDING"
      }
      if waits && groups[group].priceIncrease != .pending {
        // The App Store asks the customer (the consent sheet); `price-increase consent|decline`.
        groups[group].priceIncrease = .pending
        emit(
          .message(.priceIncreaseConsent, productID: product(at: groups[group].product).productID),
          at: stamp, sink)
      }
      emitStatus(group: group, at: stamp, sink, also: .init(.priceChange))
    case .changeMetadata(let info, let descriptors, let items, let taxCode):
      changeMetadata(group, original, descriptors, items, taxCode, info)
      emitStatus(group: group, at: stamp, sink, also: .init(.metadataUpdate))
    case .migrate, .requestRefund: break
    }
    settle(sink)
  }

  /// The share of a period left (thousandths of a percent), for a prorated refund.
  private func proratedShare(_ id: UInt64) -> Int? {
    guard let position = ledger.position(of: id) else { return nil }
    let record = ledger[position]
    let length = max(1, record.expirationDate - record.purchaseDate)
    let left = max(0, record.expirationDate - now.milliseconds)
    return max(1, min(100_000, Int(left * 100_000 / length)))
  }

  private mutating func changePrice(
    _ group: Int, _ original: UInt64, _ items: [CommercePriceChange], _ info: CommerceRequestInfo
  ) {
    let end = groups[group].periodEnd
    // Apple's 24 hours: a change made later than a day before the renewal makes the next one.
    let from = end - now.milliseconds >= 86_400_000 ? end : end + 1
    makeUnique()
    var subscription = storage.commerce[original]!
    for change in items {
      guard let index = subscription.renewal.items.firstIndex(where: { $0.sku == change.sku })
      else { continue }
      let old = subscription.renewal.items[index].price
      let consent = change.price > old && Self.needsConsent(old: old, new: change.price)
      subscription.renewal.items[index].priceIncrease = CommercePriceIncrease(
        price: change.price,
        status: change.price <= old ? "SCHEDULED" : consent ? "PENDING" : "SCHEDULED",
        dependentSKUs: change.dependentSKUs, from: from)
    }
    subscription.renewal.requestReferenceID = info.requestReferenceID
    storage.commerce.subscriptions[original] = subscription
    renewToken(original)
  }

  /// Apple's consent rule (Handling subscription price changes): more than 50 % and more than
  /// 5 units of the currency a period.
  static func needsConsent(old: Int64, new: Int64) -> Bool {
    new - old > old / 2 && new - old > 5_000
  }

  private mutating func changeMetadata(
    _ group: Int, _ original: UInt64, _ descriptors: CommerceDescriptorChange?,
    _ items: [CommerceMetadataChange], _ taxCode: String?, _ info: CommerceRequestInfo
  ) {
    func apply(_ terms: inout CommerceTerms, immediateOnly: Bool) {
      if let descriptors, !immediateOnly || descriptors.effective == .immediately {
        terms.descriptors.description = descriptors.description ?? terms.descriptors.description
        terms.descriptors.displayName = descriptors.displayName ?? terms.descriptors.displayName
      }
      for change in items where !immediateOnly || change.effective == .immediately {
        guard let index = terms.items.firstIndex(where: { $0.sku == change.currentSKU }) else {
          continue
        }
        terms.items[index].sku = change.sku ?? terms.items[index].sku
        terms.items[index].description = change.description ?? terms.items[index].description
        terms.items[index].displayName = change.displayName ?? terms.items[index].displayName
      }
      if !immediateOnly { terms.taxCode = taxCode ?? terms.taxCode }
    }
    makeUnique()
    apply(&storage.commerce.subscriptions[original]!.renewal, immediateOnly: false)
    storage.commerce.subscriptions[original]!.renewal.requestReferenceID = info.requestReferenceID
    if let position = ledger.position(of: groups[group].current) {
      ledger.updateDetails(at: position) {
        if $0.commerce != nil { apply(&$0.commerce!, immediateOnly: true) }
      }
    }
    renewToken(original)
  }

  private mutating func migrate(
    _ id: UInt64, _ given: CommerceTerms, renewal: [CommerceItem]?, _ info: CommerceRequestInfo,
    _ sink: EventSink
  ) {
    guard let position = ledger.position(of: id),
      let group = product(at: ledger[position].product).groupIndex,
      let current = ledger.position(of: groups[group].current)
    else { return }
    let record = ledger[current]
    let period =
      product(at: record.product).period.flatMap { CommercePeriod(rawValue: $0.iso8601) }
      ?? .oneMonth
    var terms = given
    terms.period = period
    terms.currency = settings.storefront.currency
    // The items keep the subscription's price: the first one carries it [open].
    if !terms.items.isEmpty { terms.items[0].price = record.price }
    var renews = terms
    renews.items = renewal ?? terms.items
    if renewal != nil, !renews.items.isEmpty, renews.items.allSatisfy({ $0.price == 0 }) {
      renews.items[0].price = renewalPriceWithoutOffer(of: groups[group])
    }
    ledger.updateDetails(at: current) { $0.commerce = terms }
    makeUnique()
    storage.commerce.open(record.originalID, renewing: renews)
    emitTransaction(current, delivery: .updates, at: now.milliseconds, sink)
    emitStatus(group: group, at: now.milliseconds, sink, also: .init(.migration))
  }

  /// Request Transaction Refund: each item's refund recorded, revoked items' access ended
  /// now; a transaction whose every item is revoked is refunded whole.
  private mutating func refundItems(
    _ items: [CommerceRefundItem], of id: UInt64, _ sink: EventSink
  ) {
    guard let position = ledger.position(of: id) else { return }
    let stamp = now.milliseconds
    if items.allSatisfy({ $0.reason == "SIMULATE_REFUND_DECLINE" }) {
      emitTransaction(position, delivery: nil, at: stamp, sink, cause: .init(.refundDeclined))
      return
    }
    for item in items {
      markItems(of: id, type: item.type, reason: item.reason, revoke: item.revoke, only: item)
    }
    let terms = ledger.details(of: ledger[position])?.commerce
    let original = ledger[position].originalID
    if let terms, terms.items.allSatisfy({ $0.revocationDate != nil }) {
      let full = items.allSatisfy { $0.type == "FULL" }
      try? refund(id, reason: .other, share: full ? nil : proratedShare(id), sink)
    } else {
      emitTransaction(position, delivery: .updates, at: stamp, sink, cause: .init(.refund))
    }
    // Revoked items of a subscription no longer renew.
    let revoked = Set(items.filter(\.revoke).map(\.sku))
    if !revoked.isEmpty, storage.commerce[original] != nil {
      makeUnique()
      storage.commerce.subscriptions[original]!.renewal.items.removeAll { revoked.contains($0.sku) }
      renewToken(original)
    }
  }

  /// Records refunds on the items of transaction `id` (all of them, or `only` one).
  private mutating func markItems(
    of id: UInt64, type: String, reason: String, revoke: Bool, only: CommerceRefundItem? = nil
  ) {
    guard let position = ledger.position(of: id) else { return }
    let record = ledger[position]
    let stamp = now.milliseconds
    let left =
      record.hasExpiration
      ? Double(max(0, record.expirationDate - stamp))
        / Double(max(1, record.expirationDate - record.purchaseDate)) : 1
    ledger.updateDetails(at: position) { details in
      guard var terms = details.commerce else { return }
      for index in terms.items.indices where only == nil || terms.items[index].sku == only?.sku {
        let price = terms.items[index].charged
        let amount: Int64 =
          switch type {
          case "PRORATED": Int64((Double(price) * left).rounded())
          case "CUSTOM": only?.amount ?? price
          default: price
          }
        terms.items[index].refunds.append(
          CommerceRefund(
            amount: amount, date: Instant(milliseconds: stamp), reason: reason, type: type))
        if revoke { terms.items[index].revocationDate = Instant(milliseconds: stamp) }
      }
      details.commerce = terms
    }
  }
}
