import StoreCommands
import StoreConfiguration
import StoreSimulation

extension App {
  /// The selected transaction's row.
  var selectedRow: LedgerRow? {
    selectedID.flatMap { id in position(of: id).map { rows[$0] } }
  }

  /// An action on the selected transaction, when its state allows; otherwise the status line
  /// says why.
  mutating func transactionAction(_ action: Action) {
    if action == .finishAll {
      perform(.finish(nil))
      return
    }
    guard let row = selectedRow else {
      message = ("select a transaction first (Tab to the Transactions pane)", true)
      return
    }
    let id = TransactionReference.id(row.id)
    let product = session.catalog.products[Int(row.product)]
    let isSubscription = product.type == .autoRenewableSubscription
    func refuse(_ why: String) { message = ("transaction \(row.id) \(why)", true) }
    switch action {
    case .approve, .decline:
      guard row.state == .pending else {
        return refuse("is not awaiting approval (it is \(row.state.label))")
      }
      perform(action == .approve ? .approve(id) : .decline(id))
    case .resolve:
      guard [.interrupted, .grace, .retry].contains(row.state) else {
        return refuse("has no issue to resolve (it is \(row.state.label))")
      }
      perform(.resolve(id))
    case .refund:
      guard ![.failed, .interrupted, .pending, .declined].contains(row.state) else {
        return refuse("cannot be refunded (it is \(row.state.label))")
      }
      overlay = .refundReason(row.id)
    case .extend:
      guard isSubscription, let status = groupStatus(of: product),
        [.subscribed, .inGracePeriod, .inBillingRetryPeriod].contains(status.state)
      else { return refuse("is not part of a running subscription") }
      overlay = .extend(row.id)
    case .toggleAutoRenew:
      guard isSubscription, let status = groupStatus(of: product), status.state != .expired,
        status.state != .revoked
      else { return refuse("is not part of a running subscription") }
      perform(.autoRenew(id, enabled: !status.renewalInfo.willAutoRenew))
    case .expire, .forceRenew:
      guard isSubscription, let status = groupStatus(of: product),
        [.subscribed, .inGracePeriod, .inBillingRetryPeriod].contains(status.state)
      else { return refuse("is not part of a running subscription") }
      let current = status.renewalInfo.currentProductID
      perform(action == .expire ? .expire(productID: current) : .renew(productID: current))
    case .priceIncrease:
      guard isSubscription, let status = groupStatus(of: product),
        [.subscribed, .inGracePeriod, .inBillingRetryPeriod].contains(status.state)
      else { return refuse("is not part of a running subscription") }
      overlay = .priceIncrease(row.id)
    case .finish:
      guard !row.isFinished else { return refuse("is already finished") }
      perform(.finish(id))
    case .delete:
      let what =
        row.originalID == row.id && isSubscription
        ? "Delete transaction \(row.id) and every renewal of it?" : "Delete transaction \(row.id)?"
      overlay = .confirm(what, .delete(id))
    default: break
    }
  }

  func groupStatus(of product: CatalogProduct) -> SubscriptionStatus? {
    product.groupIndex.flatMap { session.status(forGroup: session.catalog.groups[$0].id) }
  }

  /// Opens the buy dialog for the selected product, listing its offers with eligibility.
  mutating func openBuyDialog() {
    guard let index = selectedProduct else {
      message = ("select a product first", true)
      return
    }
    let product = session.catalog.products[index]
    var offers: [(label: String, selection: OfferSelection?)] = [("no offer", nil)]
    if product.type == .autoRenewableSubscription, let groupIndex = product.groupIndex {
      let group = session.catalog.groups[groupIndex]
      let status = session.status(forGroup: group.id)
      let introEligible = session.isEligibleForIntroductoryOffer(groupID: group.id)
      func note(_ eligible: Bool) -> String { eligible ? "eligible" : "not eligible" }
      if let intro = product.introductoryOffer {
        offers.append(("intro \(Self.describe(intro)) (\(note(introEligible)))", .introductory))
      }
      for offer in product.promotionalOffers {
        offers.append(
          ("promo \(offer.id ?? "") (\(note(status != nil)))", .promotional(offer.id ?? "")))
      }
      let standing: CodeOfferEligibility =
        status == nil ? .new : [.expired, .revoked].contains(status!.state) ? .expired : .existing
      for offer in product.codeOffers {
        let label = "code \"\(offer.id ?? "")\" (\(note(offer.eligibility.contains(standing))))"
        offers.append((label, .code(offer.id ?? "")))
      }
      let winBack = Set(status?.renewalInfo.eligibleWinBackOfferIDs ?? [])
      for offer in product.winBackOffers {
        offers.append(
          (
            "win-back \(offer.id ?? "") (\(note(winBack.contains(offer.id ?? ""))))",
            .winBack(offer.id ?? "")
          ))
      }
    }
    overlay = .buy(BuyDialog(product: index, offers: offers))
  }

  static func describe(_ offer: CatalogOffer) -> String {
    let period = "\(offer.periodCount > 1 ? "\(offer.periodCount)×" : "")\(offer.period.iso8601)"
    switch offer.paymentMode {
    case .free, .none: return "free \(period)"
    case .payAsYouGo: return "pay as you go \(period)"
    case .payUpFront: return "pay up front \(period)"
    }
  }
}
