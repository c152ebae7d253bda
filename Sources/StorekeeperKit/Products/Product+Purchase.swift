import Foundation
package import StoreCommands
package import StoreSimulation

extension Product {
  /// Buys the product as the app does (`buy` in the command language): the result StoreKit
  /// returns, with Ask to Buy, interruptions and simulated errors as the session sets them.
  /// There is no payment sheet on Linux: the customer confirms at once (the equivalent of
  /// `purchase(confirmIn:options:)` too).
  ///
  /// - Throws: `Product.PurchaseError` or ``StoreKitError`` as StoreKit throws them.
  @MainActor
  public func purchase(options: Set<PurchaseOption> = []) async throws -> PurchaseResult {
    let store = self.store ?? Store.current
    return try store.purchase(id, options: options, origin: .app)
  }
}

extension Store {
  /// A purchase through the host; what StoreKit returns of it. A purchase the engine refuses
  /// throws `refused`'s error: by default StoreKit's nearest (the Transaction Manager's is
  /// StoreKitTest's).
  package func purchase(
    _ productID: String, options: Set<Product.PurchaseOption>, origin: PurchaseOrigin,
    advancedCommerce: String? = nil, refused: (CommandError) -> any Error = \.purchaseError
  ) throws -> Product.PurchaseResult {
    var purchase = PurchaseOptions.from(options)
    purchase.origin = origin
    purchase.advancedCommerce = advancedCommerce.map(SignedCommerceRequest.init(compactJWS:))
    if bundleID != PurchaseOptions.defaultBundleID { purchase.bundleID = bundleID }
    let performed = perform(.buy(productID: productID, options: purchase))
    if let error = performed.error { throw refused(error) }
    var bought: StoreSimulation.Transaction?
    for event in performed.replies {
      switch event.kind {
      case .transaction(let transaction, .purchaseResult?): bought = transaction
      case .purchaseResult(let result):
        switch result.outcome {
        case .success:
          guard let bought else { throw StoreKitError.unknown }
          return .success(withSession { _ in verified(bought) })
        case .pending: return .pending
        case .userCancelled: return .userCancelled
        case .failed: throw result.error?.storeKitError ?? StoreKitError.unknown
        }
      default: break
      }
    }
    // Bought outside the app: the transaction went to `Transaction.updates`.
    guard let bought = performed.lastTransaction else {
      throw StoreKitError.unknown
    }
    return .success(withSession { _ in verified(bought) })
  }
}

extension StoreEvent {
  /// The transaction of a transaction event.
  var transaction: StoreSimulation.Transaction? {
    if case .transaction(let transaction, _) = kind { transaction } else { nil }
  }
}

extension CommandError {
  /// The error StoreKit throws for a purchase the engine refused.
  var purchaseError: any Error {
    // Every family named, so that a new family is a compile error here until it has its error;
    // a new refusal gets its family's unless it is named.
    switch refusal {
    case nil: StoreKitError.systemError(self)
    case .seats(let refusal)?:
      switch refusal.rule {
      case .notSubscription, .multiSeatDisabled: Product.PurchaseError.multiSeatPurchaseDisabled
      case .reductionNotAllowed: Product.PurchaseError.seatReductionNotAllowed
      case .invalidCount: Product.PurchaseError.invalidQuantity
      case .notDeveloperManaged, .notMultiSeat, .noAvailableSeats, .claimNotFound,
        .appTransactionNotFound, .unchanged, .notSimulated, .notAppleManaged, .memberNotFound,
        .alreadySubscribed, .assignedSeat, .purchaserNotSubscribed:
        StoreKitError.systemError(self)
      }
    case .commerce(let refusal)?:
      refusal.rule == .productNotEligible
        ? StoreKitError.unsupported : InvalidRequestError(refusal)
    case .lookup(.noProduct)?, .purchase(.introJWSNeedsSubscription)?,
      .purchase(.offerOnOneTimeProduct)?, .subscription(.notAutoRenewable)?,
      .subscription(.productNotAutoRenewable)?, .family(.kindNotShared)?,
      .family(.notFamilyShareable)?:
      Product.PurchaseError.productUnavailable
    case .lookup?, .purchase?, .refund?, .subscription?, .clock?, .call?, .bareSession?,
      .imported?, .customer?, .family?, .retention?:
      StoreKitError.systemError(self)
    }
  }
}

extension PurchaseOptions {
  /// The engine's options for StoreKit's: quantity, account token, offers (signed or, in
  /// tests, by id), back-dating.
  static func from(_ options: Set<Product.PurchaseOption>) -> PurchaseOptions {
    var purchase = PurchaseOptions()
    var custom: [String: Product.PurchaseOption.Value] = [:]
    for option in options { custom[option.key] = option.value }
    if case .number(let quantity)? = custom["quantity"] { purchase.quantity = Int(quantity) }
    if case .number(let seats)? = custom["seats"] { purchase.seats = Int(seats) }
    if case .string(let token)? = custom["appAccountToken"] {
      purchase.appAccountToken = token.lowercased()
    }
    if case .string(let id)? = custom["promotionalOfferId"] { purchase.offer = .promotional(id) }
    if case .string(let reference)? = custom["codeOffer"] { purchase.offer = .code(reference) }
    if case .string(let id)? = custom["winBackOfferId"] { purchase.offer = .winBack(id) }
    if case .string(let plan)? = custom["billingPlanType"] { purchase.billingPlan = plan }
    if case .string(let fields)? = custom["promotionalOfferV1"] {
      let parts = fields.split(separator: "\n", omittingEmptySubsequences: false).map(String.init)
      if parts.count == 5 {
        purchase.offer = .promotional(parts[0])
        purchase.offerSignature = .v1(
          keyID: parts[1], nonce: parts[2].lowercased(), timestamp: Int64(parts[4]) ?? 0,
          signature: parts[3])
      }
    }
    if case .string(let id)? = custom["adHocOfferId"] {
      purchase.offer = .promotional(id)
      if case .string(let base64)? = custom["adHocSignature"],
        let jws = Data(base64Encoded: base64).map({ String(decoding: $0, as: UTF8.self) })
      {
        purchase.offerSignature = .jws(jws)
      }
    }
    if case .string(let jws)? = custom["introOfferEligibilityParam"] {
      purchase.introductoryEligibility = jws
    }
    if case .backdated(let date, let renews)? = custom["purchaseDate"] {
      purchase.purchaseDate = Instant(milliseconds: Int64(date.timeIntervalSince1970 * 1000))
      purchase.renewal = renews ? .automatic : .once
    }
    return purchase
  }
}
