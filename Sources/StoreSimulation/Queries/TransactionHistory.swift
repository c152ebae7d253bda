/// Which transactions a customer's transaction history lists: the one rule StoreKit's
/// `Transaction.all` and `latest(for:)` and the App Store Server API's Get Transaction History
/// read by, so that the app and its server never disagree.
///
/// Apple: `Transaction.all` lists "unfinished consumables, finished consumables that are
/// refunded or revoked, non-consumables, auto-renewable subscriptions …"; Get Transaction
/// History V1 lists consumables "if the transaction is refunded or revoked, or if the app hasn't
/// finished processing the transaction"; V2 "transactions in any state … that the app has or
/// hasn't marked as finished"; `SKIncludeConsumableInAppPurchaseHistory` makes StoreKit list
/// finished consumables too.
public enum TransactionHistory {
  /// Whether the history lists a transaction: one that was paid for (not a failed attempt, an
  /// Ask to Buy request waiting or declined, an interrupted purchase), and not a consumable the
  /// app finished unless it was refunded or revoked or the reader asks for finished ones
  /// (`withFinishedConsumables`).
  public static func lists(
    paid: Bool, consumable: Bool, finished: Bool, revoked: Bool, withFinishedConsumables: Bool
  ) -> Bool {
    paid && (!consumable || !finished || revoked || withFinishedConsumables)
  }
}

extension Transaction {
  /// Whether the customer's transaction history lists it (``TransactionHistory``).
  public func isInHistory(withFinishedConsumables: Bool) -> Bool {
    TransactionHistory.lists(
      paid: state == .purchased && !hasPurchaseIssue, consumable: productType == .consumable,
      finished: isFinished, revoked: revocationDate != nil,
      withFinishedConsumables: withFinishedConsumables)
  }
}

extension LedgerRow {
  /// Whether the customer's transaction history lists it (``TransactionHistory``); `consumable`
  /// says whether its product is one.
  public func isInHistory(consumable: Bool, withFinishedConsumables: Bool) -> Bool {
    let paid: Bool =
      switch state {
      case .pending, .declined, .interrupted, .failed: false
      case .purchased, .renewed, .refunded, .upgraded, .expired, .grace, .retry, .priceIncrease,
        .revoked:
        true
      }
    return TransactionHistory.lists(
      paid: paid, consumable: consumable, finished: isFinished,
      revoked: state == .refunded || state == .revoked,
      withFinishedConsumables: withFinishedConsumables)
  }
}
