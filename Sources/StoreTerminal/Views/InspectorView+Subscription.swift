import StoreCommands
import StoreJSON
import StoreSimulation

/// The inspector's subscription lines: its status, what the period's end does, and the renewals
/// to come.
extension InspectorPane {
  /// What the period's end does, from the status alone (so that no line says it renews while
  /// another says it was revoked): renews, expires, or ended; `WHEN` stands for its date. None
  /// for a revoked subscription, whose period was taken back.
  static func periodEnd(
    _ status: SubscriptionStatus, pendingIncrease increase: PriceIncreaseTerms?
  ) -> String? {
    switch status.state {
    case .revoked: return nil
    case .expired: return "ended WHEN"
    case .subscribed, .inGracePeriod, .inBillingRetryPeriod:
      guard status.renewalInfo.willAutoRenew else { return "expires WHEN (auto-renew off)" }
      // Waiting for consent, the period's end is a renewal only if the customer agrees.
      return increase?.status == .pending
        ? "period ends WHEN: renews at the new price if consented, else expires"
        : "renews WHEN"
    }
  }

  func statusLines(_ status: SubscriptionStatus, now: Instant, isCurrent: Bool) -> [InspectorLine] {
    let sep = display.glyphs.separator
    let info = status.renewalInfo
    var lines: [InspectorLine] = []
    var state = [status.state.rawValue, "auto-renew \(info.willAutoRenew ? "on" : "off")"]
    if info.autoRenewPreference != info.currentProductID {
      state.append("next: \(info.autoRenewPreference)")
    }
    if let reason = info.expirationReason { state.append("reason \(reason.rawValue)") }
    if !isCurrent { state.append("current period is transaction \(status.transactionID)") }
    lines.append(
      InspectorLine(label: InspectorLabel.status.rawValue, text: state.joined(separator: sep)))
    var renewal: [String] = []
    if let grace = info.gracePeriodExpirationDate {
      renewal.append(
        "in grace until \(Formatting.shortDate(grace, now: now)) (\(Formatting.relative(grace, now: now)))"
      )
    }
    if let retry = status.billingRetryExpirationDate {
      renewal.append(
        "retry until \(Formatting.shortDate(retry, now: now)) (\(Formatting.relative(retry, now: now)))"
      )
    }
    let increase = session.priceIncrease(forGroup: status.groupID)
    if let date = info.renewalDate, let next = Self.periodEnd(status, pendingIncrease: increase) {
      let when = "\(Formatting.shortDate(date, now: now)) (\(Formatting.relative(date, now: now)))"
      renewal.append(next.replacingOccurrences(of: "WHEN", with: when))
    }
    if !info.eligibleWinBackOfferIDs.isEmpty {
      renewal.append("win-back eligible: " + info.eligibleWinBackOfferIDs.joined(separator: ", "))
    }
    if let increase {
      let currency = session.settings.storefront.currency
      var text = [
        "\(prices(increase.oldPrice, currency: currency)) → \(prices(increase.newPrice, currency: currency))",
        increase.status == .pending
          ? "awaiting the customer's consent (p: consent or decline)" : "consented",
      ]
      if let effective = increase.effective {
        text.append("new price from the renewal \(Formatting.shortDate(effective, now: now))")
      }
      lines.append(
        InspectorLine(
          label: InspectorLabel.priceIncrease.rawValue, text: text.joined(separator: sep)))
    }
    if !renewal.isEmpty {
      lines.append(
        InspectorLine(label: InspectorLabel.renewal.rawValue, text: renewal.joined(separator: sep)))
    }
    lines.append(
      InspectorLine(
        label: InspectorLabel.upcoming.rawValue, text: upcomingText(groupID: status.groupID)))
    return lines
  }

  /// The WWDC22 inspector's "upcoming renewals": remaining offer periods, then the standard
  /// price, indefinitely.
  func upcomingText(groupID: String) -> String {
    let renewals = session.upcomingRenewals(groupID: groupID, limit: 8)
    guard let last = renewals.last else {
      switch session.status(forGroup: groupID)?.state {
      case .inGracePeriod?, .inBillingRetryPeriod?:
        return "none until the billing issue is resolved (r)"
      default: return "none: the subscription will not renew"
      }
    }
    var parts: [String] = []
    var index = 0
    while index < renewals.count, let offer = renewals[index].offer {
      var run = 1
      while index + run < renewals.count, renewals[index + run].offer == offer { run += 1 }
      let name: String =
        switch offer.type {
        case .introductory: "intro"
        case .promotional: "promo \(offer.id ?? "")"
        case .code: "code \"\(offer.id ?? "")\""
        case .winBack: "win-back \(offer.id ?? "")"
        }
      parts.append(
        "\(name) ×\(run) at \(prices(renewals[index].price, currency: session.settings.storefront.currency))"
      )
      index += run
    }
    let standard = renewals.dropFirst(index)
    if let first = standard.first {
      var every = ""
      let dates = standard.map(\.date)
      if dates.count >= 2 {
        every = " every " + Formatting.duration(dates[1].milliseconds - dates[0].milliseconds)
      }
      let price = prices(first.price, currency: session.settings.storefront.currency)
      parts.append("then \(first.productID) at \(price)\(every), indefinitely")
    } else {
      parts.append(
        "then the standard price after \(Formatting.shortDate(last.date, now: session.now))")
    }
    return parts.joined(separator: display.glyphs.separator)
  }
}
