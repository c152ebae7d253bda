// Which notifications an event causes: the engine's rules, decided where it makes the event.

extension NotificationCauses {
  /// The notifications a subscription's status change causes: a change of state (a failed
  /// renewal, a grace period ending, an expiry and why), else what changed in its renewal
  /// info (auto-renew, the product the next renewal is for, an offer `redeemed` for the
  /// renewals to come, a price increase).
  static func statusChange(
    from old: ToldStatus, to new: ToldStatus, redeemed: Bool
  ) -> NotificationCauses {
    var made = NotificationCauses()
    if old.state != new.state {
      // Decided by the new state (every one named), then by where it came from.
      switch new.state {
      case .inGracePeriod where old.state == .subscribed:
        made.append(.init(.didFailToRenew, .gracePeriod))
      case .inBillingRetryPeriod where old.state == .subscribed:
        made.append(.init(.didFailToRenew))
      case .inBillingRetryPeriod where old.state == .inGracePeriod:
        made.append(.init(.gracePeriodExpired))
      case .expired:
        let subtype: NotificationSubtype? =
          switch new.expirationReason {
          case .autoRenewDisabled?: .voluntary
          case .billingError?: .billingRetry
          case .didNotConsentToPriceIncrease?: .priceIncrease
          case .productUnavailable?: .productNotForSale
          case .unknown?, nil: nil
          }
        made.append(.init(.expired, subtype))
      // A recovery or a new period is told by its transaction (DID_RENEW, SUBSCRIBED); a
      // revocation by its refund; grace or retry from elsewhere by nothing new.
      case .subscribed, .revoked, .inGracePeriod, .inBillingRetryPeriod: break
      }
      return made
    }
    if old.willAutoRenew != new.willAutoRenew && new.state != .expired {
      made.append(
        .init(.didChangeRenewalStatus, new.willAutoRenew ? .autoRenewEnabled : .autoRenewDisabled))
    }
    // A new period of another product (an upgrade) changes the preference with it: that is
    // no change of preference.
    let preferenceChanged = old.preference != new.preference && old.product == new.product
    if preferenceChanged || redeemed {
      let reverted = new.preference == new.product
      made.append(
        .init(redeemed ? .offerRedeemed : .didChangeRenewalPref, reverted ? nil : .downgrade))
    }
    if old.priceIncrease != new.priceIncrease {
      switch new.priceIncrease {
      case .pending: made.append(.init(.priceIncrease, .pending))
      case .agreed: made.append(.init(.priceIncrease, .accepted))
      case .noIncreasePending: break
      }
    }
    return made
  }

  /// The notification a transaction purchased for the first time causes: a one-time charge, or
  /// for a subscription (`previous`: its status before) a renewal or a billing recovery, an
  /// upgrade while subscribed (an offer redeemed, when the purchaser's transaction carries one
  /// other than the introductory offer: `redeemsOffer`), else a first purchase or a
  /// resubscription.
  static func purchase(
    isSubscription: Bool, isRenewal: Bool, redeemsOffer: Bool, previous: ToldStatus?
  ) -> NotificationCauses {
    guard isSubscription else { return .init(.init(.oneTimeCharge)) }
    if isRenewal { return .init(.renewal(after: previous)) }
    if let previous, previous.isActive {
      return .init(.init(redeemsOffer ? .offerRedeemed : .didChangeRenewalPref, .upgrade))
    }
    // Apple's notificationType: OFFER_REDEEMED is for "a customer with an active subscription";
    // a first purchase or a resubscription is SUBSCRIBED whatever offer it redeemed (the
    // transaction carries the offer).
    return .init(.init(.subscribed, previous == nil ? .initialBuy : .resubscribe))
  }

  /// The notification an event of a kind that always causes one causes (a refund request or
  /// its decline, an extension, a notice); none for the others.
  init(of kind: StoreEvent.Kind) {
    self.init()
    switch kind {
    case .refundRequested: append(.init(.consumptionRequest))
    case .refundDeclined: append(.init(.refundDeclined))
    case .renewalExtension(let extended):
      append(extended.failure == nil ? .init(.renewalExtended) : .init(.renewalExtension, .failure))
    case .renewalExtensionSummary: append(.init(.renewalExtension, .summary))
    case .notice(.consentRescinded): append(.init(.rescindConsent))
    case .notice(.externalPurchaseToken(let token)):
      let subtype: NotificationSubtype =
        switch token.reason {
        case .unreported: .unreported
        case .created: .created
        case .activeTokenReminder: .activeTokenReminder
        }
      append(.init(.externalPurchaseToken, subtype))
    case .seatsUnclaimed: append(.init(.unclaimSeats))
    // Told by the verb that made them (a transaction's or a status's causes), or by nothing.
    case .transaction, .status, .message, .paymentQueue, .purchaseResult, .transactionRemoved,
      .revokedEntitlements, .restoreCompleted, .apiCall, .consumptionReported, .receipt, .family,
      .retention:
      break
    }
  }
}

extension NotificationCause {
  /// A renewal's: `DID_RENEW`, with `BILLING_RECOVERY` when it renews out of billing retry or
  /// a grace period (`previous`: the status last told before it).
  static func renewal(after previous: ToldStatus?) -> NotificationCause {
    .init(.didRenew, previous?.isRecovering == true ? .billingRecovery : nil)
  }
}
