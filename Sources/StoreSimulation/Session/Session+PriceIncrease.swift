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
  /// A request marks the increase pending and sends a `priceIncreaseConsent` message, every time
  /// it is made. Consent marks it agreed and the subscription renews normally. Declining turns
  /// auto-renew off: the subscription expires at the end of the period with
  /// `didNotConsentToPriceIncrease`. An increase still pending at renewal time expires the
  /// subscription the same way, as in production.
  ///
  /// - Throws: ``SessionError`` when the subscription is over, or nothing is pending to consent
  ///   to or decline.
  public mutating func priceIncrease(
    _ action: PriceIncreaseAction, _ id: UInt64, _ sink: EventSink
  ) throws(SessionError) {
    try check(.priceIncrease(action, id))
    let groupIndex = try activeGroup(ofTransaction: id)
    let stamp = now.milliseconds
    switch action {
    case .request:
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
        groups[groupIndex].willAutoRenew = false
        groups[groupIndex].declinedPriceIncrease = true
      }
      emitStatus(group: groupIndex, at: stamp, sink)
    }
    verify()
  }
}
