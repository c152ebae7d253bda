import StoreConfiguration

extension Session {
  /// Places a transaction Apple reported (``ImportedTransaction``) in the addressed customer's
  /// ledger under Apple's id, finished, with Apple's values; an auto-renewable one becomes its
  /// group's current period when it is the latest. Nothing is notified: this is history.
  ///
  /// - Throws: ``SessionError`` when the id is taken, the product unknown, or the account is a
  ///   family member's.
  public mutating func importTransaction(
    _ imported: ImportedTransaction, _ sink: EventSink
  ) throws(SessionError) {
    let productIndex = try checkImport(imported)
    let storefront = storefrontIndex(
      of: Storefront(
        countryCode: imported.storefront, id: imported.storefrontID, currency: imported.currency))
    var record = TransactionRecord(imported, product: Int32(productIndex), storefront: storefront)
    var unmatchedOffer: TransactionOffer?
    if let offer = imported.offer {
      if let (kind, index) = catalogOffer(offer, product: productIndex) {
        record.offerKind = kind
        record.offerIndex = index
      } else {
        unmatchedOffer = offer
      }
    }
    let details = TransactionDetails(
      appAccountToken: imported.appAccountToken,
      imported: ImportedDetails(
        webOrderLineItemID: imported.webOrderLineItemID.flatMap { UInt64($0) }.flatMap {
          $0 == imported.id ? nil : $0
        },
        offer: unmatchedOffer, ownership: imported.ownership))
    let position = place(record, id: imported.id, details: details)
    if let appTransactionID = imported.appTransactionID.flatMap({ UInt64($0) }) {
      makeUnique()
      storage.customers.addressedState.importedAppTransactionID = appTransactionID
      storage.ids.give(appTransaction: appTransactionID, to: addressedCustomer.number)
    }
    settings.storefront = storefronts[Int(storefront)]
    if let groupIndex = catalog.products[productIndex].groupIndex {
      follow(imported: position, inGroup: groupIndex)
    }
    emitTransaction(position, delivery: nil, at: now.milliseconds, sink)
    if let groupIndex = catalog.products[productIndex].groupIndex {
      retellQuietly(group: groupIndex, sink)
    }
    settle(sink)
  }

  /// Why `imported` cannot be placed, thrown; else its product's index.
  @discardableResult
  func checkImport(_ imported: ImportedTransaction) throws(SessionError) -> Int {
    guard account.isPurchaser else {
      throw SessionError(.memberCannotBuy(member: account.name))
    }
    guard let productIndex = catalog.index(of: imported.productID) else {
      throw SessionError(
        .noProduct(imported.productID),
        suggestions: catalog.productIDs(closeTo: imported.productID))
    }
    if holdsTransaction(imported.id) {
      throw SessionError(.importedIDTaken(imported.id))
    }
    for (field, value) in [
      ("webOrderLineItemId", imported.webOrderLineItemID),
      ("appTransactionId", imported.appTransactionID),
    ] {
      if let value, UInt64(value) == nil {
        throw SessionError(.importedIDNotDecimal(field: field, value: value))
      }
    }
    return productIndex
  }

  /// The offer of the configuration an imported transaction's offer names: its kind's index and
  /// its index among the product's offers of that kind.
  func catalogOffer(_ offer: TransactionOffer, product productIndex: Int) -> (UInt8, Int16)? {
    guard let kind = OfferKind.allCases.first(where: { OfferType($0) == offer.type }) else {
      return nil
    }
    let offers = catalog.products[productIndex].offers(kind)
    guard
      let index = offers.firstIndex(where: {
        (kind == .introductory || $0.id == offer.id)
          && OfferPaymentMode($0.paymentMode) == offer.paymentMode
      })
    else { return nil }
    return (UInt8(OfferKind.allCases.firstIndex(of: kind)!), Int16(index))
  }

  /// Makes an imported auto-renewable transaction its group's current period when it is the
  /// latest (not one an upgrade replaced): subscribed while it lasts, expired or revoked after.
  /// `import renewal` then says what Apple's status says.
  private mutating func follow(imported position: Int, inGroup index: Int) {
    let record = ledger[position]
    var group = groups[index]
    group.purchasedCount += 1
    let latest =
      group.phase == .none
      || ledger.position(of: group.current).map { ledger[$0].purchaseDate <= record.purchaseDate }
        ?? true
    guard latest, !record.flags.contains(.upgraded) else { return groups[index] = group }
    if group.phase == .none || group.originalID != record.originalID {
      group.recentStart = record.purchaseDate
    }
    group.originalID = record.originalID
    group.current = record.id
    group.product = record.product
    group.renewalProduct = record.product
    group.periodEnd = record.expirationDate
    group.anchorDay = 0  // the next period keeps the day it starts on
    group.phase =
      record.isRevoked
      ? .revoked : record.expirationDate > now.milliseconds ? .subscribed : .expired
    group.willAutoRenew = group.phase == .subscribed
    group.expirationReason = group.phase == .expired ? .unknown : nil
    group.graceEnd = TransactionRecord.none
    group.retryEnd = TransactionRecord.none
    group.upcoming = []
    groups[index] = group
    reschedule(group: index)
  }

  /// Emits the group's status as its first: imported history notifies nothing.
  mutating func retellQuietly(group index: Int, _ sink: EventSink) {
    groups[index].toldBits = 0
    emitStatus(group: index, at: now.milliseconds, sink)
  }

  /// The index of `storefront` in the session's table, added when new.
  mutating func storefrontIndex(of storefront: Storefront) -> UInt8 {
    if let index = storefronts.firstIndex(of: storefront) { return UInt8(index) }
    storefronts.append(storefront)
    return UInt8(storefronts.count - 1)
  }
}

extension TransactionRecord {
  /// A finished record of an imported transaction (offer and details aside).
  init(_ imported: ImportedTransaction, product: Int32, storefront: UInt8) {
    self.init(
      id: imported.id, originalID: imported.originalID,
      purchaseDate: imported.purchaseDate.milliseconds,
      originalPurchaseDate: imported.originalPurchaseDate.milliseconds,
      expirationDate: imported.expirationDate?.milliseconds ?? Self.none,
      revocationDate: imported.revocationDate?.milliseconds ?? Self.none, price: imported.price,
      product: product, quantity: Int32(clamping: imported.quantity), storefront: storefront,
      state: .purchased, flags: .finished)
    if imported.reason == .renewal { flags.insert(.renewal) }
    if imported.isUpgraded { flags.insert(.upgraded) }
    if imported.revocationReason == .developerIssue { flags.insert(.revokedForDeveloperIssue) }
    if let share = imported.revocationPercentage, share < 100_000, share > 0 {
      refundedShare = Int32(share)
    }
  }
}
