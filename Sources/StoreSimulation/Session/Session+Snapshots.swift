import StoreConfiguration

extension Session {
  /// The public view of the record at `position`.
  func snapshot(_ position: Int, verification: Bool = false) -> Transaction {
    let record = ledger[position]
    return Transaction(
      record, catalog: catalog, storefront: storefronts[Int(record.storefront)],
      details: ledger.details(of: record),
      verificationError: verification ? settings.simulatedErrors[.verification] : nil,
      owner: account, rate: settings.timeRate,
      appTransactionID: importedAppTransactionID)
  }

  /// The addressed account's `appTransactionId` when Apple gave it (an imported customer's own
  /// account; never a family member's).
  var importedAppTransactionID: UInt64? {
    account.isPurchaser ? storage.customers.addressedState.importedAppTransactionID : nil
  }

  /// `appTransactionId` of `account`: an imported customer's is Apple's, every other the one
  /// ``Account/appTransactionID`` makes.
  public func appTransactionID(of account: Account) -> String {
    guard account.isPurchaser,
      let slot = storage.customers.slot(number: account.customer.number),
      let imported = storage.customers[slot].importedAppTransactionID
    else { return account.appTransactionID }
    return String(imported)
  }

  /// The imported customer whose `appTransactionId` Apple gave as `text`.
  ///
  /// - Complexity: O(1).
  public func customer(importedAppTransactionID text: String) -> Customer? {
    guard let value = UInt64(text), let number = storage.ids.owner(ofAppTransaction: value) else {
      return nil
    }
    return number == 0 ? .own : customer(number: number)
  }

  /// Whether Apple's `appTransactionId` replaced `customer`'s own-shaped one.
  public func hasImportedAppTransactionID(_ customer: Customer) -> Bool {
    storage.customers.slot(number: customer.number).map {
      storage.customers[$0].importedAppTransactionID != nil
    } ?? false
  }

  /// The status of group `index`, when the customer ever subscribed in it.
  func status(ofGroup index: Int) -> SubscriptionStatus? {
    status(of: groups[index], index: index)
  }

  /// ``status(ofGroup:)`` of the group borrowed in place (a copy of its state costs a renewal
  /// a tenth of its time).
  private func status(of group: borrowing GroupState, index: Int) -> SubscriptionStatus? {
    guard let state = group.renewalState else { return nil }
    let current = product(at: group.product)
    let renewal = product(at: group.renewalProduct)
    let next = group.upcoming.first
    let nextOffer = next.flatMap { offer(of: $0) }
    let renews = group.isActive && (group.willAutoRenew || isCommitted(group))
    let plan = renewalPlanTerms(of: group)
    let monthlyPrice = group.billingPeriod > 0 ? monthlyPlan(of: group.product)?.price : nil
    var info = RenewalInfo(
      originalTransactionID: group.originalID, currentProductID: current.productID,
      autoRenewPreference: renewal.productID, willAutoRenew: group.willAutoRenew,
      expirationReason: group.expirationReason,
      isInBillingRetry: group.phase == .gracePeriod
        || group.phase == .billingRetry,
      gracePeriodExpirationDate: group.phase == .gracePeriod
        ? Instant(milliseconds: group.graceEnd) : nil,
      priceIncreaseStatus: group.priceIncrease, offer: nextOffer.map(TransactionOffer.init),
      renewalDate: group.periodEnd == TransactionRecord.none
        ? nil : Instant(milliseconds: group.periodEnd),
      recentSubscriptionStartDate: Instant(milliseconds: group.recentStart),
      renewalPrice: renews
        ? (nextOffer?.price ?? monthlyPrice ?? renewalPriceWithoutOffer(of: group)) : nil,
      currency: settings.storefront.currency,
      eligibleWinBackOfferIDs: eligibleWinBackOfferIDs(of: group),
      appAccountToken: ledger.position(of: group.current).flatMap {
        ledger.details(of: ledger[$0])?.appAccountToken
      }, billingPlanType: plan?.0, commitment: plan?.1)
    if renews, !storage.seats.isEmpty, let seats = storage.seats[seatsKey(of: group)],
      let price = info.renewalPrice
    {
      let tiers = seatCharges(
        product: group.renewalProduct, offered: next != nil, after: 0, count: seats.renewalTotal,
        base: price)
      info.renewalSeats = seats.renewalTotal
      info.renewalSeatTiers = tiers
      info.renewalPrice = SeatRecords.total(tiers) / Int64(max(1, seats.renewalTotal))
    }
    if !storage.commerce.isEmpty, let commerce = storage.commerce[group.originalID] {
      let renewal = commerce.renewal.consented(group.priceIncrease == .agreed)
      info.advancedCommerce = renewal
      info.consistencyToken = commerce.consistencyToken
      if renews { info.renewalPrice = renewal.nextPrice }
    }
    return SubscriptionStatus(
      groupID: catalog.groups[index].id, state: state, transactionID: group.current,
      renewalInfo: info,
      billingRetryExpirationDate: group.phase == .gracePeriod || group.phase == .billingRetry
        ? Instant(milliseconds: group.retryEnd) : nil, owner: account,
      importedAppTransaction: importedAppTransactionID)
  }

