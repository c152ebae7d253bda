/// What the payment queue tells the app (StoreKit's `SKPaymentTransactionObserver`): every
/// method but ``paymentQueue(_:updatedTransactions:)`` is optional, as in Objective-C (a
/// default that does nothing). The queue calls observers on the main queue, in the order
/// things happened.
public protocol SKPaymentTransactionObserver: AnyObject {
  /// Transactions changed state: deliver what is `purchased` or `restored`, then finish it;
  /// finish what `failed`; wait on what is `purchasing` or `deferred`.
  func paymentQueue(
    _ queue: SKPaymentQueue, updatedTransactions transactions: [SKPaymentTransaction])
  /// Finished transactions left the queue.
  func paymentQueue(
    _ queue: SKPaymentQueue, removedTransactions transactions: [SKPaymentTransaction])
  /// Restoring failed.
  func paymentQueue(
    _ queue: SKPaymentQueue, restoreCompletedTransactionsFailedWithError error: any Error)
  /// Every restorable transaction was delivered `restored`.
  func paymentQueueRestoreCompletedTransactionsFinished(_ queue: SKPaymentQueue)
  /// Hosted content changed (never: no content is hosted).
  func paymentQueue(_ queue: SKPaymentQueue, updatedDownloads downloads: [SKDownload])
  /// The customer started a promoted purchase on the App Store: `true` adds the payment now;
  /// `false` leaves it to the app (the default, as when the method is not implemented).
  func paymentQueue(
    _ queue: SKPaymentQueue, shouldAddStorePayment payment: SKPayment, for product: SKProduct
  ) -> Bool
  /// The storefront changed.
  func paymentQueueDidChangeStorefront(_ queue: SKPaymentQueue)
  /// The customer lost these products (a refund, a family member's share revoked).
  func paymentQueue(
    _ queue: SKPaymentQueue,
    didRevokeEntitlementsForProductIdentifiers productIdentifiers: [String])
}

extension SKPaymentTransactionObserver {
  /// Nothing, unless the observer says otherwise.
  public func paymentQueue(
    _ queue: SKPaymentQueue, removedTransactions transactions: [SKPaymentTransaction]
  ) {}
  /// Nothing, unless the observer says otherwise.
  public func paymentQueue(
    _ queue: SKPaymentQueue, restoreCompletedTransactionsFailedWithError error: any Error
  ) {}
  /// Nothing, unless the observer says otherwise.
  public func paymentQueueRestoreCompletedTransactionsFinished(_ queue: SKPaymentQueue) {}
  /// Nothing, unless the observer says otherwise.
  public func paymentQueue(_ queue: SKPaymentQueue, updatedDownloads downloads: [SKDownload]) {}
  /// `false`, unless the observer says otherwise.
  public func paymentQueue(
    _ queue: SKPaymentQueue, shouldAddStorePayment payment: SKPayment, for product: SKProduct
  ) -> Bool { false }
  /// Nothing, unless the observer says otherwise.
  public func paymentQueueDidChangeStorefront(_ queue: SKPaymentQueue) {}
  /// Nothing, unless the observer says otherwise.
  public func paymentQueue(
    _ queue: SKPaymentQueue,
    didRevokeEntitlementsForProductIdentifiers productIdentifiers: [String]
  ) {}
}

/// What the payment queue asks the app (StoreKit's `SKPaymentQueueDelegate`); both optional.
public protocol SKPaymentQueueDelegate: AnyObject {
  /// Whether a transaction continues after the storefront changed (default `true`).
  func paymentQueue(
    _ paymentQueue: SKPaymentQueue, shouldContinue transaction: SKPaymentTransaction,
    in newStorefront: SKStorefront
  ) -> Bool
  /// Whether the price-increase consent sheet shows now (default `true`).
  func paymentQueueShouldShowPriceConsent(_ paymentQueue: SKPaymentQueue) -> Bool
}

extension SKPaymentQueueDelegate {
  /// `true`, unless the delegate says otherwise.
  public func paymentQueue(
    _ paymentQueue: SKPaymentQueue, shouldContinue transaction: SKPaymentTransaction,
    in newStorefront: SKStorefront
  ) -> Bool { true }
  /// `true`, unless the delegate says otherwise.
  public func paymentQueueShouldShowPriceConsent(_ paymentQueue: SKPaymentQueue) -> Bool { true }
}
