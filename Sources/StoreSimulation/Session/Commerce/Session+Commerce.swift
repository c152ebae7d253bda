/// The Advanced Commerce API, in-app half: generic products declared, the developer's signed
/// requests verified and checked, and what they make (a one-time charge, a subscription of
/// items, its modifications and reactivation). The server half is in Session+CommerceServer.
extension Session {
  /// The Advanced Commerce kind a product is declared as, if any.
  public func commerceKind(ofProduct productID: String) -> CommerceKind? {
    catalog.index(of: productID).flatMap { catalog.commerceKinds[$0] }
  }

  /// The Advanced Commerce subscription a transaction belongs to (any transaction of it).
  public func commerceSubscription(ofTransaction id: UInt64) -> CommerceSubscription? {
    guard !storage.commerce.isEmpty, let position = ledger.position(of: id) else { return nil }
    return storage.commerce[ledger[position].originalID]
  }

  func commerceRefusal(_ rule: CommerceRule, _ message: String) -> SessionError {
    SessionError(.commerce(CommerceRefusal(rule, message)))
  }

  /// A check of the Advanced Commerce records (``CommerceRecords``), its refusal the session's.
  func checkRecords(
    _ check: (CommerceRecords) throws(CommerceRefusal) -> Void
  ) throws(SessionError) {
    do throws(CommerceRefusal) { try check(storage.commerce) } catch {
      throw SessionError(.commerce(error))
    }
  }

  // MARK: - Declaring products

  /// Why `set advanced-commerce <productID> <kind>` cannot apply: a product of another type,
  /// or `off` for a product the catalog lacks.
  func checkDeclareCommerce(_ productID: String, _ kind: CommerceKind?) throws(SessionError) {
    guard let index = catalog.index(of: productID) else {
      guard kind != nil else {
        throw commerceRefusal(
          .productNotEligible, "\(productID) is no product, so it is no Advanced Commerce one")
      }
      return
    }
    let type = catalog.products[index].type
    switch kind {
    case .subscription? where type != .autoRenewableSubscription,
      .oneTime? where type != .consumable && type != .nonConsumable:
      throw commerceRefusal(
        .productNotEligible,
        "\(productID) is a product of type \(ProductKind(type).rawValue): a generic Advanced Commerce "
          + "product of subscriptions is an auto-renewable subscription, one of one-time "
          + "charges a consumable or non-consumable")
    default: break
    }
  }

  /// Declares App Store Connect's generic Advanced Commerce product (a `.storekit` file has no
  /// field for it); one the configuration lacks is added to the catalog.
  mutating func declareCommerce(_ productID: String, _ kind: CommerceKind?) {
    catalog.declareCommerce(productID, kind)
    fitCustomersToCatalog()
  }

  // MARK: - In-app requests

  /// The verified request of a purchase, checked against the customer's state; `nil` for a
  /// purchase that is no Advanced Commerce one.
  func commerceRequest(
    _ productIndex: Int, _ options: PurchaseOptions
  ) throws(SessionError) -> (request: CommerceInAppRequest, nonce: String)? {
    let productID = catalog.products[productIndex].productID
    let kind = catalog.commerceKinds[productIndex]
    guard let signed = options.advancedCommerce else {
      guard kind == nil else {
        throw commerceRefusal(
          .productNotEligible,
          "\(productID) is an Advanced Commerce product: it is bought with a request your "
            + "server signs (buy \(productID) advanced-commerce=<JWS>; storekeeper "
            + "advanced-commerce-request signs one)")
      }
      return nil
    }
    guard let kind else {
      throw commerceRefusal(
        .productNotEligible,
        "advanced-commerce= with \(productID), which is no Advanced Commerce product (set "
          + "advanced-commerce \(productID) subscription|one-time declares it)")
    }
    guard options.quantity == 1, options.seats == nil, options.offer == nil,
      options.billingPlan == nil, options.purchaseDate == nil
    else {
      throw commerceRefusal(
        .operationNotAllowed,
        "an Advanced Commerce purchase takes no quantity, seats, offer, plan or date: its "
          + "request names what it buys")
    }
    let check = OfferSignatureCheck(
      keyPair: configuration.subscriptionOffersKeyPair,
      bundleID: options.bundleID ?? PurchaseOptions.defaultBundleID, now: now)
    let verified: (request: String, nonce: String)
    do throws(OfferSignatureRefusal) {
      verified = try check.checkAdvancedCommerce(signed.jws, spent: serverRecords.spentOfferNonces)
    } catch {
      throw commerceRefusal(.invalidSignature, "the advanced-commerce JWS: \(error.description)")
    }
    // What the edge read is taken only when it was read from the claim the signature covers.
    guard verified.request == signed.claim else {
      throw commerceRefusal(
        .invalidSignature, "the advanced-commerce request was not read from the JWS's claim")
    }
    let request: CommerceInAppRequest
    do throws(CommerceRefusal) {
      request = try signed.request.get()
    } catch {
      throw SessionError(.commerce(error))
    }
    try checkCommerce(request, kind: kind, productIndex, options)
    return (request, verified.nonce)
  }

