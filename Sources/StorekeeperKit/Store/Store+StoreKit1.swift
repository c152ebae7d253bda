import Foundation
internal import StoreCommands
internal import StoreSigning
internal import StoreSimulation

/// What StoreKit's original API asks of the store: its payment queue, payments, restores,
/// products, and the app receipt file.
extension Store {
  /// The app's one payment queue (the purchaser's device's), made on first use with the app's
  /// unfinished transactions in it.
  var paymentHub: PaymentQueueHub {
    let root = primary ?? self
    return lock.withLock {
      if let hub = root.queueHub { return hub }
      let (unfinished, firstNew) = root.withSession { session in
        let unfinished = session.unfinishedTransactions().filter { $0.owner == .purchaser }
        return (unfinished.map { ($0, $0.purchaseDate.date) }, session.nextTransactionID)
      }
      let hub = PaymentQueueHub(store: root, unfinished: unfinished, firstNew: firstNew)
      root.queueHub = hub
      return hub
    }
  }

  /// The app's payment queue if anything asked for it yet.
  var madePaymentHub: PaymentQueueHub? { lock.withLock { (primary ?? self).queueHub } }

  /// The session's queue object (`SKPaymentQueue.default()`).
  package var paymentQueue: SKPaymentQueue { paymentHub.defaultQueue }

  /// A payment the app added: bought as `Product.purchase()` buys (the session's switches
  /// apply), its updates told to the queue's observers. A payment the store refuses before
  /// any transaction exists fails with StoreKit 1's nearest code.
  func pay(_ payment: SKPayment, through queue: SKPaymentQueue) {
    var options = PurchaseOptions()
    options.quantity = payment.quantity
    if let name = payment.applicationUsername, let token = UUID(uuidString: name) {
      options.appAccountToken = token.uuidString.lowercased()
    }
    if let discount = payment.paymentDiscount {
      options.offer = .promotional(discount.identifier)
      options.offerSignature = .v1(
        keyID: discount.keyIdentifier, nonce: discount.nonce.uuidString.lowercased(),
        timestamp: discount.timestamp.int64Value, signature: discount.signature)
    }
    if bundleID != PurchaseOptions.defaultBundleID { options.bundleID = bundleID }
    let command = Command.buy(productID: payment.productIdentifier, options: options)
    lock.withLock {
      queuePayment = payment
      defer { queuePayment = nil }
      let performed = perform(command)
      if let error = performed.error {
        paymentHub.change { $0.refuse(payment, SKError(refusal: error)) }
      }
    }
  }

  /// Restores completed transactions for the queue. With failing transactions on
  /// (`SKTestSession.failTransactionsEnabled`), the restore fails with the session's
  /// `failureError` and nothing is restored.
  func restore(through queue: SKPaymentQueue) {
    let failure = read { $0.settings.failTransactionsEnabled ? $0.settings.failureError : nil }
    if let failure {
      paymentHub.change { _ in [.restoreFailed(SKError(failure))] }
      return
    }
    perform(.restore)
  }

  /// Hands a batch of published events to the payment queue, if the app made one.
  func dispatchToPaymentQueue(_ events: [StoreEvent], storefrontChanged: Bool) {
    guard let hub = queueHub else { return }
    let payment = queuePayment
    hub.change { state in
      let news = state.receive(events, payment: payment) { id in
        self.withSession { $0.transaction(id)?.purchaseDate.date }
      }
      return news + (storefrontChanged ? [.storefrontChanged] : [])
    }
  }

  /// The available products of these identifiers, in the configuration's order.
  ///
  /// - Throws: ``StoreKitError`` (a simulated error of `loadProducts`).
  func products(_ identifiers: Set<String>) throws -> [Product] {
    try call(.loadProducts)
    let store = self
    return read { session in
      session.catalog.products.filter { $0.isAvailable && identifiers.contains($0.productID) }
        .map { Product($0, in: session, store: store) }
    }
  }
}

extension SKError {
  /// StoreKit 1's code for a payment the engine refused (every family named, so that a new one
  /// is a compile error here until it has its code; a new refusal gets its family's).
  init(refusal error: CommandError) {
    let code: Code =
      switch error.refusal {
      case nil: .unknown
      case .lookup(.noProduct)?:
        .storeProductNotAvailable
      case .purchase(.quantityOutOfRange)?, .purchase(.priceOverflow)?, .commerce?:
        .paymentInvalid
      case .purchase(.memberCannotBuy)?:
        .paymentNotAllowed
      case .lookup?, .purchase?, .refund?, .subscription?, .clock?, .call?, .bareSession?,
        .imported?, .customer?, .family?, .retention?, .seats?:
        .unknown
      }
    self.init(code, userInfo: [NSLocalizedDescriptionKey: error.description])
  }
}

extension Instant {
  /// The same moment as a `Date`.
  package var date: Date { Date(timeIntervalSince1970: Double(milliseconds) / 1000) }
}
