import StoreConfiguration

/// Where a purchase comes from; it decides how the app receives it.
public enum PurchaseOrigin: String, Sendable, CaseIterable {
  /// The app called `Product.purchase()` and the payment sheet was confirmed: the transaction is
  /// the purchase's result, and the session's switches (Ask to Buy, interruptions, failures,
  /// simulated errors) apply.
  case app
  /// Bought outside the app (`SKTestSession.buyProduct`, the Transaction Manager's "+"): the
  /// transaction arrives on `Transaction.updates`.
  case store
}

/// What a back-dated subscription does after its first period.
public enum RenewalBehavior: String, Sendable, CaseIterable {
  /// Renew until now (`.renewUntilNow`, "Automatically Renew").
  case automatic = "auto"
  /// One period, auto-renew off (`.cancelImmediately`, "Don't Renew").
  case once
}

/// An offer a purchase asks for.
public enum OfferSelection: Equatable, Sendable {
  /// The product's introductory offer.
  case introductory
  /// A promotional offer by `offerID`.
  case promotional(String)
  /// An offer code by reference name.
  case code(String)
  /// A win-back offer by `offerID`.
  case winBack(String)
}

/// `Product.PurchaseOption`s and the Transaction Manager's purchase fields.
public struct PurchaseOptions: Equatable, Sendable {
  /// How many (consumables; a purchase in the app fails above 10, as StoreKit's does).
  public var quantity = 1
  /// A multiseat purchase's seats (`seats(_:)`, `buy … seats=N`): the total after the
  /// purchase, as StoreKit's option; `nil` for a purchase of one.
  public var seats: Int?
  /// The most a purchase may ask for (Int32 in the ledger; totals that stay exact).
  public static let maximumQuantity = 1_000_000
  /// The offer to apply.
  public var offer: OfferSelection?
  /// The app's account token (a UUID).
  public var appAccountToken: String?
  /// A purchase date in the past (`.purchaseDate(_:renewalBehavior:)`).
  public var purchaseDate: Instant?
  /// For a back-dated subscription: renew until now or stop after one period.
  public var renewal: RenewalBehavior = .automatic
  /// Made by the app or outside it.
  public var origin: PurchaseOrigin = .app
  /// The promotional offer's signature from the app's server; without one, the purchase is
  /// signed on the person's behalf (not checked).
  public var offerSignature: OfferSignature?
  /// An introductory-offer eligibility JWS (`introductoryOfferEligibility(compactJWS:)`): when
  /// it verifies, its `allowIntroductoryOffer` replaces the session's eligibility.
  public var introductoryEligibility: String?
  /// The app's bundle id the signatures are checked for; `nil` for ``defaultBundleID``.
  public var bundleID: String?
  /// The billing plan bought (`plan=`, `PurchaseOption.billingPlanType(_:)`): `MONTHLY` (a
  /// monthly payment over a 12-month commitment) or `BILLED_UPFRONT`; `nil` for the up-front
  /// price.
  public var billingPlan: String?
  /// An Advanced Commerce in-app request: the compact JWS the developer's server signed
  /// (`AdvancedCommerceProduct.purchase(compactJWS:…)`, `buy … advanced-commerce=`), with the
  /// request an edge read from it.
  public var advancedCommerce: SignedCommerceRequest?

  /// A verified Advanced Commerce subscription's terms for the period it opens (set by the
  /// engine).
  var commerceTerms: CommerceTerms?
  /// The eligibility a verified ``introductoryEligibility`` JWS decided (set by the engine).
  var verifiedIntroductoryEligibility: Bool?

  /// The bundle id of an app nobody named.
  public static let defaultBundleID = "com.example.storekeeper"

  /// Creates options.
  public init(
    quantity: Int = 1, offer: OfferSelection? = nil, appAccountToken: String? = nil,
    purchaseDate: Instant? = nil, renewal: RenewalBehavior = .automatic,
    origin: PurchaseOrigin = .app
  ) {
    self.quantity = quantity
    self.offer = offer
    self.appAccountToken = appAccountToken
    self.purchaseDate = purchaseDate
    self.renewal = renewal
    self.origin = origin
  }
}

