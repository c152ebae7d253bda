internal import StoreCommands
internal import StoreSimulation
internal import StorekeeperKit

/// `Product.products(for:)`.
public struct StoreKitLoadProductsAPI: FailableStoreKitAPI {
  /// Its failures.
  public typealias Failure = SKTestFailures.LoadProducts
  /// The API.
  public init() {}
}
/// `Product.purchase(options:)`.
public struct StoreKitPurchaseAPI: FailableStoreKitAPI {
  /// Its failures.
  public typealias Failure = SKTestFailures.Purchase
  /// The API.
  public init() {}
}
/// Verifying what StoreKit hands the app.
public struct StoreKitVerificationAPI: FailableStoreKitAPI {
  /// Its failures.
  public typealias Failure = SKTestFailures.Verification
  /// The API.
  public init() {}
}
/// `AppStore.sync()`.
public struct StoreKitAppStoreSyncAPI: FailableStoreKitAPI {
  /// Its failures.
  public typealias Failure = SKTestFailures.AppStoreSync
  /// The API.
  public init() {}
}
/// `Product.SubscriptionInfo.status(for:)`.
public struct StoreKitSubscriptionStatusAPI: FailableStoreKitAPI {
  /// Its failures.
  public typealias Failure = SKTestFailures.SubscriptionStatus
  /// The API.
  public init() {}
}
/// `AppTransaction.shared`.
public struct StoreKitAppTransactionAPI: FailableStoreKitAPI {
  /// Its failures.
  public typealias Failure = SKTestFailures.AppTransaction
  /// The API.
  public init() {}
}
/// `AppStore.showManageSubscriptions`.
public struct StoreKitManageSubscriptionsAPI: FailableStoreKitAPI {
  /// Its failures.
  public typealias Failure = SKTestFailures.ManageSubscriptions
  /// The API.
  public init() {}
}
/// `Transaction.beginRefundRequest`.
public struct StoreKitRefundRequestAPI: FailableStoreKitAPI {
  /// Its failures.
  public typealias Failure = SKTestFailures.RefundRequest
  /// The API.
  public init() {}
}
/// `AppStore.presentOfferCodeRedeemSheet`.
public struct StoreKitOfferCodeRedeemAPI: FailableStoreKitAPI {
  /// Its failures.
  public typealias Failure = SKTestFailures.OfferCodeRedeem
  /// The API.
  public init() {}
}

extension FailableStoreKitAPI where Self == StoreKitLoadProductsAPI {
  /// `Product.products(for:)`.
  public static var loadProducts: StoreKitLoadProductsAPI { .init() }
}
extension FailableStoreKitAPI where Self == StoreKitPurchaseAPI {
  /// `Product.purchase(options:)`.
  public static var purchase: StoreKitPurchaseAPI { .init() }
}
extension FailableStoreKitAPI where Self == StoreKitVerificationAPI {
  /// Verifying a transaction's or app transaction's signature.
  public static var verification: StoreKitVerificationAPI { .init() }
}
extension FailableStoreKitAPI where Self == StoreKitAppStoreSyncAPI {
  /// `AppStore.sync()`.
  public static var appStoreSync: StoreKitAppStoreSyncAPI { .init() }
}
extension FailableStoreKitAPI where Self == StoreKitSubscriptionStatusAPI {
  /// `Product.SubscriptionInfo.status(for:)`.
  public static var subscriptionStatus: StoreKitSubscriptionStatusAPI { .init() }
}
extension FailableStoreKitAPI where Self == StoreKitAppTransactionAPI {
  /// `AppTransaction.shared`.
  public static var appTransaction: StoreKitAppTransactionAPI { .init() }
}
extension FailableStoreKitAPI where Self == StoreKitManageSubscriptionsAPI {
  /// `AppStore.showManageSubscriptions`.
  public static var manageSubscriptions: StoreKitManageSubscriptionsAPI { .init() }
}
extension FailableStoreKitAPI where Self == StoreKitRefundRequestAPI {
  /// `Transaction.beginRefundRequest`.
  public static var refundRequest: StoreKitRefundRequestAPI { .init() }
}
extension FailableStoreKitAPI where Self == StoreKitOfferCodeRedeemAPI {
  /// `AppStore.presentOfferCodeRedeemSheet`.
  public static var offerCodeRedeem: StoreKitOfferCodeRedeemAPI { .init() }
}

extension SKTestSession {
  /// Makes an API fail with `error` from now on (`nil`: succeed again), as
  /// `set error <api> <error>` does.
  public func setSimulatedError<API>(
    _ error: API.Failure?, forAPI api: API
  ) async throws where API: FailableStoreKitAPI {
    store.perform(.set(.simulatedError(Self.engineAPI(api), error?._errorCode.error)))
  }

  /// The error an API fails with now, if any.
  public func simulatedError<API>(
    forAPI api: API
  ) async -> API.Failure? where API: FailableStoreKitAPI {
    let error = store.read { $0.settings.simulatedErrors[Self.engineAPI(api)] }
    return error.flatMap { API.Failure(_fromErrorCode: _SKTestFailureCode(error: $0)) }
  }

  /// The engine's name of an API.
  static func engineAPI(_ api: some FailableStoreKitAPI) -> StoreKitAPI {
    switch api {
    case is StoreKitLoadProductsAPI: .loadProducts
    case is StoreKitPurchaseAPI: .purchase
    case is StoreKitVerificationAPI: .verification
    case is StoreKitAppStoreSyncAPI: .appStoreSync
    case is StoreKitSubscriptionStatusAPI: .subscriptionStatus
    case is StoreKitAppTransactionAPI: .appTransaction
    case is StoreKitManageSubscriptionsAPI: .manageSubscriptions
    case is StoreKitRefundRequestAPI: .refundRequest
    default: .offerCodeRedeem
    }
  }
}
