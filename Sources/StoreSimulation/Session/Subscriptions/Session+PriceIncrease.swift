/// A step of the price-increase consent flow.
public enum PriceIncreaseAction: String, Sendable, CaseIterable {
  /// Ask the customer to consent (`requestPriceIncreaseConsentForTransaction`).
  case request
  /// The customer agrees (`consentToPriceIncreaseForTransaction`).
  case consent
  /// The customer declines (`declinePriceIncreaseForTransaction`).
  case decline
}

extension Session {
  /// Requests, consents to or declines a price increase for the subscription of a transaction.
  ///
  /// A request marks the increase pending at `newPrice` (by default the configuration's current
  /// price for the product, as Apple's testing guide has it: "Optionally, increase the price
  /// for your subscription in your StoreKit configuration file. You can still test this
  /// scenario without increasing the price."; never a price of its own) and sends a
  /// `priceIncreaseConsent` message, every time it is made; `renewalPrice` shows the new price.
  /// Consent marks it agreed: renewals of the product charge the new price from the next one
  /// on. Declining turns auto-renew off: the subscription expires at the end of the period with
  /// `didNotConsentToPriceIncrease`. An increase still pending at renewal time expires the
  /// subscription the same way, as in production.
  ///
  /// - Throws: ``SessionError`` when the subscription is over, or nothing is pending to consent
  ///   to or decline.
  public mutating func priceIncrease(
    _ action: PriceIncreaseAction, _ id: UInt64, newPrice: Int64? = nil, _ sink: EventSink
  ) throws(SessionError) {
    try check(.priceIncrease(action, id, newPrice: newPrice))
    let groupIndex = try activeGroup(ofTransaction: id)
    let stamp = now.milliseconds
    switch action {
    case .request:
      let renewing = groups[groupIndex].renewalProduct
      let current = chargedPrice(group: groupIndex, product: renewing)
      let unpriced: Int64 =
        switch options.fidelity.unpricedIncrease {
        case .configurationPrice: product(at: renewing).price
        case .tenPercentMore: (current * 11 / 10 + 5) / 10 * 10
        }
      groups[groupIndex].increase = (renewing, current, newPrice ?? unpriced)
      groups[groupIndex].priceIncrease = .pending
      emitStatus(group: groupIndex, at: stamp, sink)
      emit(
        .message(
          .priceIncreaseConsent, productID: product(at: groups[groupIndex].product).productID),
        at: stamp, sink)
    case .consent, .decline:
      if action == .consent {
        groups[groupIndex].priceIncrease = .agreed
      } else {
        groups[groupIndex].priceIncrease = .noIncreasePending
        groups[groupIndex].increase = nil
        groups[groupIndex].willAutoRenew = false
        groups[groupIndex].declinedPriceIncrease = true
      }
      emitStatus(group: groupIndex, at: stamp, sink)
    }
    settle(sink)
  }

  /// What the customer pays for a period of `product` before an increase: the standard price
  /// of the subscription's current period when it was charged one (so that a price edited in
  /// the file shows as the increase it is), else ``standardPrice(group:product:)``.
  private func chargedPrice(group index: Int, product productIndex: Int32) -> Int64 {
    let standard = standardPrice(group: index, product: productIndex)
    guard groups[index].increase == nil, groups[index].product == productIndex,
      let position = ledger.position(of: groups[index].current),
      ledger[position].offerIndex < 0
    else { return standard }
    return ledger[position].price
  }

  /// What a period of `product` costs the group without an offer: the configuration's price,
  /// or an increase the customer consented to.
  func standardPrice(group index: Int, product productIndex: Int32) -> Int64 {
    standardPrice(of: groups[index], product: productIndex)
  }

  /// ``standardPrice(group:product:)`` of a group already read.
  func standardPrice(of group: GroupState, product productIndex: Int32) -> Int64 {
    if let increase = group.increase, increase.product == productIndex {
      return group.priceIncrease == .pending ? increase.old : increase.new
    }
    return product(at: productIndex).price
  }
}

extension Session {
  /// The next renewal's price without an offer: a price increase asked for shows its new price
  /// while it waits for consent (it is what the customer is asked to pay).
  func renewalPriceWithoutOffer(group index: Int) -> Int64 {
    renewalPriceWithoutOffer(of: groups[index])
  }

  /// ``renewalPriceWithoutOffer(group:)`` of a group already read.
  func renewalPriceWithoutOffer(of group: GroupState) -> Int64 {
    if let increase = group.increase, increase.product == group.renewalProduct {
      return increase.new
    }
    return product(at: group.renewalProduct).price
  }

  /// A pending or agreed price increase of a subscription group: the price the customer pays
  /// now, the new one, and when it takes effect (the next renewal); `nil` when there is none.
  public func priceIncrease(forGroup groupID: String) -> PriceIncreaseTerms? {
    guard let index = catalog.groupIndex(of: groupID), let increase = groups[index].increase,
      groups[index].priceIncrease != .noIncreasePending
    else { return nil }
    return PriceIncreaseTerms(
      oldPrice: increase.old, newPrice: increase.new,
      status: groups[index].priceIncrease,
      effective: groups[index].periodEnd == TransactionRecord.none
        ? nil : Instant(milliseconds: groups[index].periodEnd))
  }
}

/// A price increase as the inspector shows it.
public struct PriceIncreaseTerms: Equatable, Sendable {
  /// What a period costs now.
  public var oldPrice: Int64
  /// What it will cost once consented.
  public var newPrice: Int64
  /// Pending (awaiting consent) or agreed.
  public var status: PriceIncreaseStatus
  /// When the new price is first charged: the next renewal.
  public var effective: Instant?
}