extension Session {
  /// Buys a product: `Product.purchase()` when the app makes the purchase, `buyProduct` when it
  /// comes from outside the app.
  ///
  /// A purchase the session makes fail (interrupted, Ask to Buy, failing transactions, a
  /// simulated error, an ineligible offer) is not an error: its events show the outcome.
  /// - Throws: ``SessionError`` for an unknown product or offer, a future date, a quantity
  ///   below 1, or a non-consumable bought again from outside the app.
  public mutating func buy(
    _ productID: String, _ options: PurchaseOptions = .init(), _ sink: EventSink
  ) throws(SessionError) {
    try check(.buy(productID: productID, options: options))
    let index = try requireProduct(productID)
    let product = catalog.products[index]
    let date = options.purchaseDate?.milliseconds ?? now.milliseconds
    let stamp = now.milliseconds
    let app = options.origin == .app
    if app {
      emit(
        .paymentQueue(.init(productID: productID, state: .purchasing, quantity: options.quantity)),
        at: stamp, sink)
      if options.quantity > (product.type == .consumable ? 10 : 1) {
        refuse(index, options, error: .purchase(.invalidQuantity), sink)
        return
      }
      if let error = settings.simulatedErrors[.purchase] {
        recordAttempt(index, options, date: date, outcome: .failed(error, error.skErrorCode), sink)
        return
      }
      if settings.failTransactionsEnabled {
        let code = settings.failureError
        recordAttempt(index, options, date: date, outcome: .failed(code.simulatedError, code), sink)
        return
      }
    }
    if let (request, nonce) = try commerceRequest(index, options) {
      performCommercePurchase(
        request, nonce: nonce, index, options, delivery: app ? .purchaseResult : .updates, sink)
      settle(sink)
      return
    }
    var options = options
    do throws(OfferSignatureRefusal) {
      options.verifiedIntroductoryEligibility = try spendOfferSignatures(productID, options)
    } catch {
      refuse(index, options, error: error.error, detail: error.description, sink)
      return
    }
    if case .refused(let error) = offerEligibility(options, product: index) {
      refuse(index, options, error: error, sink)
      return
    }
    if app && settings.interruptedPurchasesEnabled && !alreadyHeld(index) {
      recordAttempt(index, options, date: date, outcome: .interrupted, sink)
      return
    }
    if app && settings.askToBuyEnabled && !alreadyHeld(index) {
      recordAttempt(index, options, date: date, outcome: .deferred, sink)
      return
    }
    completePurchase(index, options, date: date, delivery: app ? .purchaseResult : .updates, sink)
    settle(sink)
  }

  /// Why a purchase cannot be made: an unknown product or offer, a quantity out of range or a
  /// total that overflows, a future date, a non-consumable bought again from outside the app,
  /// or a back-dated purchase that would renew too often.
  func checkPurchase(_ productID: String, _ options: PurchaseOptions) throws(SessionError) {
    let productIndex = try requireProduct(productID)
    if options.introductoryEligibility != nil
      && catalog.products[productIndex].type != .autoRenewableSubscription
    {
      throw SessionError(.introJWSNeedsSubscription(productID: productID))
    }
    let index = try requireProduct(productID)
    let product = catalog.products[index]
    let date = options.purchaseDate?.milliseconds ?? now.milliseconds
    guard (1...PurchaseOptions.maximumQuantity).contains(options.quantity) else {
      throw SessionError(.quantityOutOfRange(maximum: PurchaseOptions.maximumQuantity))
    }
    guard !product.price.multipliedReportingOverflow(by: Int64(options.quantity)).overflow else {
      throw SessionError(.priceOverflow(productID: productID, quantity: options.quantity))
    }
    guard date <= now.milliseconds else {
      throw SessionError(.purchaseDateInFuture(date: Instant(milliseconds: date), now: now))
    }
    if let plan = options.billingPlan { try checkBillingPlan(plan, of: product, options) }
    try checkSeatsOfPurchase(index, options)
    _ = try commerceRequest(index, options)
    // A MONTHLY plan's offer was checked against the plan's own offers.
    if let selection = options.offer, options.billingPlan != "MONTHLY" {
      try validateOfferReference(selection, of: product)
    }
    if options.origin == .store, product.type == .nonConsumable, let owned = ownedPosition(index) {
      throw SessionError(.alreadyPurchased(productID: productID, transaction: ledger[owned].id))
    }
    if date < now.milliseconds && options.renewal == .automatic && product.groupIndex != nil {
      try checkCatchUpBudget(product: index, from: date)
    }
  }

