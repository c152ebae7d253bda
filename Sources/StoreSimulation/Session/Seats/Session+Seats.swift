/// Multiseat subscriptions (Group Purchases): a subscription bought by the seat, its seats
/// changed by the purchaser (more now, fewer at the next renewal), refunded seat by seat, and
/// for developer-hosted invitations claimed, unclaimed and associated through the App Store
/// Server API. Every rule of seats is here.
extension Session {
  /// The seats of the multiseat subscription a transaction belongs to (any transaction of it:
  /// the original, a renewal, an added-seat one); `nil` for any other.
  public func seatGroup(ofTransaction id: UInt64) -> SeatGroup? {
    guard !storage.seats.isEmpty, let position = ledger.position(of: id) else { return nil }
    return storage.seats[ledger[position].originalID]
  }

  /// App Store Connect's invitation hosting that new multiseat purchases take.
  public var invitations: InvitationManagement { storage.seats.invitations }

  func seatRefusal(_ rule: SeatRule, _ message: String) -> SessionError {
    SessionError(.seats(SeatRefusal(rule, message)))
  }

  // MARK: - Purchases

  /// Why `buy <product> seats=N` cannot be made: seats on a product that is no auto-renewable
  /// subscription, fewer than one, a plan change with seats, or (for the subscription the
  /// customer has) no more than it holds (`seatReductionNotAllowed`).
  func checkSeatPurchase(_ productIndex: Int, seats: Int) throws(SessionError) {
    let product = catalog.products[productIndex]
    guard let groupIndex = product.groupIndex else {
      throw seatRefusal(
        .notSubscription,
        "seats=\(seats): \(product.productID) is not an auto-renewable subscription; only "
          + "those are sold by the seat")
    }
    guard seats >= 1 else {
      throw seatRefusal(.invalidCount, "seats=\(seats): a multiseat purchase has at least 1 seat")
    }
    guard storage.seats.sellsSeats(of: Int32(productIndex)) else {
      throw seatRefusal(
        .multiSeatDisabled,
        "\(product.productID) is not sold by the seat (multiSeatPurchaseDisabled: set "
          + "seat-pricing \(product.productID) on)")
    }
    if let most = storage.seats.mostSeats(of: Int32(productIndex)), seats > most {
      throw seatRefusal(
        .invalidCount, "seats=\(seats): \(product.productID)'s tiers end at \(most) seats")
    }
    let group = groups[groupIndex]
    guard group.isActive else { return }
    guard group.product == Int32(productIndex) else {
      throw seatRefusal(
        .notMultiSeat,
        "seats= with another product of the group: change the plan without seats, or buy "
          + "\(self.product(at: group.product).productID) seats=N")
    }
    guard let current = storage.seats[group.originalID] else {
      throw seatRefusal(
        .notMultiSeat,
        "\(product.productID) is subscribed without seats; a subscription bought without "
          + "seats= stays so until it ends")
    }
    try checkSeatsAdded(to: groupIndex, total: seats, held: current.total)
    guard seats > current.total else {
      throw seatRefusal(
        .reductionNotAllowed,
        "seats=\(seats) is not more than the \(current.total) seats held "
          + "(seatReductionNotAllowed: only the purchaser reduces seats, at the next renewal: "
          + "seats <txn> N)")
    }
  }

