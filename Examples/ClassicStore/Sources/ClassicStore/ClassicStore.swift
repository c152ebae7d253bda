#if canImport(StoreKit)
  import StoreKit
#else
  import StorekeeperKit
#endif

/// A store written against StoreKit 1 the way apps written before StoreKit 2 write one: it
/// observes the payment queue from launch, asks for products with a products request, adds
/// payments, delivers what is purchased or restored and finishes every transaction, and keeps
/// what is waiting for a parent's approval. Every callback arrives on the main queue, where the
/// store's state lives (`@unchecked Sendable` for that reason, as an app's store class is).
public final class ClassicStore: NSObject, SKPaymentTransactionObserver, SKProductsRequestDelegate,
  @unchecked Sendable
{
  /// The products the App Store answered with, by identifier.
  public private(set) var products: [String: SKProduct] = [:]
  /// The identifiers the App Store did not know.
  public private(set) var invalidIdentifiers: [String] = []
  /// What the customer owns: delivered purchases and restores, by product.
  public private(set) var owned: Set<String> = []
  /// How many of each consumable were delivered.
  public private(set) var consumed: [String: Int] = [:]
  /// Payments waiting for a parent's approval (Ask to Buy), by product.
  public private(set) var awaitingApproval: Set<String> = []
  /// The last payment that failed, and why (a cancelled one is not a failure).
  public private(set) var lastFailure: (productID: String, error: any Error)?
  /// Called on the main queue after every change.
  public var onChange: (() -> Void)?
  /// Called when a restore finished (`nil`) or failed.
  public var onRestore: (((any Error)?) -> Void)?

  private let queue: SKPaymentQueue
  /// The app's consumables (StoreKit 1 does not say a product's type; the app knows its own).
  private let consumables: Set<String>
  private var request: SKProductsRequest?
  private var productsLoaded: ((Result<[SKProduct], any Error>) -> Void)?

  /// A store observing `queue` from now on (an app makes it at launch), which delivers the
  /// products in `consumables` by count.
  public init(queue: SKPaymentQueue = .default(), consumables: Set<String> = []) {
    self.queue = queue
    self.consumables = consumables
    super.init()
    queue.add(self)
  }

  /// Stops observing the queue.
  public func stop() { queue.remove(self) }

  /// Asks the App Store for products; `completion` runs on the main queue.
  public func requestProducts(
    _ identifiers: Set<String>, completion: @escaping (Result<[SKProduct], any Error>) -> Void
  ) {
    productsLoaded = completion
    let request = SKProductsRequest(productIdentifiers: identifiers)
    request.delegate = self
    self.request = request
    request.start()
  }

  /// Whether the customer may pay at all.
  public var canMakePayments: Bool { SKPaymentQueue.canMakePayments() }

  /// Buys a product (a quantity for a consumable), for an account of the app.
  public func buy(_ product: SKProduct, quantity: Int = 1, username: String? = nil) {
    let payment = SKMutablePayment(product: product)
    payment.quantity = quantity
    payment.applicationUsername = username
    queue.add(payment)
  }

  /// Buys a subscription with a promotional offer the app's server signed.
  public func buy(_ product: SKProduct, discount: SKPaymentDiscount, username: String) {
    let payment = SKMutablePayment(product: product)
    payment.paymentDiscount = discount
    payment.applicationUsername = username
    queue.add(payment)
  }

  /// Restores the customer's purchases (a "Restore Purchases" button).
  public func restorePurchases() { queue.restoreCompletedTransactions() }

  // MARK: SKPaymentTransactionObserver

  public func paymentQueue(
    _ queue: SKPaymentQueue, updatedTransactions transactions: [SKPaymentTransaction]
  ) {
    for transaction in transactions {
      let productID = transaction.payment.productIdentifier
      switch transaction.transactionState {
      case .purchasing:
        break
      case .purchased, .restored:
        deliver(productID, quantity: transaction.payment.quantity)
        awaitingApproval.remove(productID)
        queue.finishTransaction(transaction)
      case .deferred:
        awaitingApproval.insert(productID)
      case .failed:
        if let error = transaction.error as? SKError, error.code == .paymentCancelled {
          lastFailure = nil
        } else if let error = transaction.error {
          lastFailure = (productID, error)
        }
        queue.finishTransaction(transaction)
      @unknown default:
        break
      }
    }
    onChange?()
  }

  public func paymentQueueRestoreCompletedTransactionsFinished(_ queue: SKPaymentQueue) {
    onRestore?(nil)
  }

  public func paymentQueue(
    _ queue: SKPaymentQueue, restoreCompletedTransactionsFailedWithError error: any Error
  ) {
    onRestore?(error)
  }

  public func paymentQueue(
    _ queue: SKPaymentQueue,
    didRevokeEntitlementsForProductIdentifiers productIdentifiers: [String]
  ) {
    owned.subtract(productIdentifiers)
    onChange?()
  }

  private func deliver(_ productID: String, quantity: Int) {
    if consumables.contains(productID) {
      consumed[productID, default: 0] += quantity
    } else {
      owned.insert(productID)
    }
  }

  // MARK: SKProductsRequestDelegate

  public func productsRequest(
    _ request: SKProductsRequest, didReceive response: SKProductsResponse
  ) {
    for product in response.products { products[product.productIdentifier] = product }
    invalidIdentifiers = response.invalidProductIdentifiers
    productsLoaded?(.success(response.products))
    productsLoaded = nil
  }

  public func request(_ request: SKRequest, didFailWithError error: any Error) {
    productsLoaded?(.failure(error))
    productsLoaded = nil
  }
}
