import Foundation

#if canImport(StoreKit)
  import StoreKit
#else
  import StorekeeperKit
#endif

/// Why the store could not accept a transaction.
public enum StoreError: Error {
  /// The App Store's signature did not verify.
  case failedVerification
}

/// The food truck's store, as Apple's sample code writes one: it loads the products, buys them,
/// listens to `Transaction.updates` from the start, and keeps what the customer is entitled to
/// from `Transaction.currentEntitlements`.
@MainActor
public final class Store {
  /// The products for sale, by kind, cheapest first.
  public private(set) var consumables: [Product] = []
  /// Bought once, kept.
  public private(set) var nonConsumables: [Product] = []
  /// Auto-renewable subscriptions.
  public private(set) var subscriptions: [Product] = []

  /// The non-consumables the customer owns.
  public private(set) var purchasedNonConsumables: [Product] = []
  /// The subscriptions the customer is entitled to now.
  public private(set) var purchasedSubscriptions: [Product] = []
  /// The state of the customer's subscription, if any.
  public private(set) var subscriptionGroupStatus: Product.SubscriptionInfo.RenewalState?
  /// Boxes of donuts bought (consumables are counted when delivered).
  public private(set) var donutBoxes = 0
  /// Transactions the App Store refunded, with why.
  public private(set) var revocations: [UInt64: Transaction.RevocationReason] = [:]
  /// Unverified transactions the store refused.
  public private(set) var refusedTransactions = 0

  private let productIDs: [String]
  private var updates: Task<Void, Never>?

  /// A store for these products; it starts listening to `Transaction.updates` at once.
  public init(productIDs: [String]) {
    self.productIDs = productIDs
    updates = listenForTransactions()
  }

  /// Loads the products.
  public func requestProducts() async throws {
    let products = try await Product.products(for: productIDs)
    consumables = products.filter { $0.type == .consumable }.sorted { $0.price < $1.price }
    nonConsumables = products.filter { $0.type == .nonConsumable }.sorted { $0.price < $1.price }
    subscriptions = products.filter { $0.type == .autoRenewable }.sorted { $0.price < $1.price }
  }

  /// Buys a product: the transaction when it went through (delivered and finished), `nil` when
  /// the customer cancelled or it waits (Ask to Buy, an interruption).
  @discardableResult
  public func purchase(_ product: Product) async throws -> Transaction? {
    switch try await product.purchase() {
    case .success(let verification):
      let transaction = try checkVerified(verification)
      await deliver(transaction)
      await transaction.finish()
      return transaction
    case .userCancelled, .pending:
      return nil
    @unknown default:
      return nil
    }
  }

  /// Whether the customer owns a product now.
  public func isPurchased(_ product: Product) -> Bool {
    switch product.type {
    case .nonConsumable: purchasedNonConsumables.contains(product)
    case .autoRenewable: purchasedSubscriptions.contains(product)
    default: false
    }
  }

  /// Reads the customer's entitlements and the subscription's status again.
  public func updateCustomerProductStatus() async {
    var nonConsumables: [Product] = []
    var subscriptions: [Product] = []
    for await result in Transaction.currentEntitlements {
      guard let transaction = try? checkVerified(result) else { continue }
      switch transaction.productType {
      case .nonConsumable:
        if let product = self.nonConsumables.first(where: { $0.id == transaction.productID }) {
          nonConsumables.append(product)
        }
      case .autoRenewable:
        if let product = self.subscriptions.first(where: { $0.id == transaction.productID }) {
          subscriptions.append(product)
        }
      default: break
      }
    }
    purchasedNonConsumables = nonConsumables
    purchasedSubscriptions = subscriptions
    subscriptionGroupStatus = try? await self.subscriptions.first?.subscription?.status.first?.state
  }

  /// The value of a verified result; unverified, the store refuses it.
  public func checkVerified<T>(_ result: VerificationResult<T>) throws -> T {
    switch result {
    case .unverified:
      refusedTransactions += 1
      throw StoreError.failedVerification
    case .verified(let value):
      return value
    }
  }

  private func deliver(_ transaction: Transaction) async {
    if let reason = transaction.revocationReason, transaction.revocationDate != nil {
      revocations[transaction.id] = reason
    } else if transaction.productType == .consumable {
      donutBoxes += transaction.purchasedQuantity
    }
    await updateCustomerProductStatus()
  }

  private func listenForTransactions() -> Task<Void, Never> {
    let updates = Transaction.updates
    return Task { [weak self] in
      for await result in updates {
        guard let self, let transaction = try? self.checkVerified(result) else { continue }
        await self.deliver(transaction)
        await transaction.finish()
      }
    }
  }
}