  /// A purchase's seats: checked when it has some; without, a plan change of a multiseat
  /// subscription is refused (Storekeeper does not simulate one yet).
  func checkSeatsOfPurchase(_ productIndex: Int, _ options: PurchaseOptions) throws(SessionError) {
    if let groupIndex = catalog.products[productIndex].groupIndex {
      try refuseAssigned(group: groupIndex)
    }
    if let seats = options.seats {
      guard seats <= PurchaseOptions.maximumQuantity else {
        throw seatRefusal(
          .invalidCount, "seats=\(seats): at most \(PurchaseOptions.maximumQuantity) seats")
      }
      if options.origin == .app,
        settings.askToBuyEnabled || settings.interruptedPurchasesEnabled
      {
        throw seatRefusal(
          .notSimulated,
          "seats= with Ask to Buy or interrupted purchases on: Storekeeper does not simulate a "
            + "multiseat purchase that waits yet (set ask-to-buy off, interrupted-purchases off)")
      }
      return try checkSeatPurchase(productIndex, seats: seats)
    }
    guard !storage.seats.isEmpty, let groupIndex = catalog.products[productIndex].groupIndex,
      groups[groupIndex].isActive, groups[groupIndex].product != Int32(productIndex),
      storage.seats[groups[groupIndex].originalID] != nil
    else { return }
    throw seatRefusal(
      .notSimulated,
      "the group's subscription is multiseat: Storekeeper does not simulate a multiseat plan "
        + "change yet (let it expire, then buy the other product)")
  }

  /// A multiseat purchase for the subscription the customer holds: the seats added now.
  /// Returns whether it was one.
  mutating func addSeatsByPurchase(
    _ productIndex: Int, _ options: PurchaseOptions, delivery: Delivery, _ sink: EventSink
  ) -> Bool {
    guard let seats = options.seats, let groupIndex = catalog.products[productIndex].groupIndex,
      groups[groupIndex].isActive, storage.seats[groups[groupIndex].originalID] != nil,
      let position = addSeats(group: groupIndex, total: seats, sink)
    else { return false }
    announcePurchase(
      position, delivery: delivery, options: options, sink,
      cause: .init(.didChangeRenewalPref, .increaseQuantity))
    return true
  }

  /// Makes the placed first record of a new run of periods multiseat (`seats`) or not: its
  /// quantity the seats, its price their total, its own details with the seat terms; the
  /// group's seats start over (claims included). Without seats, a resubscription leaves its
  /// seats behind.
  mutating func openSeats(at position: Int, seats: Int?) {
    let original = ledger[position].originalID
    guard let seats else {
      if storage.seats[original] != nil {
        makeUnique()
        storage.seats.close(original)
      }
      return
    }
    makeUnique()
    let record = ledger[position]
    let charges = seatCharges(record, after: 0, count: seats, base: record.price)
    let invitations = storage.seats.open(original, seats: seats, seatPrice: record.price)
    ledger.update(position) {
      $0.quantity = Int32(seats)
      $0.price = SeatRecords.total(charges)
    }
    ledger.updateDetails(at: position) {
      $0.seats = TransactionSeats(invitations: invitations, tiers: charges, revoked: nil)
    }
  }

  /// A renewal's record of a multiseat subscription: the seats that renew at the period's
  /// price each; the group's seats are the renewed ones, none refunded. Claims stay (the App
  /// Store does not unclaim at a renewal).
  mutating func renewSeats(
    _ record: inout TransactionRecord, details: inout TransactionDetails?, originalID: UInt64
  ) {
    guard storage.seats[originalID] != nil else { return }
    makeUnique()
    let group = storage.seats.renew(originalID, seatPrice: record.price)!
    let charges = seatCharges(record, after: 0, count: group.total, base: record.price)
    record.quantity = Int32(group.total)
    record.price = SeatRecords.total(charges)
    var own = details ?? TransactionDetails()
    own.seats = TransactionSeats(invitations: group.invitations, tiers: charges, revoked: nil)
    details = own
  }

  /// What seats `first + 1` to `first + count` of a period of `record`'s product cost, by
  /// price: its tiers (`set seat-pricing`), else one price, `base` (the period's price: an
  /// offer's price is one price for every seat).
  func seatCharges(
    _ record: TransactionRecord, after first: Int, count: Int, base: Int64
  ) -> [SeatCharge] {
    seatCharges(
      product: record.product, offered: record.offerIndex >= 0, after: first, count: count,
      base: base)
  }

