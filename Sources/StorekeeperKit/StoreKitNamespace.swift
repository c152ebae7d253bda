/// StoreKit's module name as a namespace: code that writes `StoreKit.Transaction` or
/// `StoreKit.Product` (to tell StoreKit's types from SwiftData's `Transaction` or its own) compiles
/// with `import StorekeeperKit`, each name the same type as the unqualified one. Every public
/// type StorekeeperKit declares is here (`StoreKitNamespaceTests` checks it).
public enum StoreKit {}

extension StoreKit {
  /// ``StorekeeperKit/AdvancedCommerceProduct``.
  public typealias AdvancedCommerceProduct = StorekeeperKit.AdvancedCommerceProduct
  /// ``StorekeeperKit/AppStore``.
  public typealias AppStore = StorekeeperKit.AppStore
  /// ``StorekeeperKit/AppTransaction``.
  public typealias AppTransaction = StorekeeperKit.AppTransaction
  /// ``StorekeeperKit/InvalidRequestError``.
  public typealias InvalidRequestError = StorekeeperKit.InvalidRequestError
  /// ``StorekeeperKit/Message``.
  public typealias Message = StorekeeperKit.Message
  /// ``StorekeeperKit/Product``.
  public typealias Product = StorekeeperKit.Product
  /// ``StorekeeperKit/PurchaseIntent``.
  public typealias PurchaseIntent = StorekeeperKit.PurchaseIntent
  /// ``StorekeeperKit/RedeemOption``.
  public typealias RedeemOption = StorekeeperKit.RedeemOption
  /// ``StorekeeperKit/SKDownload``.
  public typealias SKDownload = StorekeeperKit.SKDownload
  /// ``StorekeeperKit/SKError``.
  public typealias SKError = StorekeeperKit.SKError
  /// ``StorekeeperKit/SKMutablePayment``.
  public typealias SKMutablePayment = StorekeeperKit.SKMutablePayment
  /// ``StorekeeperKit/SKPayment``.
  public typealias SKPayment = StorekeeperKit.SKPayment
  /// ``StorekeeperKit/SKPaymentDiscount``.
  public typealias SKPaymentDiscount = StorekeeperKit.SKPaymentDiscount
  /// ``StorekeeperKit/SKPaymentQueue``.
  public typealias SKPaymentQueue = StorekeeperKit.SKPaymentQueue
  /// ``StorekeeperKit/SKPaymentQueueDelegate``.
  public typealias SKPaymentQueueDelegate = StorekeeperKit.SKPaymentQueueDelegate
  /// ``StorekeeperKit/SKPaymentTransaction``.
  public typealias SKPaymentTransaction = StorekeeperKit.SKPaymentTransaction
  /// ``StorekeeperKit/SKPaymentTransactionObserver``.
  public typealias SKPaymentTransactionObserver = StorekeeperKit.SKPaymentTransactionObserver
  /// ``StorekeeperKit/SKPaymentTransactionState``.
  public typealias SKPaymentTransactionState = StorekeeperKit.SKPaymentTransactionState
  /// ``StorekeeperKit/SKProduct``.
  public typealias SKProduct = StorekeeperKit.SKProduct
  /// ``StorekeeperKit/SKProductDiscount``.
  public typealias SKProductDiscount = StorekeeperKit.SKProductDiscount
  /// ``StorekeeperKit/SKProductSubscriptionPeriod``.
  public typealias SKProductSubscriptionPeriod = StorekeeperKit.SKProductSubscriptionPeriod
  /// ``StorekeeperKit/SKProductsRequest``.
  public typealias SKProductsRequest = StorekeeperKit.SKProductsRequest
  /// ``StorekeeperKit/SKProductsRequestDelegate``.
  public typealias SKProductsRequestDelegate = StorekeeperKit.SKProductsRequestDelegate
  /// ``StorekeeperKit/SKProductsResponse``.
  public typealias SKProductsResponse = StorekeeperKit.SKProductsResponse
  /// ``StorekeeperKit/SKReceiptRefreshRequest``.
  public typealias SKReceiptRefreshRequest = StorekeeperKit.SKReceiptRefreshRequest
  /// ``StorekeeperKit/SKRequest``.
  public typealias SKRequest = StorekeeperKit.SKRequest
  /// ``StorekeeperKit/SKRequestDelegate``.
  public typealias SKRequestDelegate = StorekeeperKit.SKRequestDelegate
  /// ``StorekeeperKit/SKStoreReviewController``.
  public typealias SKStoreReviewController = StorekeeperKit.SKStoreReviewController
  /// ``StorekeeperKit/SKStorefront``.
  public typealias SKStorefront = StorekeeperKit.SKStorefront
  /// ``StorekeeperKit/StoreKitError``.
  public typealias StoreKitError = StorekeeperKit.StoreKitError
  /// ``StorekeeperKit/StoreKitSignedValue``.
  public typealias StoreKitSignedValue = StorekeeperKit.StoreKitSignedValue
  /// ``StorekeeperKit/Storefront``.
  public typealias Storefront = StorekeeperKit.Storefront
  /// ``StorekeeperKit/SubscriptionInfo``.
  public typealias SubscriptionInfo = StorekeeperKit.SubscriptionInfo
  /// ``StorekeeperKit/SubscriptionPeriod``.
  public typealias SubscriptionPeriod = StorekeeperKit.SubscriptionPeriod
  /// ``StorekeeperKit/SubscriptionPeriodFormatStyle``.
  public typealias SubscriptionPeriodFormatStyle = StorekeeperKit.SubscriptionPeriodFormatStyle
  /// ``StorekeeperKit/SubscriptionRenewalInfo``.
  public typealias SubscriptionRenewalInfo = StorekeeperKit.SubscriptionRenewalInfo
  /// ``StorekeeperKit/SubscriptionRenewalState``.
  public typealias SubscriptionRenewalState = StorekeeperKit.SubscriptionRenewalState
  /// ``StorekeeperKit/SubscriptionStatus``.
  public typealias SubscriptionStatus = StorekeeperKit.SubscriptionStatus
  /// ``StorekeeperKit/Transaction``.
  public typealias Transaction = StorekeeperKit.Transaction
  /// ``StorekeeperKit/VerificationResult``.
  public typealias VerificationResult<SignedType> = StorekeeperKit.VerificationResult<SignedType>
}
