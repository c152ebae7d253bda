import StoreConfiguration

/// Monthly billing with a 12-month commitment (configuration format 5.0 `billingPlans`, App
/// Store Server API 1.21): a yearly subscription paid in 12 monthly instalments, each an
/// independent transaction granting one month; billing goes on through all 12 even when the
/// customer turns auto-renew off, and the commitment renews for another 12 after the last one
/// unless they did (Apple's "Supporting monthly subscriptions with a 12-month commitment").
extension Session {
  /// Payments in one commitment.
  public static let commitmentPeriods = 12

  /// The storefronts Apple does not offer monthly billing with a commitment in.
  static let storefrontsWithoutCommitments: Set<String> = ["USA", "SGP"]

  /// Refuses a plan the product does not have, an offer with a monthly plan, or a monthly
  /// plan in a storefront without it.
  func checkBillingPlan(
    _ plan: String, of product: CatalogProduct, _ options: PurchaseOptions
  ) throws(SessionError) {
    let plans = product.billingPlans.map(\.type)
    guard plans.contains(plan) else {
      throw SessionError(
        .noSuchBillingPlan(productID: product.productID, plan: plan, plans: plans))
    }
    guard plan == "MONTHLY" else { return }
    if let selection = options.offer { try checkMonthlyPlanOffer(selection, of: product) }
    if Self.storefrontsWithoutCommitments.contains(settings.storefront.countryCode) {
      throw SessionError(.noCommitmentsInStorefront(settings.storefront.countryCode))
    }
  }

  /// Refuses an offer the MONTHLY plan does not have, or one that does not last whole months
  /// (its payments are monthly).
  private func checkMonthlyPlanOffer(
    _ selection: OfferSelection, of product: CatalogProduct
  ) throws(SessionError) {
    let (kind, name) = selection.kindAndName
    let offer = product.monthlyPlanOffers(kind).first { name == nil || $0.id == name }
    guard let offer, offer.months != nil else {
      let all = OfferKind.allCases.flatMap { kind in
        product.monthlyPlanOffers(kind).filter { $0.months != nil }.map {
          kind == .introductory ? "intro" : "\(Self.commandWord(kind)):\($0.id ?? "")"
        }
      }
      throw SessionError(
        .offerWithMonthlyPlan(
          productID: product.productID,
          offer: name.map { "\(Self.commandWord(kind)):\($0)" } ?? "intro",
          offers: all))
    }
  }

  /// How the command language's `offer=` names a kind (`promo`, `code`, `winback`).
  private static func commandWord(_ kind: OfferKind) -> String {
    switch kind {
    case .introductory: "intro"
    case .promotional: "promo"
    case .code: "code"
    case .winBack: "winback"
    }
  }

  /// The product's monthly plan, when it has one.
  func monthlyPlan(of productIndex: Int32) -> CatalogBillingPlan? {
    product(at: productIndex).billingPlans.first(where: \.isMonthly)
  }

  /// Makes `record` payment `number` of a monthly plan: a month from its purchase date at the
  /// plan's monthly price, or under the first of `offers` (the plan's own offer, for the
  /// months it covers: free, a pay-as-you-go price a month, or a pay-up-front price on its first
  /// payment [unverified]); `group` follows it, its months on the group's day of the month (the
  /// payment's own when it has none). Nothing when the product has no monthly plan.
  func applyMonthlyPlan(
    number: Int, to record: inout TransactionRecord, group: inout GroupState,
    offers: inout [GroupState.UpcomingOffer]
  ) {
    guard let plan = monthlyPlan(of: record.product) else { return }
    if group.anchorDay == 0 {
      group.anchorDay = Int8(CivilDateTime(Instant(milliseconds: record.purchaseDate)).day)
    }
    let anchorDay = Int(group.anchorDay)
    record.expirationDate = settings.timeRate.monthEnd(
      from: record.purchaseDate, anchorDay: anchorDay)
    record.price = plan.price
    record.offerIndex = -1
    record.offerKind = 0
    if let next = offers.first, next.product == record.product, let offer = self.offer(of: next) {
      let months = Int32(offer.months ?? 1)
      switch offer.paymentMode {
      case .payAsYouGo:
        // The offer's price is a period's: a month's share of it.
        let periodMonths = offer.period.unit == .year ? 12 * offer.period.value : offer.period.value
        record.price = offer.price / Int64(max(1, periodMonths))
      case .payUpFront: record.price = next.remaining == months ? offer.price : 0
      case .free, .oneTime, .none: record.price = 0
      }
      record.offerKind = next.kind
      record.offerIndex = next.index
      if next.remaining <= 1 { offers.removeFirst() } else { offers[0].remaining -= 1 }
    }
    record.flags.insert(.monthlyPlan)
    record.billingPeriod = number
    group.billingPeriod = Int8(number)
    group.commitmentEnd = settings.timeRate.commitmentEnd(
      afterPeriod: number, endingAt: record.expirationDate, anchorDay: anchorDay)
  }

  /// The payment after the group's current one: the next of its commitment, or the first of a
  /// new one; `nil` when the group is not on a monthly plan or the renewal is for another
  /// product (a plan belongs to its product).
  func nextBillingPeriod(group index: Int) -> Int? { nextBillingPeriod(of: groups[index]) }

