/// What an app receipt lists at a moment (StoreKit 1's `Bundle.main.appStoreReceiptURL`, and
/// the per-transaction receipt of an `SKPaymentTransaction`), as the engine decides it; a
/// signing adapter turns it into Apple's PKCS#7 receipt.
///
/// Apple's rules ("Receipt Fields", `in_app`): a consumable is listed until the app finishes
/// it; non-consumables, non-renewing and auto-renewable subscriptions are always listed,
/// refunded ones with their cancellation date. Transactions that are not paid (pending Ask to
/// Buy, failed) and deleted ones are not listed.
public struct ReceiptContents: Equatable, Sendable {
  /// When the receipt was made (type 12).
  public var creationDate: Instant
  /// The in-app purchase records (type 17), oldest first.
  public var purchases: [Transaction]
  /// The purchase the receipt came with, when SK1 reported one `purchased`: its
  /// per-transaction receipt (`SKPaymentTransaction.transactionReceipt`) lists it alone.
  public var transactionID: UInt64?

  /// Contents as given.
  public init(
    creationDate: Instant, purchases: [Transaction], transactionID: UInt64? = nil
  ) {
    self.creationDate = creationDate
    self.purchases = purchases
    self.transactionID = transactionID
  }

  /// The purchase's own record, for its per-transaction receipt.
  public var purchase: Transaction? {
    transactionID.flatMap { id in purchases.last { $0.id == id } }
  }

  /// Whether a receipt lists `transaction`, by Apple's rules above.
  public static func lists(_ transaction: Transaction) -> Bool {
    guard transaction.state == .purchased || transaction.state == .restored else { return false }
    return transaction.productType != .consumable || !transaction.isFinished
  }
}

extension Session {
  /// The app receipt now: every transaction a receipt lists (``ReceiptContents/lists(_:)``).
  ///
  /// - Parameter purchase: the purchase it comes with, if any.
  /// - Complexity: O(*n*) in the ledger's size.
  public func receiptContents(purchase: UInt64? = nil) -> ReceiptContents {
    var purchases: [Transaction] = []
    forEachTransaction { if ReceiptContents.lists($0) { purchases.append($0) } }
    return ReceiptContents(creationDate: now, purchases: purchases, transactionID: purchase)
  }

  /// `SKReceiptRefreshRequest`: the app asks for its receipt; it comes as a `receipt` event.
  public mutating func refreshReceipt(_ sink: EventSink) {
    emit(.receipt(receiptContents()), at: now.milliseconds, sink)
  }
}
