import Foundation
internal import StoreCommands
internal import StoreJSON
internal import StoreSigning
package import StoreSimulation

/// What the app sees of the store: values signed and verified as StoreKit hands them over, the
/// errors StoreKit throws, the calls the app makes.
extension Store {
  /// A transaction as the app receives it: signed now, verified against the store's
  /// certificate, or unverified with the error the test chose. Called under the lock.
  func verified(_ transaction: StoreSimulation.Transaction) -> VerificationResult<Transaction> {
    let jws = signed("transaction \(transaction.id)") {
      $0.transactionPayload(transaction, signedDate: sessionNow)
    }
    let value = Transaction(jws: jws, store: self)
    if case .verification(let code)? = transaction.verificationError {
      return .unverified(value, VerificationResult<Transaction>.VerificationError(code))
    }
    return verifies(jws) ? .verified(value) : .unverified(value, .invalidSignature)
  }

  /// A subscription status as the app receives it.
  func status(_ status: StoreSimulation.SubscriptionStatus) -> Product.SubscriptionInfo.Status {
    let transaction = withSession { $0.transaction(status.transactionID) }
    let jws = signed("the renewal info of \(status.groupID)") {
      $0.renewalPayload(status, signedDate: sessionNow)
    }
    let renewal = Product.SubscriptionInfo.RenewalInfo(jws: jws)
    let state: Product.SubscriptionInfo.RenewalState =
      switch status.state {
      case .subscribed: .subscribed
      case .expired: .expired
      case .inBillingRetryPeriod: .inBillingRetryPeriod
      case .inGracePeriod: .inGracePeriod
      case .revoked: .revoked
      }
    let unverified = transaction?.verificationError
    return Product.SubscriptionInfo.Status(
      state: state,
      transaction: transaction.map(verified)
        ?? .unverified(Transaction(jws: "", store: self), .missingRequiredProperties),
      renewalInfo: unverified.flatMap {
        if case .verification(let code) = $0 {
          .unverified(renewal, VerificationResult<SubscriptionRenewalInfo>.VerificationError(code))
        } else {
          nil
        }
      } ?? (verifies(jws) ? .verified(renewal) : .unverified(renewal, .invalidSignature)))
  }

  /// The app transaction, signed now and verified.
  func appTransaction() -> VerificationResult<AppTransaction> {
    let jws = signed("the app transaction") {
      $0.appTransactionPayload(signedDate: sessionNow, account: account)
    }
    let value = AppTransaction(jws: jws)
    return verifies(jws) ? .verified(value) : .unverified(value, .invalidSignature)
  }

  /// A value's JWS, signed now. Signing does not fail with the store's own key; if it did, the
  /// value is handed over unsigned (its fields readable, `.unverified` with `invalidSignature`:
  /// never an empty JWS) and the cause is written to standard error.
  private func signed(_ what: String, _ payload: (Signer) -> JSONValue) -> String {
    let value = payload(signer)
    do {
      return try signer.sign(payload: value)
    } catch {
      FileHandle.standardError.write(
        Data(
          "StorekeeperKit: \(what) could not be signed (\(error)): the app gets it unsigned\n".utf8)
      )
      return signer.unsigned(payload: value)
    }
  }

  /// Whether a JWS verifies with the store's certificate (its `x5c[0]` is ours, and its
  /// signature checks out with it).
  func verifies(_ jws: String) -> Bool {
    guard let decoded = try? JWS.decode(jws), decoded.signatureIsValid,
      case .object(let header) = decoded.header, case .array(let chain)? = header["x5c"],
      case .string(let first)? = chain.first
    else { return false }
    return first == certificate
  }

  /// The app calls a StoreKit API (`Product.products(for:)`, `AppStore.sync()` …): the call is
  /// journaled as `call <api>`, and a simulated error for it is thrown as StoreKit throws it.
  func call(_ api: StoreKitAPI, transaction: UInt64? = nil) throws {
    let performed = perform(.call(api, transaction.map { .id($0) }, reason: nil))
    if let error = performed.error { throw StoreKitError.systemError(error) }
    for case .apiCall(_, let error?, _) in performed.replies.lazy.map(\.kind) {
      throw error.storeKitError
    }
  }

  /// The app finishes a transaction (nothing when it is finished already).
  func finish(_ id: UInt64) {
    let finished = withSession { $0.transaction(id)?.isFinished ?? true }
    guard !finished else { return }
    perform(.finish(.id(id)))
  }
}

extension VerificationResult.VerificationError {
  /// The error of the engine's code.
  package init(_ code: VerificationErrorCode) {
    self =
      switch code {
      case .revokedCertificate: .revokedCertificate
      case .invalidCertificateChain: .invalidCertificateChain
      case .invalidDeviceVerification: .invalidDeviceVerification
      case .invalidEncoding: .invalidEncoding
      case .invalidSignature: .invalidSignature
      case .missingRequiredProperties: .missingRequiredProperties
      }
  }
}

extension SimulatedError {
  /// The error StoreKit throws for it, of the type StoreKit's API throws.
  package var storeKitError: any Error {
    switch self {
    case .generic(let code):
      switch code {
      case .unknown: StoreKitError.unknown
      case .userCancelled: StoreKitError.userCancelled
      case .networkError: StoreKitError.networkError(URLError(.notConnectedToInternet))
      case .systemError:
        StoreKitError.systemError(
          NSError(
            domain: "StorekeeperKit", code: 1,
            userInfo: [
              NSLocalizedDescriptionKey: "a simulated system error"
            ]))
      case .notAvailableInStorefront: StoreKitError.notAvailableInStorefront
      case .notEntitled: StoreKitError.notEntitled
      case .unsupported: StoreKitError.unsupported
      }
    case .purchase(let code):
      switch code {
      case .invalidQuantity: Product.PurchaseError.invalidQuantity
      case .productUnavailable: Product.PurchaseError.productUnavailable
      case .purchaseNotAllowed: Product.PurchaseError.purchaseNotAllowed
      case .ineligibleForOffer: Product.PurchaseError.ineligibleForOffer
      case .invalidOfferIdentifier: Product.PurchaseError.invalidOfferIdentifier
      case .invalidOfferPrice: Product.PurchaseError.invalidOfferPrice
      case .invalidOfferSignature: Product.PurchaseError.invalidOfferSignature
      case .missingOfferParameters: Product.PurchaseError.missingOfferParameters
      case .paymentMethodBindingConfigurationRequired:
        Product.PurchaseError.paymentMethodBindingConfigurationRequired
      }
    case .verification(let code): VerificationResult<Transaction>.VerificationError(code)
    case .refundRequest(let code):
      code == .duplicateRequest
        ? Transaction.RefundRequestError.duplicateRequest : Transaction.RefundRequestError.failed
    }
  }
}
