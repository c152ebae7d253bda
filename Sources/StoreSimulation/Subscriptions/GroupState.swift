/// Where a subscription group stands: the customer's one subscription in it, if any.
struct GroupState {
  enum Phase: UInt8 {
    /// Never subscribed, or every transaction of the group was deleted.
    case none
    case subscribed
    case gracePeriod
    case billingRetry
    case expired
    case revoked
  }

  /// An offer that applies to coming renewals: its kind, its index among the product's offers
  /// of that kind, and how many billing periods remain.
  struct UpcomingOffer: Equatable {
    var kind: UInt8
    var index: Int16
    var product: Int32
    var remaining: Int32
  }

  var phase: Phase = .none
  /// The original transaction of the group's subscription.
  var originalID: UInt64 = 0
  /// The transaction of the current (or last) period.
  var current: UInt64 = 0
  /// The product of the current period.
  var product: Int32 = -1
  /// `autoRenewPreference`: the product the next renewal is for.
  var renewalProduct: Int32 = -1
  var willAutoRenew = false
  /// When the current period ends.
  var periodEnd: Int64 = TransactionRecord.none
  var graceEnd: Int64 = TransactionRecord.none
  var retryEnd: Int64 = TransactionRecord.none
  var expirationReason: ExpirationReason?
  var priceIncrease: PriceIncreaseStatus = .noIncreasePending
  /// Whether the customer declined a price increase (the expiry's reason).
  var declinedPriceIncrease = false
  /// A price increase asked for (pending or agreed), then in force: the product it is for, the
  /// price before and the new price, charged by renewals of that product once the customer
  /// consented (before, and while it waits, the old one).
  var increase: (product: Int32, old: Int64, new: Int64)?
  /// At real time, the day of the month renewals counted in months or years stay on: the day
  /// the first such period of the run started. 0 until one starts (a new subscription, or
  /// after a period of days or weeks, such as a week's free trial, moved the start).
  var anchorDay: Int8 = 0
  var recentStart: Int64 = 0
  /// Offers for the renewals to come, in order.
  var upcoming: [UpcomingOffer] = []
  /// A `MONTHLY` billing plan: the current period's number in its 12-month commitment (1 to
  /// 12); 0 for the up-front price.
  var billingPeriod: Int8 = 0
  /// When the current commitment ends (a monthly plan).
  var commitmentEnd: Int64 = TransactionRecord.none
  /// When the renewal date was extended (the latest two count against Apple's limit).
  var extensions: [Int64] = []
  /// Live purchased transactions of the group (introductory offer eligibility).
  var purchasedCount = 0
  /// Bumped whenever the next scheduled transition changes; stale heap entries are skipped.
  var generation: UInt32 = 0
  /// An Apple-hosted member's seat of another customer's multiseat subscription: it follows the
  /// purchaser's (renewals, grace, expiry), which the clock drives; it has no transitions of
  /// its own.
  var isAssigned = false
  /// What the group's last status event said (``ToldStatus``'s bits; 0 before the first): the
  /// changes the next one notifies are against it.
  var toldBits: UInt64 = 0

  /// Takes the offer for the next renewal when it is for `product`; a queue for another
  /// product (the plan changed) is dropped.
  mutating func takeOffer(for product: Int32) -> UpcomingOffer? {
    guard let next = upcoming.first else { return nil }
    guard next.product == product else {
      upcoming = []
      return nil
    }
    if next.remaining <= 1 { upcoming.removeFirst() } else { upcoming[0].remaining -= 1 }
    return next
  }

  /// A renewal made transaction `id` the current period, of `product`, ending at `expiration`.
  mutating func renewed(as id: UInt64, product productIndex: Int32, until expiration: Int64) {
    current = id
    product = productIndex
    phase = .subscribed
    periodEnd = expiration
    expirationReason = nil
    purchasedCount += 1
    if priceIncrease == .agreed { priceIncrease = .noIncreasePending }
  }

  /// Whether the customer is entitled to the subscription.
  var isEntitled: Bool { phase == .subscribed || phase == .gracePeriod }

  /// Whether the subscription is running or being retried (not over).
  var isActive: Bool { phase == .subscribed || phase == .gracePeriod || phase == .billingRetry }

  /// When the group's next transition is due, if it has one.
  var nextDue: Int64? {
    if isAssigned { return nil }
    return switch phase {
    case .subscribed: periodEnd
    case .gracePeriod: graceEnd
    case .billingRetry: retryEnd
    case .none, .expired, .revoked: nil
    }
  }

  var renewalState: RenewalState? {
    switch phase {
    case .none: nil
    case .subscribed: .subscribed
    case .gracePeriod: .inGracePeriod
    case .billingRetry: .inBillingRetryPeriod
    case .expired: .expired
    case .revoked: .revoked
    }
  }
}