  func offer(of upcoming: GroupState.UpcomingOffer) -> CatalogOffer? {
    product(at: upcoming.product).offer(
      OfferKind.allCases[Int(upcoming.kind)], index: upcoming.index)
  }

  // MARK: - Emitting

  /// Emits a transaction as it is now, with the notification it causes: `cause` when the verb
  /// says (a refund, its reversal, a renewal), else its purchase the first time it is emitted
  /// purchased.
  mutating func emitTransaction(
    _ position: Int, delivery: Delivery?, at time: Int64, _ sink: EventSink,
    cause: NotificationCause? = nil
  ) {
    countEvent()
    let firstPurchase = cause == nil && ledger.takeUntoldPurchase(at: position)
    guard !isMuted else { return }
    var causes = NotificationCauses()
    if let cause {
      causes.append(cause)
    } else if firstPurchase {
      causes = purchaseCauses(of: ledger[position])
    }
    let (customer, place) = eventCustomer
    sink(
      StoreEvent(
        time: Instant(milliseconds: time),
        kind: .transaction(snapshot(position, verification: delivery != nil), delivery: delivery),
        customer: customer, customerPlace: place, notifications: causes))
  }

  /// What a record's first purchase notifies, against its group's last status.
  private func purchaseCauses(of record: TransactionRecord) -> NotificationCauses {
    let product = product(at: record.product)
    let group = product.groupIndex
    // The offer the transaction carries, when it is not the introductory.
    let redeemsOffer = record.offer(of: product).map { $0.kind != .introductory } ?? false
    return .purchase(
      isSubscription: group != nil, isRenewal: record.flags.contains(.renewal),
      redeemsOffer: redeemsOffer, previous: group.flatMap { groups[$0].told })
  }

  /// Emits a group's status, with what changed since the last one (`redeemed`: the verb
  /// queued an offer for the renewals to come) and what the verb says besides (`also`: a
  /// change of seats, an Advanced Commerce change). What it says is kept (also while muted)
  /// for the next.
  mutating func emitStatus(
    group index: Int, at time: Int64, _ sink: EventSink, redeemed: Bool = false,
    also extra: NotificationCause? = nil
  ) {
    // One access to the group: what it says now replaces what it last said (kept also while
    // muted, so that a replay leaves the same to compare with).
    guard let (previous, told) = groups[index].retell() else { return }
    countEvent()
    guard !isMuted, let status = status(ofGroup: index) else { return }
    var causes =
      previous.map { NotificationCauses.statusChange(from: $0, to: told, redeemed: redeemed) }
      ?? NotificationCauses()
    if let extra, causes.count < 3 { causes.append(extra) }
    let (customer, place) = eventCustomer
    sink(
      StoreEvent(
        time: Instant(milliseconds: time), kind: .status(status), customer: customer,
        customerPlace: place, notifications: causes))
  }

  /// Emits an event; one of a kind that always notifies says so (``NotificationCauses/init(of:)``)
  /// unless `causes` are given.
  mutating func emit(
    _ kind: StoreEvent.Kind, at time: Int64, _ sink: EventSink, causes: NotificationCauses? = nil
  ) {
    countEvent()
    guard !isMuted else { return }
    let (customer, place) = eventCustomer
    sink(
      StoreEvent(
        time: Instant(milliseconds: time), kind: kind, customer: customer, customerPlace: place,
        notifications: causes ?? NotificationCauses(of: kind)))
  }

  /// Counts an event in the session's history and in its customer's.
  mutating func countEvent() {
    emittedEventCount += 1
    storage.customers.addressedState.eventCount += 1
  }

