/// What a subscription's last status event said, as far as its notifications tell changes
/// apart: the engine keeps it beside the subscription (``GroupState/told``, a member's status
/// for a member), so that the next status event knows what changed, and a step back takes it
/// back with everything else.
struct ToldStatus: Equatable {
  var state: RenewalState
  var transactionID: UInt64
  var willAutoRenew: Bool
  /// `currentProductID` and `autoRenewPreference`, by catalog index.
  var product: Int32
  var preference: Int32
  var priceIncrease: PriceIncreaseStatus
  var expirationReason: ExpirationReason?
}

extension ToldStatus {
  /// What a customer's subscription says now (`nil` before they ever subscribed in it).
  init?(_ group: GroupState) {
    guard let state = group.renewalState else { return nil }
    self.init(
      state: state, transactionID: group.current, willAutoRenew: group.willAutoRenew,
      product: group.product, preference: group.renewalProduct,
      priceIncrease: group.priceIncrease, expirationReason: group.expirationReason)
  }

  /// What a member's status said.
  init(_ status: SubscriptionStatus, catalog: Catalog) {
    let info = status.renewalInfo
    self.init(
      state: status.state, transactionID: status.transactionID,
      willAutoRenew: info.willAutoRenew,
      product: Int32(catalog.index(of: info.currentProductID) ?? -1),
      preference: Int32(catalog.index(of: info.autoRenewPreference) ?? -1),
      priceIncrease: info.priceIncreaseStatus, expirationReason: info.expirationReason)
  }

  /// Whether the subscription gives access or is being recovered.
  var isActive: Bool {
    state == .subscribed || state == .inGracePeriod || state == .inBillingRetryPeriod
  }
}

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
      switch (old.state, new.state) {
      case (.subscribed, .inGracePeriod): made.append(.init(.didFailToRenew, .gracePeriod))
      case (.subscribed, .inBillingRetryPeriod): made.append(.init(.didFailToRenew))
      case (.inGracePeriod, .inBillingRetryPeriod): made.append(.init(.gracePeriodExpired))
      case (_, .expired):
        let subtype: NotificationSubtype? =
          switch new.expirationReason {
          case .autoRenewDisabled?: .voluntary
          case .billingError?: .billingRetry
          case .didNotConsentToPriceIncrease?: .priceIncrease
          case .productUnavailable?: .productNotForSale
          case .unknown?, nil: nil
          }
        made.append(.init(.expired, subtype))
      default: break
      }
      return made
    }
    if old.willAutoRenew != new.willAutoRenew && new.state != .expired {
      made.append(
        .init(.didChangeRenewalStatus, new.willAutoRenew ? .autoRenewEnabled : .autoRenewDisabled))
    }
    let preferenceChanged =
      old.preference != new.preference && old.transactionID == new.transactionID
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
  /// other than the introductory offer), else a first purchase or a resubscription.
  static func purchase(_ transaction: Transaction, previous: ToldStatus?) -> NotificationCauses {
    guard transaction.subscriptionGroupID != nil else { return .init(.init(.oneTimeCharge)) }
    if transaction.reason == .renewal {
      let recovering =
        previous.map { $0.state == .inGracePeriod || $0.state == .inBillingRetryPeriod } ?? false
      return .init(.init(.didRenew, recovering ? .billingRecovery : nil))
    }
    if let previous, previous.isActive {
      // A member redeems nothing: the purchaser did.
      let redeemed =
        transaction.owner.isPurchaser && transaction.offer.map { $0.type != .introductory } ?? false
      return .init(.init(redeemed ? .offerRedeemed : .didChangeRenewalPref, .upgrade))
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
    default: break
    }
  }
}
