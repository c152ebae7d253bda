import StoreConfiguration

/// A subscription offer ready to apply: its kind, name, payment mode, length and price.
public struct CatalogOffer: Equatable, Sendable {
  /// Introductory, promotional, code or win-back.
  public var kind: OfferKind
  /// The offer's id as StoreKit reports it: `offerID` for promotional and win-back offers, the
  /// reference name for offer codes, `nil` for introductory offers.
  public var id: String?
  /// Xcode's reference name.
  public var referenceName: String?
  /// How the offer is paid.
  public var paymentMode: PaymentMode
  /// One offer period.
  public var period: SubscriptionPeriod
  /// `numberOfPeriods`: how many periods a pay-as-you-go offer lasts.
  public var periodCount: Int
  /// The price per period (pay as you go) or in total (pay up front), in milliunits.
  public var price: Int64
  /// Offer codes: who may redeem them.
  public var eligibility: [CodeOfferEligibility]
  /// Offer codes: whether the code may follow a running introductory offer.
  public var isStackable: Bool
  /// Win-back offers: Xcode's eligibility toggle, as the file sets it.
  public var isEligible: Bool

  init(_ offer: SubscriptionOffer, kind: OfferKind) {
    self.kind = kind
    switch kind {
    case .introductory: id = nil
    case .code: id = offer.referenceName
    case .promotional, .winBack: id = offer.offerID
    }
    referenceName = offer.referenceName
    paymentMode = offer.paymentMode
    period = offer.subscriptionPeriod ?? SubscriptionPeriod(1, .month)
    periodCount = offer.periodCount
    price = offer.paymentMode == .free ? 0 : (offer.displayPrice?.milliunits ?? 0)
    eligibility = offer.eligibility ?? []
    isStackable = offer.isStackable ?? false
    isEligible = offer.isEligible ?? true
  }

  /// How many monthly payments of a MONTHLY plan the whole offer covers: its length in whole
  /// months; `nil` for one of days or weeks.
  public var months: Int? {
    switch duration.unit {
    case .month: duration.value
    case .year: duration.value * 12
    case .day, .week: nil
    }
  }

  /// How many billing periods the offer spans: pay as you go one per period; pay up front and
  /// free trials one period of `period`.
  public var billedPeriods: Int { paymentMode == .payAsYouGo ? periodCount : 1 }

  /// How long the whole offer lasts: `period` times the billed periods (`P3M` for three
  /// monthly pay-as-you-go periods).
  public var duration: SubscriptionPeriod {
    SubscriptionPeriod(period.value * billedPeriods, period.unit)
  }
}

/// A format 5.0 billing plan of a subscription: `BILLED_UPFRONT` (one payment a period) or
/// `MONTHLY` (a monthly payment over a 12-month commitment).
public struct CatalogBillingPlan: Equatable, Sendable {
  /// `BILLED_UPFRONT` or `MONTHLY`, as the file writes it.
  public var type: String
  /// What one billing costs, in milliunits.
  public var price: Int64
  /// That price as the file writes it.
  public var displayPrice: String
  /// What the whole commitment costs, in milliunits.
  public var commitmentPrice: Int64
  /// That price as the file writes it.
  public var commitmentDisplayPrice: String
  /// The offers of this plan (an offer without `billingPlanType` is the up-front plan's).
  public var offers: [CatalogOffer]

  /// Whether one billing covers a month of a 12-month commitment.
  public var isMonthly: Bool { type == "MONTHLY" }

  /// A subscription's enabled plans, each with its offers (an offer without `billingPlanType`
  /// is the up-front plan's).
  static func enabledPlans(of subscription: Subscription) -> [CatalogBillingPlan] {
    let introductory =
      subscription.introductoryOffers ?? subscription.introductoryOffer.wrapped.map { [$0] } ?? []
    let offered: [(OfferKind, [SubscriptionOffer])] = [
      (.introductory, introductory), (.promotional, subscription.adHocOffers),
      (.winBack, subscription.winbackOffers ?? []),
    ]
    return (subscription.billingPlans ?? []).filter(\.isEnabled).map { plan in
      CatalogBillingPlan(
        type: plan.billingPlanType, price: plan.displayPrice.milliunits ?? 0,
        displayPrice: plan.displayPrice.text,
        commitmentPrice: plan.commitmentDisplayPrice.milliunits ?? 0,
        commitmentDisplayPrice: plan.commitmentDisplayPrice.text,
        offers: offered.flatMap { kind, offers in
          offers.filter {
            $0.paymentMode != .none && $0.subscriptionPeriod != nil
              && ($0.billingPlanType ?? "BILLED_UPFRONT") == plan.billingPlanType
          }.map { CatalogOffer($0, kind: kind) }
        })
    }
  }
}