  /// ``seatCharges(_:after:count:base:)`` of a period of `product`, with an offer or not.
  func seatCharges(
    product: Int32, offered: Bool, after first: Int, count: Int, base: Int64
  ) -> [SeatCharge] {
    storage.seats.charges(
      product: product, offered: offered, after: first, count: count, base: base)
  }

  // MARK: - Seat changes

  /// Applies a seat change, handing its events to `sink`.
  ///
  /// - Throws: ``SessionError`` naming the rule when it cannot apply; nothing changes then.
  public mutating func changeSeats(_ action: SeatAction, _ sink: EventSink) throws(SessionError) {
    try checkSeats(action)
    switch action {
    case .change(let id, let total):
      let groupIndex = try activeGroup(ofTransaction: id)
      if let position = addSeats(group: groupIndex, total: total, sink) {
        emitTransaction(
          position, delivery: .updates, at: now.milliseconds, sink,
          cause: .init(.didChangeRenewalPref, .increaseQuantity))
      } else {
        let original = groups[groupIndex].originalID
        let old = storage.seats[original]!.renewalTotal
        makeUnique()
        storage.seats.groups[original]!.renewalTotal = total
        emitStatus(
          group: groupIndex, at: now.milliseconds, sink,
          also: .init(.didChangeRenewalPref, total > old ? .increaseQuantity : .decreaseQuantity))
      }
    case .refund(let id, let seats):
      let groupIndex = try activeGroup(ofTransaction: id)
      if seats == storage.seats[groups[groupIndex].originalID]!.inForce {
        // Every seat: the period's transaction is refunded whole.
        try refund(groups[groupIndex].current, reason: .other, share: nil, sink)
        return
      }
      refundSeats(group: groupIndex, seats: seats, sink)
    case .claim(let id, let request, let member): claimSeat(id, request: request, member: member)
    case .unclaim(let id, let claim):
      let original = ledger[ledger.position(of: id)!].originalID
      makeUnique()
      storage.seats.groups[original]!.removeClaim(id: claim)
    case .associate(let id, let claim, let member):
      let original = ledger[ledger.position(of: id)!].originalID
      makeUnique()
      storage.seats.groups[original]!.associate(claim: claim, with: member)
    case .invitations(let hosting):
      makeUnique()
      storage.seats.invitations = hosting
    case .pricing(let productID, let pricing):
      makeUnique()
      storage.seats.setPricing(pricing, of: Int32(catalog.index(of: productID)!))
    case .invite(let member): inviteMember(member, sink)
    case .remove(let member): removeMember(member, sink)
    }
    settle(sink)
  }

  /// Throws why a seat change cannot apply.
  func checkSeats(_ action: SeatAction) throws(SessionError) {
    switch action {
    case .change(let id, let total):
      let group = try multiSeatGroup(id)
      guard total >= 1 else {
        throw seatRefusal(.invalidCount, "a subscription keeps at least 1 seat, not \(total)")
      }
      guard total != group.renewalTotal else {
        throw seatRefusal(.unchanged, "\(total) seats renew already")
      }
      try checkSeatsAdded(to: try activeGroup(ofTransaction: id), total: total, held: group.total)
      let product = ledger[try requireTransaction(id)].product
      if let most = storage.seats.mostSeats(of: product), total > most {
        throw seatRefusal(.invalidCount, "\(total) seats: the product's tiers end at \(most) seats")
      }
    case .refund(let id, let seats):
      let group = try multiSeatGroup(id)
      guard seats >= 1, seats <= group.inForce else {
        throw seatRefusal(
          .invalidCount,
          "refund seats=\(seats): the period holds \(group.inForce) seats in force (1 to "
            + "\(group.inForce) may be refunded; refund <txn> without seats= refunds them all)")
      }
    case .claim(let id, let request, let member):
      let group = try developerGroup(id)
      if group.claim(request: request) != nil { return }
      if let member { try checkAppTransactionID(member) }
      guard group.available > 0 else {
        throw seatRefusal(
          .noAvailableSeats,
          "every seat is claimed (\(group.claimCount) claims, \(group.inForce) seats): "
            + "unclaim one first")
      }
    case .unclaim(let id, let claim):
      try checkClaim(claim, in: try developerGroup(id))
    case .associate(let id, let claim, let member):
      try checkClaim(claim, in: try developerGroup(id))
      try checkAppTransactionID(member)
    case .invitations:
      break  // as every setting: setting what is set changes nothing
    case .pricing(let productID, let pricing): try checkSeatPricing(productID, pricing)
    case .invite(let member): try checkMembers(invite: member, remove: nil)
    case .remove(let member): try checkMembers(invite: nil, remove: member)
    }
  }

