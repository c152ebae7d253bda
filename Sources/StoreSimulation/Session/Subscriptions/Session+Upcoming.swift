/// One renewal to come, as the Transaction Manager's inspector lists them.
public struct UpcomingRenewal: Equatable, Sendable {
  /// When it is due.
  public var date: Instant
  /// The product it renews.
  public var productID: String
  /// The price, in milliunits of the storefront's currency.
  public var price: Int64
  /// The offer that applies, if any.
  public var offer: TransactionOffer?
}

extension Session {
  /// The next renewals of a group's subscription, at most `limit`: the remaining introductory
  /// periods, then a queued offer code, then the standard price, indefinitely. Empty when the
  /// subscription will not renew.
  ///
  /// Assumes nothing changes meanwhile (no billing failure, rate change or new price increase);
  /// an increase the customer consented to is charged.
  public func upcomingRenewals(groupID: String, limit: Int = 6) -> [UpcomingRenewal] {
    guard let index = catalog.groupIndex(of: groupID) else { return [] }
    var group = groups[index]
    let expiresUnanswered = options.fidelity.unansweredPriceIncrease == .expire
    guard group.phase == .subscribed, group.willAutoRenew || isCommitted(group: index),
      !(group.priceIncrease == .pending && expiresUnanswered)
    else {
      return []
    }
    var result: [UpcomingRenewal] = []
    var due = group.periodEnd
    // A monthly plan: its payments, through the commitment (and on while it renews).
    if var payment = nextBillingPeriod(group: index), let plan = monthlyPlan(of: group.product) {
      let productID = product(at: group.product).productID
      while result.count < limit && (payment != 1 || group.willAutoRenew) {
        result.append(
          UpcomingRenewal(
            date: Instant(milliseconds: due), productID: productID, price: plan.price,
            offer: nil))
        due = settings.timeRate.monthEnd(from: due, anchorDay: Int(group.anchorDay))
        payment = payment % Self.commitmentPeriods + 1
        if payment == 1 && !group.willAutoRenew { break }
      }
      return result
    }
    while result.count < limit {
      let offer = group.takeOffer(for: group.renewalProduct)
      let terms = periodTerms(
        product: group.renewalProduct, offer: offer, start: due, anchor: &group.anchorDay)
      let price =
        offer == nil ? standardPrice(group: index, product: group.renewalProduct) : terms.price
      result.append(
        UpcomingRenewal(
          date: Instant(milliseconds: due), productID: product(at: group.renewalProduct).productID,
          price: price, offer: offer.flatMap { self.offer(of: $0) }.map(TransactionOffer.init)
        ))
      due = terms.expiration
    }
    return result
  }
}

/// An offer redeemed for the renewals to come, with the billing periods it still covers.
public struct QueuedOffer: Equatable, Sendable {
  /// The product whose renewals it discounts.
  public var productID: String
  /// The offer queued, redeemed at the renewal it applies to.
  public var offer: TransactionOffer
  /// Billing periods left.
  public var periods: Int
}

extension Session {
  /// The offers queued for a group's coming renewals, first to apply first: the remaining
  /// introductory periods, then offer codes or promotional offers redeemed by the subscriber.
  /// Unlike `upcomingRenewals`, it lists them whether or not the subscription will renew.
  public func queuedOffers(groupID: String) -> [QueuedOffer] {
    guard let index = catalog.groupIndex(of: groupID) else { return [] }
    return groups[index].upcoming.compactMap { upcoming in
      offer(of: upcoming).map {
        QueuedOffer(
          productID: product(at: upcoming.product).productID, offer: TransactionOffer($0),
          periods: Int(upcoming.remaining))
      }
    }
  }
}