/// A product as the simulator sells it. Immutable and shared: the engine's hot paths pass
/// products around by reference.
public final class CatalogProduct: Sendable {
  /// The product identifier.
  public let productID: String
  /// The kind of product.
  public let type: ProductType
  /// The price in milliunits of the storefront's currency.
  public let price: Int64
  /// The price as the file writes it.
  public let displayPrice: String
  /// Xcode's reference name.
  public let referenceName: String?
  /// Whether family sharing is enabled.
  public let familyShareable: Bool
  /// Names and descriptions per locale.
  public let localizations: [Localization]
  /// Subscriptions: the index of the group in ``Catalog/groups``.
  public let groupIndex: Int?
  /// Subscriptions: the level in the group, 1 the highest.
  public let level: Int
  /// Subscriptions: the billing period.
  public let period: SubscriptionPeriod?
  /// Subscriptions: the introductory offer.
  public let introductoryOffer: CatalogOffer?
  /// Subscriptions: promotional offers.
  public let promotionalOffers: [CatalogOffer]
  /// Subscriptions: offer codes.
  public let codeOffers: [CatalogOffer]
  /// Subscriptions: win-back offers.
  public let winBackOffers: [CatalogOffer]
  /// Subscriptions: the enabled billing plans (format 5.0), in file order.
  public let billingPlans: [CatalogBillingPlan]
  /// Whether the product is still in the configuration (a reload may remove it; its
  /// transactions stay).
  public let isAvailable: Bool

  init(
    productID: String, type: ProductType, price: Int64, displayPrice: String,
    referenceName: String?, familyShareable: Bool, localizations: [Localization],
    groupIndex: Int?, level: Int, period: SubscriptionPeriod?, introductoryOffer: CatalogOffer?,
    promotionalOffers: [CatalogOffer], codeOffers: [CatalogOffer], winBackOffers: [CatalogOffer],
    billingPlans: [CatalogBillingPlan] = [], isAvailable: Bool = true
  ) {
    self.productID = productID
    self.type = type
    self.price = price
    self.displayPrice = displayPrice
    self.referenceName = referenceName
    self.familyShareable = familyShareable
    self.localizations = localizations
    self.groupIndex = groupIndex
    self.level = level
    self.period = period
    self.introductoryOffer = introductoryOffer
    self.promotionalOffers = promotionalOffers
    self.codeOffers = codeOffers
    self.winBackOffers = winBackOffers
    self.billingPlans = billingPlans
    self.isAvailable = isAvailable
  }

  /// The same product, no longer in the configuration.
  var withdrawn: CatalogProduct {
    CatalogProduct(
      productID: productID, type: type, price: price, displayPrice: displayPrice,
      referenceName: referenceName, familyShareable: familyShareable, localizations: localizations,
      groupIndex: groupIndex, level: level, period: period, introductoryOffer: introductoryOffer,
      promotionalOffers: promotionalOffers, codeOffers: codeOffers, winBackOffers: winBackOffers,
      billingPlans: billingPlans, isAvailable: false)
  }

  /// The localized name for `locale`, or the product ID when there is none.
  public func displayName(locale: String) -> String {
    let name = localizations.best(for: locale)?.displayName ?? ""
    return name.isEmpty ? productID : name
  }

  /// The offers of one kind.
  public func offers(_ kind: OfferKind) -> [CatalogOffer] {
    switch kind {
    case .introductory: introductoryOffer.map { [$0] } ?? []
    case .promotional: promotionalOffers
    case .code: codeOffers
    case .winBack: winBackOffers
    }
  }

  /// Where the indexes of the MONTHLY plan's offers start (a record's or a queued offer's
  /// `offerIndex`): below it, an index into ``offers(_:)``.
  static let planOfferBase: Int16 = 1000

  /// The MONTHLY billing plan's offers of `kind` (format 5.0: an offer whose `billingPlanType`
  /// is `MONTHLY`), in file order.
  public func monthlyPlanOffers(_ kind: OfferKind) -> [CatalogOffer] {
    (billingPlans.first(where: \.isMonthly)?.offers ?? []).filter { $0.kind == kind }
  }

