/// StoreKitTest's module name as a namespace: `StoreKitTest.SKTestSession` compiles with
/// `import StorekeeperKitTest`, each name the same type as the unqualified one. Every public type
/// StorekeeperKitTest declares is here (`StoreKitNamespaceTests` checks it).
public enum StoreKitTest {}

extension StoreKitTest {
  /// ``StorekeeperKitTest/FailableStoreKitAPI``.
  public typealias FailableStoreKitAPI = StorekeeperKitTest.FailableStoreKitAPI
  /// ``StorekeeperKitTest/GenericFailure``.
  public typealias GenericFailure = StorekeeperKitTest.GenericFailure
  /// ``StorekeeperKitTest/SKTestError``.
  public typealias SKTestError = StorekeeperKitTest.SKTestError
  /// ``StorekeeperKitTest/SKTestFailure``.
  public typealias SKTestFailure = StorekeeperKitTest.SKTestFailure
  /// ``StorekeeperKitTest/SKTestFailures``.
  public typealias SKTestFailures = StorekeeperKitTest.SKTestFailures
  /// ``StorekeeperKitTest/SKTestSession``.
  public typealias SKTestSession = StorekeeperKitTest.SKTestSession
  /// ``StorekeeperKitTest/SKTestTransaction``.
  public typealias SKTestTransaction = StorekeeperKitTest.SKTestTransaction
  /// ``StorekeeperKitTest/StoreKitAppStoreSyncAPI``.
  public typealias StoreKitAppStoreSyncAPI = StorekeeperKitTest.StoreKitAppStoreSyncAPI
  /// ``StorekeeperKitTest/StoreKitAppTransactionAPI``.
  public typealias StoreKitAppTransactionAPI = StorekeeperKitTest.StoreKitAppTransactionAPI
  /// ``StorekeeperKitTest/StoreKitLoadProductsAPI``.
  public typealias StoreKitLoadProductsAPI = StorekeeperKitTest.StoreKitLoadProductsAPI
  /// ``StorekeeperKitTest/StoreKitManageSubscriptionsAPI``.
  public typealias StoreKitManageSubscriptionsAPI = StorekeeperKitTest
    .StoreKitManageSubscriptionsAPI
  /// ``StorekeeperKitTest/StoreKitOfferCodeRedeemAPI``.
  public typealias StoreKitOfferCodeRedeemAPI = StorekeeperKitTest.StoreKitOfferCodeRedeemAPI
  /// ``StorekeeperKitTest/StoreKitPurchaseAPI``.
  public typealias StoreKitPurchaseAPI = StorekeeperKitTest.StoreKitPurchaseAPI
  /// ``StorekeeperKitTest/StoreKitRefundRequestAPI``.
  public typealias StoreKitRefundRequestAPI = StorekeeperKitTest.StoreKitRefundRequestAPI
  /// ``StorekeeperKitTest/StoreKitSubscriptionStatusAPI``.
  public typealias StoreKitSubscriptionStatusAPI = StorekeeperKitTest.StoreKitSubscriptionStatusAPI
  /// ``StorekeeperKitTest/StoreKitVerificationAPI``.
  public typealias StoreKitVerificationAPI = StorekeeperKitTest.StoreKitVerificationAPI
}