  /// Whose the event just counted is, when that is a named customer, and its place in their
  /// history.
  var eventCustomer: (Customer?, UInt64) {
    // Read in place (a copy of the book of customers would retain every chunk of it).
    let customer = storage.customers.addressedState.customer
    return customer.isOwn ? (nil, 0) : (customer, storage.customers.addressedState.eventCount - 1)
  }
}

extension TransactionOffer {
  init(_ offer: CatalogOffer) {
    self.init(
      type: OfferType(offer.kind), id: offer.id, paymentMode: OfferPaymentMode(offer.paymentMode),
      period: offer.paymentMode == .oneTime ? nil : offer.duration)
  }
}

extension Transaction {
  /// The public view of a stored record: the one mapping from the ledger's integers to what
  /// StoreKit reports (the session and ``LedgerSnapshot`` both use it).
  init(
    _ record: TransactionRecord, catalog: Catalog, storefront: Storefront,
    details: TransactionDetails?, verificationError: SimulatedError? = nil,
    owner: Account = .purchaser, rate: TimeRate = .realTime, appTransactionID: UInt64? = nil
  ) {
    let product = catalog.products[Int(record.product)]
    // An offer of the catalog by index; an imported one the catalog lacks, as Apple named it.
    let offer =
      record.offerIndex >= 0
      ? record.offer(of: product).map { TransactionOffer($0.offer) } : details?.imported?.offer
    let state: PaymentTransactionState =
      switch record.state {
      case .purchased: .purchased
      case .failed: .failed
      case .deferred: .deferred
      }
    self.init(
      id: record.id, originalID: record.originalID, productID: product.productID,
      productType: ProductKind(product.type),
      subscriptionGroupID: product.groupIndex.map { catalog.groups[$0].id },
      purchaseDate: Instant(milliseconds: record.purchaseDate),
      originalPurchaseDate: Instant(milliseconds: record.originalPurchaseDate),
      expirationDate: record.hasExpiration ? Instant(milliseconds: record.expirationDate) : nil,
      purchasedQuantity: Int(record.quantity), price: record.price, currency: storefront.currency,
      storefront: storefront.countryCode, storefrontID: storefront.id,
      reason: record.flags.contains(.renewal) ? .renewal : .purchase, offer: offer,
      revocationDate: record.isRevoked ? Instant(milliseconds: record.revocationDate) : nil,
      revocationReason: record.isRevoked
        ? (record.flags.contains(.revokedForDeveloperIssue) ? .developerIssue : .other) : nil,
      // A member's revocation returns nothing to them: no percentage [unverified].
      revocationType: !record.isRevoked
        ? nil
        : !owner.isPurchaser
          ? .familyRevoke
          : details?.seats?.assignedBy != nil
            ? .assignmentRevoke : record.refundedShare > 0 ? .refundProrated : .refundFull,
      revocationPercentage: record.isRevoked && owner.isPurchaser
        && details?.seats?.assignedBy == nil
        ? (record.refundedShare > 0 ? Int(record.refundedShare) : 100_000) : nil,
      hasRefundRequest: record.flags.contains(.refundRequested),
      isUpgraded: record.flags.contains(.upgraded), appAccountToken: details?.appAccountToken,
      state: state, isFinished: record.flags.contains(.finished),
      hasPurchaseIssue: record.flags.contains(.purchaseIssue),
      pendingAskToBuyConfirmation: record.flags.contains(.pendingApproval),
      isAskToBuyDeclined: record.flags.contains(.declined), failure: details?.failure,
      verificationError: verificationError, owner: owner,
      imported: details?.imported != nil || appTransactionID != nil
        ? ImportedValues(
          lineItem: details?.imported?.webOrderLineItemID, appTransaction: appTransactionID,
          ownership: details?.imported?.ownership ?? .purchased)
        : nil)
    seats = details?.seats
    advancedCommerce = details?.commerce

    if let plan = TransactionCommitment.planTerms(of: record, catalog: catalog, rate: rate) {
      billingPlanType = plan.type
      commitment = plan.commitment
    }
  }
}

extension TransactionRecord {
  /// The offer the transaction carries, as its product lists it; `nil` for none (or one the
  /// catalog no longer has, after a reload).
  func offer(of product: CatalogProduct) -> (kind: OfferKind, offer: CatalogOffer)? {
    guard offerIndex >= 0, OfferKind.allCases.indices.contains(Int(offerKind)) else { return nil }
    let kind = OfferKind.allCases[Int(offerKind)]
    return product.offer(kind, index: offerIndex).map { (kind, $0) }
  }
}