  /// The offer of `kind` an index names: the product's own, or from ``planOfferBase`` on the
  /// MONTHLY plan's; `nil` for none (or one the catalog no longer has, after a reload).
  func offer(_ kind: OfferKind, index: Int16) -> CatalogOffer? {
    let (offers, place) =
      index >= Self.planOfferBase
      ? (monthlyPlanOffers(kind), Int(index - Self.planOfferBase)) : (offers(kind), Int(index))
    return offers.indices.contains(place) ? offers[place] : nil
  }
}

/// A subscription group: subscriptions of which a customer holds one at a time.
public struct CatalogGroup: Equatable, Sendable {
  /// The group's id (`subscriptionGroupID`).
  public var id: String
  /// The group's reference name.
  public var name: String
  /// The group's localizations.
  public var localizations: [Localization]
  /// The indices of its subscriptions in ``Catalog/products``.
  public var productIndices: [Int]
}

/// The products of a configuration, indexed for the engine. Indices are stable: reloading a
/// configuration keeps every product's index and appends new ones.
public struct Catalog: Sendable {
  /// Every product, by index.
  public private(set) var products: [CatalogProduct] = []
  /// Every subscription group, by index.
  public private(set) var groups: [CatalogGroup] = []
  private var indexByProductID: [String: Int] = [:]
  private var indexByGroupID: [String: Int] = [:]
  /// Products declared as App Store Connect's generic Advanced Commerce products, by index.
  public private(set) var commerceKinds: [Int: CommerceKind] = [:]
  /// Of those, the ones no configuration has (declared by id alone): a reload keeps them.
  private var genericOnly: Set<Int> = []

  /// The catalog of `configuration`, or of `configuration` merged over `previous` so that the
  /// products `previous` knew keep their indices (and stay, marked unavailable, when removed).
  public init(_ configuration: StoreKitConfiguration, keepingIndicesOf previous: Catalog? = nil) {
    if let previous {
      products = previous.products.map(\.withdrawn)
      groups = previous.groups.map {
        var group = $0
        group.productIndices = []
        return group
      }
      indexByProductID = previous.indexByProductID
      indexByGroupID = previous.indexByGroupID
    }
    for product in (configuration.products ?? []) + (configuration.nonRenewingSubscriptions ?? []) {
      add(Self.entry(product, groupIndex: nil, subscription: nil))
    }
    for group in configuration.subscriptionGroups ?? [] {
      for subscription in group.subscriptions {
        let groupIndex = self.groupIndex(for: subscription.subscriptionGroupID, group: group)
        let index = add(
          Self.entry(subscription.product, groupIndex: groupIndex, subscription: subscription))
        groups[groupIndex].productIndices.append(index)
      }
    }
    if let previous {
      commerceKinds = previous.commerceKinds
      genericOnly = previous.genericOnly
      for index in genericOnly where commerceKinds[index] != nil {
        products[index] = previous.products[index]
        if let group = products[index].groupIndex { groups[group].productIndices = [index] }
      }
    }
  }

  /// Declares `productID` App Store Connect's generic Advanced Commerce product of `kind`
  /// (`nil`: no longer one). A product the configuration lacks is added: a subscription in a
  /// group of its own, billed weekly until a request names its period, or a consumable; both
  /// at price 0, the requests' items carrying the prices.
  ///
  /// - Returns: the product's index.
  ///   A product declared by ID alone and declared `off` is withdrawn (its transactions stay),
  ///   and declared again comes back.
  @discardableResult
  public mutating func declareCommerce(_ productID: String, _ kind: CommerceKind?) -> Int {
    if let index = indexByProductID[productID] {
      commerceKinds[index] = kind
      if genericOnly.contains(index) {
        let product = products[index]
        products[index] =
          kind == nil
          ? product.withdrawn
          : Self.generic(productID, kind: kind!, groupIndex: product.groupIndex)
      }
      return index
    }
    var groupIndex: Int?
    if kind == .subscription {
      groups.append(
        CatalogGroup(
          id: String(Self.genericGroupBase + groups.count), name: "Advanced Commerce",
          localizations: [], productIndices: [products.count]))
      indexByGroupID[groups[groups.count - 1].id] = groups.count - 1
      groupIndex = groups.count - 1
    }
    let index = add(Self.generic(productID, kind: kind ?? .oneTime, groupIndex: groupIndex))
    commerceKinds[index] = kind
    genericOnly.insert(index)
    return index
  }