  /// ``nextBillingPeriod(group:)`` of a group already read.
  func nextBillingPeriod(of group: GroupState) -> Int? {
    let period = Int(group.billingPeriod)
    guard period > 0, group.renewalProduct == group.product else { return nil }
    return period % Self.commitmentPeriods + 1
  }

  /// Whether a group's commitment still has payments to make: billing goes on through all 12
  /// even when the customer turned auto-renew off.
  func isCommitted(group index: Int) -> Bool { isCommitted(groups[index]) }

  /// ``isCommitted(group:)`` of a group already read.
  func isCommitted(_ group: GroupState) -> Bool {
    (1..<Self.commitmentPeriods).contains(Int(group.billingPeriod))
      && group.renewalProduct == group.product
  }

  /// The renewal info's plan: what the next payment is (`renewalBillingPlanType`) and the
  /// commitment's renewal, for a group on a monthly plan.
  func renewalPlanTerms(of group: GroupState) -> (BillingPlanType, RenewalCommitment?)? {
    guard !product(at: group.renewalProduct).billingPlans.isEmpty else { return nil }
    guard group.billingPeriod > 0, let plan = monthlyPlan(of: group.product) else {
      return (.billedUpfront, nil)
    }
    let renewal = product(at: group.renewalProduct)
    return (
      .monthly,
      RenewalCommitment(
        autoRenewProductID: renewal.productID, willAutoRenew: group.willAutoRenew,
        renewalBillingPlanType: .monthly,
        renewalDate: Instant(milliseconds: group.commitmentEnd),
        renewalPrice: plan.commitmentPrice)
    )
  }
}

/// How a payment of a product with billing plans is billed (`billingPlanType`).
public enum BillingPlanType: String, CaseIterable, Sendable {
  /// A payment each month of a 12-month commitment.
  case monthly = "MONTHLY"
  /// One payment for the whole period.
  case billedUpfront = "BILLED_UPFRONT"
}

/// `Transaction.CommitmentInfo` (`commitmentInfo`): where a payment of a monthly plan stands in
/// its 12-month commitment.
public struct TransactionCommitment: Equatable, Sendable {
  /// This payment's number, 1 to 12.
  public var billingPeriodNumber: Int
  /// Payments in the commitment: 12.
  public var totalBillingPeriods: Int
  /// When the commitment ends.
  public var expirationDate: Instant
  /// What the whole commitment costs, in milliunits.
  public var price: Int64
}

/// `RenewalInfo.CommitmentInfo` (`commitmentInfo` of the renewal info): what happens when the
/// commitment ends.
public struct RenewalCommitment: Equatable, Sendable {
  /// The product the commitment renews to.
  public var autoRenewProductID: String
  /// Whether the commitment renews for another 12 months.
  public var willAutoRenew: Bool
  /// The plan it renews with.
  public var renewalBillingPlanType: BillingPlanType
  /// When it renews (the commitment's end).
  public var renewalDate: Instant
  /// What the next commitment costs, in milliunits.
  public var renewalPrice: Int64
}

extension TimeRate {
  /// The end of a month of a monthly plan starting at `start`.
  func monthEnd(from start: Int64, anchorDay: Int) -> Int64 {
    end(
      of: SubscriptionPeriod(1, .month), startingAt: Instant(milliseconds: start),
      anchorDay: anchorDay
    ).milliseconds
  }

  /// When a commitment whose payment `number` ends at `periodEnd` ends: the months left,
  /// stepped as renewals step them.
  func commitmentEnd(afterPeriod number: Int, endingAt periodEnd: Int64, anchorDay: Int) -> Int64 {
    var end = periodEnd
    for _ in number..<Session.commitmentPeriods { end = monthEnd(from: end, anchorDay: anchorDay) }
    return end
  }
}

extension TransactionCommitment {
  /// What a stored transaction says of its plan: `MONTHLY` with its commitment (its end
  /// stepped at `rate` from the payment's, on the payment's day of the month), or
  /// `BILLED_UPFRONT` for a product with billing plans; `nil` for one without.
  static func planTerms(
    of record: TransactionRecord, catalog: Catalog, rate: TimeRate
  ) -> (type: BillingPlanType, commitment: TransactionCommitment?)? {
    let product = catalog.products[Int(record.product)]
    guard !product.billingPlans.isEmpty else { return nil }
    guard record.flags.contains(.monthlyPlan),
      let plan = product.billingPlans.first(where: \.isMonthly)
    else { return (.billedUpfront, nil) }
    let anchorDay = CivilDateTime(Instant(milliseconds: record.purchaseDate)).day
    let end = rate.commitmentEnd(
      afterPeriod: record.billingPeriod, endingAt: record.expirationDate, anchorDay: anchorDay)
    return (
      .monthly,
      TransactionCommitment(
        billingPeriodNumber: record.billingPeriod, totalBillingPeriods: Session.commitmentPeriods,
        expirationDate: Instant(milliseconds: end), price: plan.commitmentPrice)
    )
  }
}