  /// Whether buying the product now would only hand back what the customer holds.
  func alreadyHeld(_ productIndex: Int) -> Bool {
    let product = catalog.products[productIndex]
    switch product.type {
    case .nonConsumable: return ownedPosition(productIndex) != nil
    case .autoRenewableSubscription:
      guard let groupIndex = product.groupIndex else { return false }
      let group = groups[groupIndex]
      return group.isActive && group.product == Int32(productIndex)
    default: return false
    }
  }

  /// The live, purchased, unrevoked transaction of a non-consumable.
  func ownedPosition(_ productIndex: Int) -> Int? {
    ledger.holdings(ofProduct: Int32(productIndex)).last
  }

  enum AttemptOutcome {
    case failed(SimulatedError, SKErrorCode)
    case interrupted
    case deferred
  }

  /// Records a purchase that did not complete: a failed attempt, an interrupted purchase, or an
  /// Ask to Buy request.
  private mutating func recordAttempt(
    _ productIndex: Int, _ options: PurchaseOptions, date: Int64, outcome: AttemptOutcome,
    _ sink: EventSink
  ) {
    let product = catalog.products[productIndex]
    var record = TransactionRecord(
      id: 0, originalID: nextFreeID, purchaseDate: date, originalPurchaseDate: date,
      price: product.price * Int64(options.quantity), product: Int32(productIndex),
      quantity: Int32(options.quantity), storefront: storefrontIndex(), state: .failed)
    var details = TransactionDetails(appAccountToken: options.appAccountToken)
    let stamp = now.milliseconds
    let update: PaymentQueueUpdate
    let result: PurchaseResult
    switch outcome {
    case .failed(let error, let code):
      details.failure = error
      update = .init(
        productID: product.productID, state: .failed, error: code, quantity: options.quantity)
      let outcome: PurchaseResult.Outcome =
        error == .generic(.userCancelled) ? .userCancelled : .failed
      result = .init(productID: product.productID, outcome: outcome, error: error)
    case .interrupted:
      record.flags.insert(.purchaseIssue)
      update = .init(
        productID: product.productID, state: .failed, error: .unknown, quantity: options.quantity)
      result =
        self.options.fidelity.interruptedPurchaseOutcome == .pending
        ? .init(productID: product.productID, outcome: .pending)
        : .init(productID: product.productID, outcome: .failed, error: .generic(.unknown))
    case .deferred:
      record.state = .deferred
      record.flags.insert(.pendingApproval)
      update = .init(productID: product.productID, state: .deferred, quantity: options.quantity)
      result = .init(productID: product.productID, outcome: .pending)
    }
    let hasDetails = details.appAccountToken != nil || details.failure != nil
    record.flags.insert(.purchaseUntold)
    let id = appendMade(record, details: hasDetails ? details : nil)
    emitTransaction(ledger.records.count - 1, delivery: nil, at: stamp, sink)
    var queued = update
    queued.transactionID = id
    emit(.paymentQueue(queued), at: stamp, sink)
    emit(.purchaseResult(result), at: stamp, sink)
    settle(sink)
  }

  /// A purchase StoreKit refuses before any transaction exists (bad quantity, ineligible offer).
  private mutating func refuse(
    _ productIndex: Int, _ options: PurchaseOptions, error: SimulatedError, detail: String? = nil,
    _ sink: EventSink
  ) {
    let productID = catalog.products[productIndex].productID
    let stamp = now.milliseconds
    if options.origin == .app {
      emit(
        .paymentQueue(
          .init(
            productID: productID, state: .failed, error: error.skErrorCode,
            quantity: options.quantity)),
        at: stamp, sink)
    }
    emit(
      .purchaseResult(.init(productID: productID, outcome: .failed, error: error, detail: detail)),
      at: stamp, sink)
  }

