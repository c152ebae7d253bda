/// What a subscription's last status event said, as far as its notifications tell changes
/// apart: the engine keeps it beside the subscription (``GroupState/told``, a member's status
/// for a member), so that the next status event knows what changed, and a step back takes it
/// back with everything else. Eight bytes, as the renewal loop copies group states: the state,
/// auto-renew, the price increase and the expiration reason in the low 9 bits, then the
/// current product and the one the next renewal is for (catalog indices, 24 bits each).
struct ToldStatus: Equatable {
  let bits: UInt64

  init(
    state: RenewalState, willAutoRenew: Bool, product: Int32, preference: Int32,
    priceIncrease: PriceIncreaseStatus, expirationReason: ExpirationReason?
  ) {
    let stateCode = UInt64(state.statusNumber)
    let increaseCode: UInt64 =
      switch priceIncrease {
      case .noIncreasePending: 0
      case .pending: 1
      case .agreed: 2
      }
    let reasonCode: UInt64 =
      switch expirationReason {
      case nil: 0
      case .autoRenewDisabled?: 1
      case .billingError?: 2
      case .didNotConsentToPriceIncrease?: 3
      case .productUnavailable?: 4
      case .unknown?: 5
      }
    bits =
      stateCode | (willAutoRenew ? 0x8 : 0) | increaseCode << 4 | reasonCode << 6
      | UInt64(UInt32(bitPattern: product) & 0xFF_FFFF) << 9
      | UInt64(UInt32(bitPattern: preference) & 0xFF_FFFF) << 33
  }

  init?(bits: UInt64) {
    guard bits != 0 else { return nil }
    self.bits = bits
  }

  var state: RenewalState {
    switch bits & 0x7 {
    case 1: .subscribed
    case 2: .expired
    case 3: .inBillingRetryPeriod
    case 4: .inGracePeriod
    default: .revoked
    }
  }
  var willAutoRenew: Bool { bits & 0x8 != 0 }
  var priceIncrease: PriceIncreaseStatus {
    switch (bits >> 4) & 0x3 {
    case 1: .pending
    case 2: .agreed
    default: .noIncreasePending
    }
  }
  var expirationReason: ExpirationReason? {
    switch (bits >> 6) & 0x7 {
    case 1: .autoRenewDisabled
    case 2: .billingError
    case 3: .didNotConsentToPriceIncrease
    case 4: .productUnavailable
    case 5: .unknown
    default: nil
    }
  }
  /// The current product, by catalog index (its low 24 bits).
  var product: UInt64 { (bits >> 9) & 0xFF_FFFF }
  /// The product the next renewal is for, by catalog index (its low 24 bits).
  var preference: UInt64 { (bits >> 33) & 0xFF_FFFF }
}

extension ToldStatus {
  /// What a customer's subscription says now (`nil` before they ever subscribed in it).
  init?(_ group: borrowing GroupState) {
    guard let state = group.renewalState else { return nil }
    self.init(
      state: state, willAutoRenew: group.willAutoRenew, product: group.product,
      preference: group.renewalProduct, priceIncrease: group.priceIncrease,
      expirationReason: group.expirationReason)
  }

  /// What a member's status said.
  init(_ status: SubscriptionStatus, catalog: Catalog) {
    let info = status.renewalInfo
    self.init(
      state: status.state, willAutoRenew: info.willAutoRenew,
      product: Int32(catalog.index(of: info.currentProductID) ?? -1),
      preference: Int32(catalog.index(of: info.autoRenewPreference) ?? -1),
      priceIncrease: info.priceIncreaseStatus, expirationReason: info.expirationReason)
  }

  /// Whether a renewal would recover it: in billing retry or its grace period.
  var isRecovering: Bool { state == .inGracePeriod || state == .inBillingRetryPeriod }

  /// Whether the subscription gives access or is being recovered.
  var isActive: Bool {
    state == .subscribed || state == .inGracePeriod || state == .inBillingRetryPeriod
  }
}

extension GroupState {
  /// What the group says now becomes what it last told; what it told before, and now (`nil`
  /// before it ever had a status).
  mutating func retell() -> (previous: ToldStatus?, now: ToldStatus)? {
    guard let now = ToldStatus(self) else { return nil }
    defer { toldBits = now.bits }
    return (ToldStatus(bits: toldBits), now)
  }

  /// What the group's last status event said; `nil` before the first.
  var told: ToldStatus? { ToldStatus(bits: toldBits) }
}