  /// Why a product's seat pricing cannot be set: not an auto-renewable subscription, or tiers
  /// not Apple's shape (one to five, ascending, prices above 0, only the last open).
  private func checkSeatPricing(_ productID: String, _ pricing: SeatPricing?) throws(SessionError) {
    let index = try requireProduct(productID)
    guard catalog.products[index].groupIndex != nil else {
      throw seatRefusal(
        .notSubscription, "\(productID) is not an auto-renewable subscription: it sells no seats")
    }
    guard case .tiers(let tiers)? = pricing else { return }
    do throws(SeatRefusal) {
      try SeatRecords.checkTiers(tiers)
    } catch {
      throw SessionError(.seats(error))
    }
  }

  /// Seats are added to a paid period running: not while the subscription waits for a
  /// payment (grace, billing retry), whose period has ended.
  private func checkSeatsAdded(to groupIndex: Int, total: Int, held: Int) throws(SessionError) {
    guard total > held, groups[groupIndex].phase != .subscribed else { return }
    throw seatRefusal(
      .purchaserNotSubscribed,
      "the subscription waits for a payment (\(groups[groupIndex].renewalState?.rawValue ?? "")):"
        + " seats are added once it renews")
  }

  /// The seats of the active multiseat subscription `id` belongs to.
  private func multiSeatGroup(_ id: UInt64) throws(SessionError) -> SeatGroup {
    let groupIndex = try activeGroup(ofTransaction: id)
    guard let group = storage.seats[groups[groupIndex].originalID] else {
      throw seatRefusal(.notMultiSeat, "transaction \(id)'s subscription is not multiseat")
    }
    return group
  }

  /// The seats of the multiseat subscription with developer-hosted invitations `id` belongs
  /// to (active or not: its last period's seats answer).
  private func developerGroup(_ id: UInt64) throws(SessionError) -> SeatGroup {
    let position = try requireTransaction(id)
    guard let group = storage.seats[ledger[position].originalID],
      group.invitations == .developer
    else {
      throw seatRefusal(
        .notDeveloperManaged,
        "transaction \(id) is not of a multiseat subscription whose invitations the app hosts "
          + "(TransactionNotDevManagedGroupError)")
    }
    return group
  }

  private func checkClaim(_ claim: String, in group: SeatGroup) throws(SessionError) {
    guard group.claim(id: claim) != nil else {
      throw seatRefusal(
        .claimNotFound, "no seat claim \(claim) in this subscription (SeatClaimIdNotFoundError)")
    }
  }

  private func checkAppTransactionID(_ text: String) throws(SessionError) {
    if customer(importedAppTransactionID: text) != nil { return }
    if let (number, member) = Account.numbers(ofAppTransactionID: text), member == 0,
      number == 0 || customer(number: number) != nil
    {
      let who = number == 0 ? Customer.own : customer(number: number)!
      if !hasImportedAppTransactionID(who) { return }
    }
    throw seatRefusal(
      .appTransactionNotFound,
      "no customer has appTransactionId \(text) (AppTransactionIdNotFoundError)")
  }

