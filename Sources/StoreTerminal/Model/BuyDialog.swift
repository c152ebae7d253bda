import StoreCommands
import StoreConfiguration
import StoreSimulation

/// The buy dialog: quantity, offer, origin, purchase date.
package struct BuyDialog: Equatable, Sendable {
  /// The product's index in the catalog.
  package var product: Int
  /// How many (consumables), or an auto-renewable subscription's seats (more than 1: a
  /// multiseat purchase, `seats=`).
  package var quantity = 1
  /// The offers to choose from; the first is "none"; a subscription with a monthly billing
  /// plan has it as a choice too (`plan`).
  package var offers: [(label: String, selection: OfferSelection?, plan: String?)]
  /// The chosen offer.
  package var offerIndex = 0
  /// Bought in the app or outside it.
  package var origin: PurchaseOrigin = .app
  /// How far back the purchase is dated (the Transaction Manager's purchase date).
  package var backDate = 0
  /// For a back-dated subscription: renew until now, or one period only.
  package var renewal: RenewalBehavior = .automatic
  /// For a promotional offer: how the app's server signed it.
  package var signature: SignatureChoice = .onYourBehalf
  /// The field with focus: 0 quantity, 1 offer, 2 origin, 3 date, 4 renewal, 5 signature.
  package var field = 0
  /// A generic Advanced Commerce product's kind: what it sells comes from a signed request, so
  /// the dialog only explains and hands the `:` line over for one.
  package var commerce: CommerceKind?

  /// How a promotional offer comes signed.
  package enum SignatureChoice: Int, CaseIterable, Sendable {
    /// No signature: signed on the person's behalf, not checked.
    case onYourBehalf
    /// Signed with the configuration's key, as a correct server signs it.
    case valid
    /// Signed, then one character of the signature changed.
    case tampered
    /// Signed by the person's backend: the `:` line, to paste it.
    case pasted

    /// The dialog's words for it.
    package var label: String {
      switch self {
      case .onYourBehalf: "signed for you (not checked)"
      case .valid: "a valid signature (the configuration's key)"
      case .tampered: "a tampered signature (StoreKit refuses it)"
      case .pasted: "paste your backend's (key= nonce= timestamp= signature=, or jws=)"
      }
    }
  }

  /// What a key did to the dialog.
  enum Outcome: Equatable {
    /// Still open, perhaps changed.
    case open(BuyDialog)
    /// Closed without buying.
    case cancelled
    /// Closed: buy with these options.
    case buy(PurchaseOptions)
    /// Closed: buy with these options and a signature made now (tampered or not).
    case buySigned(PurchaseOptions, tampered: Bool)
    /// Closed: the person pastes a signature into this command line.
    case paste(String)
  }

  /// Whether the chosen offer is a promotional one (it has a signature to choose).
  var isPromotional: Bool {
    if case .promotional? = offers[offerIndex].selection { true } else { false }
  }

  /// The most the quantity field goes to: 10 consumables, 50 seats of a subscription, 1 of
  /// anything else (more through the command line).
  static func mostOfOneBuy(_ type: ProductType) -> Int {
    switch type {
    case .consumable: 10
    case .autoRenewableSubscription: 50
    case .nonConsumable, .nonRenewingSubscription: 1
    }
  }

  /// The purchase-date choices: now, or this long ago.
  static let backDates: [(label: String, milliseconds: Int64)] = [
    ("now", 0), ("1 hour ago", 3_600_000), ("1 day ago", 86_400_000), ("1 week ago", 604_800_000),
    ("30 days ago", 2_592_000_000),
  ]

  /// The dialog for a product, listing its offers with the customer's eligibility now.
  init(product index: Int, in session: SessionView) {
    product = index
    let product = session.catalog.products[index]
    let prices = PriceFormat(locale: session.settings.locale)
    let currency = session.settings.storefront.currency
    let standard = prices(product.price, currency: currency)
    offers = [("no offer: \(standard)", nil, nil)]
    commerce = session.commerceKind(ofProduct: product.productID)
    guard commerce == nil else { return }
    guard product.type == .autoRenewableSubscription, let groupIndex = product.groupIndex else {
      // A one-time product's offer codes: a price paid once.
      for offer in product.codeOffers {
        let price = prices(offer.price, currency: currency)
        offers.append(
          ("code \"\(offer.id ?? "")\" one time at \(price)", .code(offer.id ?? ""), nil))
      }
      return
    }
    let group = session.catalog.groups[groupIndex]
    let status = session.status(forGroup: group.id)
    func note(_ eligible: Bool) -> String { eligible ? "eligible" : "not eligible" }
    func terms(_ offer: CatalogOffer) -> String {
      "\(Self.describe(offer)) at \(prices(offer.price, currency: currency))"
    }
    if let intro = product.introductoryOffer {
      let eligible = session.isEligibleForIntroductoryOffer(groupID: group.id)
      if eligible {
        // StoreKit applies an introductory offer the customer is eligible for by itself.
        offers[0].label = "intro \(terms(intro)), applied automatically; then \(standard)"
      }
      offers.append(("intro \(terms(intro)) (\(note(eligible)))", .introductory, nil))
    }
    for offer in product.promotionalOffers {
      offers.append(
        (
          "promo \(offer.id ?? "") \(terms(offer)) (\(note(status != nil)))",
          .promotional(offer.id ?? ""), nil
        ))
    }
    let standing: CodeOfferEligibility =
      switch status?.state {
      case nil: .new
      case .expired?, .revoked?: .expired
      default: .existing
      }
    for offer in product.codeOffers {
      let label =
        "code \"\(offer.id ?? "")\" \(terms(offer)) (\(note(offer.eligibility.contains(standing))))"
      offers.append((label, .code(offer.id ?? ""), nil))
    }
    let winBack = Set(status?.renewalInfo.eligibleWinBackOfferIDs ?? [])
    for offer in product.winBackOffers {
      let label =
        "win-back \(offer.id ?? "") \(terms(offer)) (\(note(winBack.contains(offer.id ?? ""))))"
      offers.append((label, .winBack(offer.id ?? ""), nil))
    }
    // Monthly billing with a 12-month commitment (a billing plan of the file).
    if let plan = product.billingPlans.first(where: \.isMonthly) {
      let label =
        "plan MONTHLY: \(prices(plan.price, currency: currency)) a month for 12 months "
        + "(\(prices(plan.commitmentPrice, currency: currency)))"
      offers.append((label, nil, "MONTHLY"))
    }
  }

  /// `free P1W`, `pay as you go 3×P1M`.
  static func describe(_ offer: CatalogOffer) -> String {
    let period = "\(offer.periodCount > 1 ? "\(offer.periodCount)×" : "")\(offer.period.iso8601)"
    switch offer.paymentMode {
    case .free, .none: return "free \(period)"
    case .payAsYouGo: return "pay as you go \(period)"
    case .payUpFront: return "pay up front \(period)"
    case .oneTime: return "one time"
    }
  }

  /// A key in the dialog, for a product of `type`, at the session's `now`.
  func handle(
    _ key: Key, type: ProductType, now: Instant, productID: String = ""
  ) -> Outcome {
    var dialog = self
    if commerce != nil {
      // Paste a signed request, or a file holding one (`@path`).
      switch key {
      case .escape: return .cancelled
      case .enter, .character("b"), .character("p"):
        return .paste("buy \(productID) advanced-commerce=")
      case .character("f"): return .paste("buy \(productID) advanced-commerce=@")
      default: return .open(dialog)
      }
    }
    switch key {
    case .escape: return .cancelled
    case .enter, .character("b"):
      let seated = type == .autoRenewableSubscription && quantity > 1
      var options = PurchaseOptions(quantity: seated ? 1 : quantity, origin: origin)
      if seated { options.seats = quantity }
      options.offer = offers[offerIndex].selection
      options.billingPlan = offers[offerIndex].plan
      let back = Self.backDates[backDate].milliseconds
      if back > 0 {
        options.purchaseDate = now.adding(milliseconds: -back)
        options.renewal = renewal
      }
      guard isPromotional else { return .buy(options) }
      switch signature {
      case .onYourBehalf: return .buy(options)
      case .valid: return .buySigned(options, tampered: false)
      case .tampered: return .buySigned(options, tampered: true)
      case .pasted:
        return .paste(Command.buy(productID: productID, options: options).description + " ")
      }
    case .up, .character("k"): dialog.field = max(0, field - 1)
    case .down, .tab, .character("j"): dialog.field = min(isPromotional ? 5 : 4, field + 1)
    case .left, .right, .character("h"), .character("l"), .character(" "):
      let step = key == .left || key == .character("h") ? -1 : 1
      switch field {
      case 0:
        dialog.quantity = max(1, min(Self.mostOfOneBuy(type), quantity + step))
      case 1: dialog.offerIndex = (offerIndex + step + offers.count) % offers.count
      case 2: dialog.origin = origin == .app ? .store : .app
      case 3:
        let count = Self.backDates.count
        dialog.backDate = (backDate + step + count) % count
      case 4: dialog.renewal = renewal == .automatic ? .once : .automatic
      default:
        let count = SignatureChoice.allCases.count
        dialog.signature = SignatureChoice(rawValue: (signature.rawValue + step + count) % count)!
      }
      if !dialog.isPromotional { dialog.field = min(dialog.field, 4) }
    default: break
    }
    return .open(dialog)
  }

  /// Dialogs are equal when their product, choices and focus are.
  package static func == (lhs: BuyDialog, rhs: BuyDialog) -> Bool {
    lhs.product == rhs.product && lhs.quantity == rhs.quantity && lhs.offerIndex == rhs.offerIndex
      && lhs.origin == rhs.origin && lhs.field == rhs.field && lhs.backDate == rhs.backDate
      && lhs.renewal == rhs.renewal && lhs.signature == rhs.signature
      && lhs.commerce == rhs.commerce
      && lhs.offers.map(\.label) == rhs.offers.map(\.label)
  }
}