  /// Why a verified request cannot apply: Apple's rules against the customer's state.
  private func checkCommerce(
    _ request: CommerceInAppRequest, kind: CommerceKind, _ productIndex: Int,
    _ options: PurchaseOptions
  ) throws(SessionError) {
    let info = request.info
    try checkRecords { records throws(CommerceRefusal) in try records.checkUnused(info) }
    if let token = info.appAccountToken, let given = options.appAccountToken,
      token != given.lowercased()
    {
      throw commerceRefusal(
        .operationNotAllowed,
        "requestInfo.appAccountToken \(token) is not the purchase's app account token \(given)")
    }
    let productID = catalog.products[productIndex].productID
    let wanted: CommerceKind =
      if case .createOneTimeCharge = request { .oneTime } else { .subscription }
    guard wanted == kind else {
      throw commerceRefusal(
        .productNotEligible,
        "\(request.operation) with \(productID), a generic product of "
          + (kind == .oneTime ? "one-time charges" : "subscriptions"))
    }
    switch request {
    case .createOneTimeCharge(_, let terms, let storefront):
      try checkMarket(terms.currency, storefront: storefront)
    case .createSubscription(_, let terms, _, let storefront):
      try checkMarket(terms.currency, storefront: storefront)
      if let group = catalog.products[productIndex].groupIndex, groups[group].isActive {
        throw commerceRefusal(
          .alreadyExists,
          "the customer's subscription to \(productID) is active (\(groups[group].current)): "
            + "modify it (MODIFY_SUBSCRIPTION) instead")
      }
    case .modify(let info, let change):
      try checkMarket(change.currency, storefront: nil)
      let (group, original) = try commerceGroup(change.transactionID, product: productIndex)
      try checkToken(info, original)
      try checkModification(change, renewal: storage.commerce.renewal(of: original))
      guard groups[group].isActive else {
        throw commerceRefusal(.inactive, "subscription \(original) has ended")
      }
    case .reactivate(let info, let id, let skus, let storefront):
      try checkMarket(nil, storefront: storefront)
      let (group, original) = try commerceGroup(id, product: productIndex)
      try checkToken(info, original)
      guard groups[group].isActive else {
        throw commerceRefusal(.inactive, "subscription \(original) has ended: create a new one")
      }
      guard !groups[group].willAutoRenew else {
        throw commerceRefusal(.alreadyActive, "subscription \(original) renews already")
      }
      let held = Set(storage.commerce.renewal(of: original).items.map(\.sku))
      if let missing = skus.first(where: { !held.contains($0) }) {
        throw commerceRefusal(.changeItemNotFound, "subscription \(original) has no SKU \(missing)")
      }
    }
  }

  /// Refuses a `requestReferenceId` used before by another request.
  func checkFresh(_ info: CommerceRequestInfo, request: String) throws(SessionError) {
    try checkRecords { records throws(CommerceRefusal) in
      try records.checkFresh(info, asking: request)
    }
  }

  /// Refuses a currency other than the storefront's, and another storefront.
  func checkMarket(_ currency: String?, storefront: String?) throws(SessionError) {
    let here = settings.storefront
    if let currency, currency != here.currency {
      throw commerceRefusal(
        .invalidCurrency,
        "currency \(currency) is not the storefront's (\(here.countryCode): \(here.currency))")
    }
    if let storefront, storefront != here.countryCode, storefront != here.id {
      throw commerceRefusal(
        .invalidStorefront,
        "storefront \(storefront) is not the customer's (\(here.countryCode))")
    }
  }

  /// Refuses a consistency token that is not the subscription's latest.
  func checkToken(_ info: CommerceRequestInfo, _ original: UInt64) throws(SessionError) {
    try checkRecords { records throws(CommerceRefusal) in try records.checkToken(info, original) }
  }

  /// The group and original id of the customer's Advanced Commerce subscription that
  /// transaction `id` belongs to (of `product` when given).
  func commerceGroup(
    _ id: UInt64, product productIndex: Int? = nil
  ) throws(SessionError) -> (group: Int, original: UInt64) {
    let position = try requireTransaction(id)
    let record = ledger[position]
    guard let group = product(at: record.product).groupIndex,
      storage.commerce[record.originalID] != nil
    else {
      throw commerceRefusal(
        .notEligible, "transaction \(id) is no Advanced Commerce subscription's")
    }
    if let productIndex, record.product != Int32(productIndex) {
      throw commerceRefusal(
        .productNotEligible,
        "transaction \(id) is a subscription to \(product(at: record.product).productID), not "
          + "\(catalog.products[productIndex].productID)")
    }
    return (group, record.originalID)
  }

  private func checkModification(
    _ change: CommerceModification, renewal: CommerceTerms
  ) throws(SessionError) {
    var skus = Set(renewal.items.map(\.sku))
    for sku in change.removeItems {
      guard skus.remove(sku) != nil else {
        throw commerceRefusal(.removeItemNotFound, "removeItems: no SKU \(sku) renews")
      }
    }
    for item in change.changeItems {
      guard skus.remove(item.currentSKU) != nil else {
        throw commerceRefusal(.changeItemNotFound, "changeItems: no SKU \(item.currentSKU) renews")
      }
    }
    for item in change.addItems.map(\.item) + change.changeItems.map(\.item) {
      guard skus.insert(item.sku).inserted else {
        throw commerceRefusal(.operationNotAllowed, "SKU \(item.sku) would be there twice")
      }
    }
    guard !skus.isEmpty else {
      throw commerceRefusal(
        .operationNotAllowed,
        "the subscription would renew no item: cancel it instead (the Cancel endpoint)")
    }
  }

  /// A new consistency token for the subscription of `original`.
  mutating func renewToken(_ original: UInt64) {
    makeUnique()
    storage.commerce.renewToken(original)
  }

  /// Remembers a request's `requestReferenceId`.
  mutating func spendRequest(_ info: CommerceRequestInfo, request: String) {
    makeUnique()
    storage.commerce.spend(info, asking: request)
  }
}