  /// Adds seats up to `total` now: a transaction for the added seats, prorated to what is left
  /// of the period, both it and the period's transaction `SEAT_ADDITION`. Returns its position;
  /// `nil` when `total` adds none (a reduction, for the next renewal). Its notification is the
  /// caller's (`INCREASE_QUANTITY`), never a purchase's: it is not marked untold.
  private mutating func addSeats(group groupIndex: Int, total: Int, _ sink: EventSink) -> Int? {
    let group = groups[groupIndex]
    guard var seats = storage.seats[group.originalID], total > seats.total,
      let current = ledger.position(of: group.current)
    else { return nil }
    let period = ledger[current]
    let added = total - seats.total
    let stamp = now.milliseconds
    let length = max(1, period.expirationDate - period.purchaseDate)
    let left = max(0, period.expirationDate - stamp)
    let charges = seatCharges(period, after: seats.total, count: added, base: seats.seatPrice)
    let price = SeatRecords.total(charges) * left / length
    let record = TransactionRecord(
      id: 0, originalID: group.originalID, purchaseDate: stamp,
      originalPurchaseDate: period.originalPurchaseDate, expirationDate: period.expirationDate,
      price: price, product: period.product, quantity: Int32(added),
      storefront: period.storefront, state: .purchased)
    let terms = TransactionSeats(
      invitations: seats.invitations, tiers: charges, revoked: nil, seatAddition: true,
      isAddition: true)
    var details = ledger.details(of: period) ?? TransactionDetails()
    details.seats = terms
    appendMade(record, details: details)
    ledger.updateDetails(at: current) { $0.seats?.seatAddition = true }
    groups[groupIndex].purchasedCount += 1
    seats.total = total
    seats.renewalTotal = total
    makeUnique()
    storage.seats.groups[group.originalID] = seats
    return ledger.records.count - 1
  }

  /// Apple refunds `count` seats of the current period, fewer than it holds (every seat is a
  /// refund of the period's transaction): its `revokedSeatQuantity` grows; claims beyond the
  /// seats left are unclaimed, the latest first, and told (`UNCLAIM_SEATS`).
  private mutating func refundSeats(group groupIndex: Int, seats count: Int, _ sink: EventSink) {
    let original = groups[groupIndex].originalID
    guard let position = ledger.position(of: groups[groupIndex].current) else { return }
    makeUnique()
    let unclaimed = storage.seats.refund(count, of: original)
    let stamp = now.milliseconds
    ledger.updateDetails(at: position) { details in
      let before = details.seats?.revoked ?? 0
      details.seats?.revoked = before + count
    }
    emitTransaction(position, delivery: .updates, at: stamp, sink, cause: .init(.refund, .seats))
    emitStatus(group: groupIndex, at: stamp, sink)
    if !unclaimed.isEmpty {
      let current = ledger[position].id
      emit(
        .seatsUnclaimed(SeatsUnclaimed(transactionID: current, claimIDs: unclaimed)), at: stamp,
        sink)
    }
  }

  /// Claims a seat (idempotent by `request`).
  private mutating func claimSeat(_ id: UInt64, request: String, member: String?) {
    let original = ledger[ledger.position(of: id)!].originalID
    makeUnique()
    storage.seats.claim(original, request: request, member: member)
  }
}

extension Session {
  /// The per-seat tiers a product sells seats at, ascending: its own (`set seat-pricing`), or
  /// one tier at its price for every seat; `nil` when it sells none (not an auto-renewable
  /// subscription, turned off, or unknown): StoreKit's `SeatBasedPricing`.
  public func seatTiers(ofProduct productID: String) -> [SeatTier]? {
    guard let index = catalog.index(of: productID), catalog.products[index].groupIndex != nil
    else { return nil }
    return storage.seats.tiers(of: Int32(index), price: catalog.products[index].price)
  }
}
