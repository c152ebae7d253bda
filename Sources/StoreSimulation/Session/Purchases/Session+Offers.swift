import StoreConfiguration

/// Whether an offer can apply to a purchase.
enum OfferDecision {
  /// Nothing was asked for and nothing applies automatically.
  case none
  /// Apply these offers, the first to the first period.
  case apply([GroupState.UpcomingOffer])
  /// StoreKit refuses the purchase with this error.
  case refused(SimulatedError)
}

extension Session {
  /// Refuses offers the configuration does not have: a mistake in the command, not a state of
  /// the session.
  func validateOfferReference(
    _ selection: OfferSelection, of product: CatalogProduct
  )
    throws(SessionError)
  {
    let (kind, name) = selection.kindAndName
    guard product.type == .autoRenewableSubscription || kind == .code else {
      throw SessionError(.offerOnOneTimeProduct(productID: product.productID))
    }
    guard let name else {
      if product.introductoryOffer == nil {
        throw SessionError(.noIntroductoryOffer(productID: product.productID))
      }
      return
    }
    let names = product.offers(kind).compactMap(\.id)
    guard names.contains(name) else {
      let noun =
        kind == .code ? "offer code" : "\(kind == .winBack ? "win-back" : "promotional") offer"
      throw SessionError(
        .noSuchOffer(productID: product.productID, noun: noun, name: name, known: names))
    }
  }

  /// The offers a new subscription period gets: the one asked for, or the introductory offer
  /// when the customer is eligible.
  ///
  /// A verified introductory-offer eligibility JWS decides the introductory offer instead of
  /// the session's history.
  func offerEligibility(_ options: PurchaseOptions, product productIndex: Int) -> OfferDecision {
    let selection = options.offer
    let product = catalog.products[productIndex]
    guard product.type == .autoRenewableSubscription, let groupIndex = product.groupIndex else {
      return .none
    }
    let group = groups[groupIndex]
    let introEligible =
      options.verifiedIntroductoryEligibility ?? isEligibleForIntroductoryOffer(group: groupIndex)
    // A MONTHLY plan's own offers, each queued for the monthly payments it covers.
    let monthly = options.billingPlan == "MONTHLY"
    func offers(_ kind: OfferKind) -> [CatalogOffer] {
      monthly ? product.monthlyPlanOffers(kind) : product.offers(kind)
    }
    func run(_ kind: OfferKind, _ index: Int) -> GroupState.UpcomingOffer {
      let offer = offers(kind)[index]
      return GroupState.UpcomingOffer(
        kind: UInt8(OfferKind.allCases.firstIndex(of: kind)!),
        index: Int16(index) + (monthly ? CatalogProduct.planOfferBase : 0),
        product: Int32(productIndex),
        remaining: Int32(monthly ? offer.months ?? 1 : offer.billedPeriods))
    }
    let intro = introEligible && !offers(.introductory).isEmpty ? [run(.introductory, 0)] : []
    guard let selection else { return group.isActive ? .none : .apply(intro) }
    let (kind, name) = selection.kindAndName
    let index = name.flatMap { name in offers(kind).firstIndex { $0.id == name } } ?? 0
    switch kind {
    case .introductory:
      return intro.isEmpty ? .refused(.purchase(.ineligibleForOffer)) : .apply(intro)
    case .promotional:
      return group.phase == .none
        ? .refused(.purchase(.ineligibleForOffer)) : .apply([run(kind, index)])
    case .winBack:
      let offer = offers(.winBack)[index]
      let eligible =
        group.phase == .expired && (winBackEligibility[offer.id ?? ""] ?? offer.isEligible)
      return eligible ? .apply([run(kind, index)]) : .refused(.purchase(.ineligibleForOffer))
    case .code:
      let offer = offers(.code)[index]
      let standing: CodeOfferEligibility =
        group.phase == .none ? .new : group.isActive ? .existing : .expired
      guard offer.eligibility.contains(standing) else {
        return .refused(.purchase(.ineligibleForOffer))
      }
      return .apply((offer.isStackable ? intro : []) + [run(kind, index)])
    }
  }

  /// `isEligibleForIntroOffer(for:)`: never subscribed in the group, or every such transaction
  /// deleted.
  public func isEligibleForIntroductoryOffer(group index: Int) -> Bool {
    groups[index].purchasedCount == 0 && !groups[index].isActive
  }

  /// Win-back offers the customer may redeem in a group, in file order.
  func eligibleWinBackOfferIDs(group index: Int) -> [String] {
    eligibleWinBackOfferIDs(of: groups[index])
  }

  /// ``eligibleWinBackOfferIDs(group:)`` of a group already read.
  func eligibleWinBackOfferIDs(of group: GroupState) -> [String] {
    guard group.phase == .expired, group.product >= 0 else { return [] }
    return product(at: group.product).winBackOffers
      .filter { winBackEligibility[$0.id ?? ""] ?? $0.isEligible }.compactMap(\.id)
  }
}

extension OfferSelection {
  var kindAndName: (OfferKind, String?) {
    switch self {
    case .introductory: (.introductory, nil)
    case .promotional(let id): (.promotional, id)
    case .code(let name): (.code, name)
    case .winBack(let id): (.winBack, id)
    }
  }
}

extension Session {
  /// Checks the signatures a purchase carries, as StoreKit does before it shows the sheet, and
  /// spends their nonces; an introductory-offer eligibility JWS's verdict.
  ///
  /// - Throws: ``OfferSignatureRefusal``: the purchase fails with its error.
  mutating func spendOfferSignatures(
    _ productID: String, _ options: PurchaseOptions
  )
    throws(OfferSignatureRefusal) -> Bool?
  {
    guard options.offerSignature != nil || options.introductoryEligibility != nil else {
      return nil
    }
    let check = OfferSignatureCheck(
      keyPair: configuration.subscriptionOffersKeyPair,
      bundleID: options.bundleID ?? PurchaseOptions.defaultBundleID, now: now)
    var spent = serverRecords.spentOfferNonces
    var introductory: Bool?
    if let jws = options.introductoryEligibility {
      let verdict = try check.checkIntroductoryEligibility(
        jws, productID: productID, spent: spent)
      introductory = verdict.allowed
      spent.insert(verdict.nonce)
    }
    if let signature = options.offerSignature, case .promotional(let offerID)? = options.offer {
      spent.insert(
        try check.checkPromotional(
          signature, productID: productID, offerID: offerID,
          appAccountToken: options.appAccountToken, spent: spent))
    }
    serverRecords.spentOfferNonces = spent
    return introductory
  }
}