  /// A generic product the configuration lacks: price 0 (the requests carry the prices).
  private static func generic(
    _ productID: String, kind: CommerceKind, groupIndex: Int?
  ) -> CatalogProduct {
    let subscription = kind == .subscription
    return CatalogProduct(
      productID: productID, type: subscription ? .autoRenewableSubscription : .consumable,
      price: 0, displayPrice: "0", referenceName: "Advanced Commerce (generic)",
      familyShareable: false, localizations: [], groupIndex: groupIndex, level: 1,
      period: subscription ? SubscriptionPeriod(1, .week) : nil, introductoryOffer: nil,
      promotionalOffers: [], codeOffers: [], winBackOffers: [])
  }

  /// Where the ids of generic products' groups start (Apple's group ids are numbers).
  static let genericGroupBase = 90_000_000

  /// The index of a product ID.
  public func index(of productID: String) -> Int? { indexByProductID[productID] }

  /// Whether each product (by index) is kept once bought: a non-consumable or a non-renewing
  /// subscription, the products whose purchases are entitlements of their own.
  var lastingProducts: [Bool] {
    products.map { $0.type == .nonConsumable || $0.type == .nonRenewingSubscription }
  }

  /// The product with an ID.
  public func product(_ productID: String) -> CatalogProduct? {
    index(of: productID).map { products[$0] }
  }

  /// The index of a group id.
  public func groupIndex(of groupID: String) -> Int? { indexByGroupID[groupID] }

  /// Product IDs close to `text`, best first: for "did you mean" suggestions.
  public func productIDs(closeTo text: String, limit: Int = 3) -> [String] {
    let wanted = text.lowercased()
    let threshold = max(3, wanted.count / 2)
    var scored: [(id: String, distance: Int)] = []
    for product in products where product.isAvailable {
      let distance = editDistance(wanted, product.productID.lowercased())
      if distance <= threshold || product.productID.lowercased().contains(wanted) {
        scored.append((product.productID, distance))
      }
    }
    scored.sort { $0.distance == $1.distance ? $0.id < $1.id : $0.distance < $1.distance }
    return scored.prefix(limit).map(\.id)
  }

  @discardableResult
  private mutating func add(_ product: CatalogProduct) -> Int {
    if let index = indexByProductID[product.productID] {
      products[index] = product
      return index
    }
    products.append(product)
    indexByProductID[product.productID] = products.count - 1
    return products.count - 1
  }

  private mutating func groupIndex(for id: String, group: SubscriptionGroup) -> Int {
    if let index = indexByGroupID[id] {
      if groups[index].productIndices.isEmpty {
        groups[index].name = group.name
        groups[index].localizations = group.localizations
      }
      return index
    }
    groups.append(
      CatalogGroup(
        id: id, name: group.name, localizations: group.localizations, productIndices: []))
    indexByGroupID[id] = groups.count - 1
    return groups.count - 1
  }

  private static func entry(
    _ product: Product, groupIndex: Int?, subscription: Subscription?
  )
    -> CatalogProduct
  {
    func offers(_ list: [SubscriptionOffer]?, _ kind: OfferKind) -> [CatalogOffer] {
      (list ?? []).filter { $0.paymentMode != .none && $0.subscriptionPeriod != nil }
        .map { CatalogOffer($0, kind: kind) }
    }
    return CatalogProduct(
      productID: product.productID, type: product.type,
      price: product.displayPrice.milliunits ?? 0, displayPrice: product.displayPrice.text,
      referenceName: product.referenceName.wrapped, familyShareable: product.familyShareable,
      localizations: product.localizations, groupIndex: groupIndex,
      level: subscription?.groupNumber ?? 0, period: subscription?.recurringSubscriptionPeriod,
      introductoryOffer: subscription?.effectiveIntroductoryOffer.map {
        CatalogOffer($0, kind: .introductory)
      },
      promotionalOffers: offers(subscription?.adHocOffers, .promotional),
      codeOffers: subscription == nil
        ? (product.oneTimeCodeOffers ?? []).map { CatalogOffer($0, kind: .code) }
        : offers(subscription?.codeOffers, .code),
      winBackOffers: offers(subscription?.winbackOffers, .winBack),
      billingPlans: subscription.map(CatalogBillingPlan.enabledPlans) ?? [])
  }
}