  /// Completes a purchase: a new transaction, or the one already held. With `reusing`, an Ask to
  /// Buy request becomes the purchase (same id).
  mutating func completePurchase(
    _ productIndex: Int, _ options: PurchaseOptions, date: Int64, delivery: Delivery,
    reusing request: Int? = nil, _ sink: EventSink
  ) {
    let product = catalog.products[productIndex]
    if product.type == .nonConsumable, let owned = ownedPosition(productIndex) {
      handBack(owned, options, delivery: delivery, replacing: request, sink)
      return
    }
    if options.seats != nil, addSeatsByPurchase(productIndex, options, delivery: delivery, sink) {
      return
    }
    if product.type == .autoRenewableSubscription, let groupIndex = product.groupIndex,
      groups[groupIndex].isActive
    {
      changePlan(
        group: groupIndex, to: productIndex, options, delivery: delivery, replacing: request, sink)
      return
    }
    if product.type == .autoRenewableSubscription, let groupIndex = product.groupIndex {
      startSubscription(
        group: groupIndex, product: productIndex, options, date: date, delivery: delivery,
        reusing: request, sink)
      return
    }
    var record = TransactionRecord(
      id: 0, originalID: TransactionRecord.ownID, purchaseDate: date, originalPurchaseDate: date,
      price: product.price * Int64(options.quantity), product: Int32(productIndex),
      quantity: Int32(options.quantity), storefront: storefrontIndex(), state: .purchased)
    // A one-time product's offer code: its price instead of the product's.
    if case .code(let name)? = options.offer,
      let index = product.codeOffers.firstIndex(where: { $0.id == name })
    {
      record.price = product.codeOffers[index].price * Int64(options.quantity)
      record.offerIndex = Int16(index)
      record.offerKind = UInt8(OfferKind.allCases.firstIndex(of: .code)!)
    }
    let position = place(&record, token: options.appAccountToken, reusing: request)
    announcePurchase(position, delivery: delivery, options: options, sink)
  }

  /// Stores a completed record: appended with the next id, or written over an Ask to Buy
  /// request (keeping its id and date). Returns its position.
  mutating func place(
    _ record: inout TransactionRecord, token: String?, reusing request: Int?
  ) -> Int {
    record.flags.insert(.purchaseUntold)
    if let request {
      let existing = ledger[request]
      record.id = existing.id
      if record.originalID == TransactionRecord.ownID { record.originalID = existing.id }
      record.details = existing.details
      record.flags.remove(.finished)
      let replacement = record
      ledger.update(request) { $0 = replacement }
      return request
    }
    if record.originalID == TransactionRecord.ownID { record.originalID = nextFreeID }
    let details = token.map { TransactionDetails(appAccountToken: $0) }
    appendMade(record, details: details)
    return ledger.records.count - 1
  }

  /// The events of a completed purchase: the transaction, SK1's `purchased`, the purchase result.
  mutating func announcePurchase(
    _ position: Int, delivery: Delivery, options: PurchaseOptions, _ sink: EventSink,
    cause: NotificationCause? = nil
  ) {
    let stamp = now.milliseconds
    let record = ledger[position]
    let productID = product(at: record.product).productID
    emitTransaction(position, delivery: delivery, at: stamp, sink, cause: cause)
    emit(
      .paymentQueue(
        .init(
          productID: productID, state: .purchased, transactionID: record.id,
          quantity: Int(record.quantity))),
      at: stamp, sink)
    if self.options.receiptsOnPurchase {
      emit(.receipt(receiptContents(purchase: record.id)), at: stamp, sink)
    }
    if delivery == .purchaseResult {
      let error = settings.simulatedErrors[.verification]
      emit(
        .purchaseResult(
          .init(productID: productID, outcome: .success, transactionID: record.id, error: error)),
        at: stamp, sink)
    }
  }

  /// Hands back a transaction the customer already holds (measured: with its original date).
  mutating func handBack(
    _ position: Int, _ options: PurchaseOptions, delivery: Delivery, replacing request: Int?,
    _ sink: EventSink
  ) {
    if let request { removeRequest(request, sink) }
    announcePurchase(position, delivery: delivery, options: options, sink)
  }
}
