/// A refund, refund request or consumption report refused, or a change of a server record Apple makes only to some transactions.
///
/// A case and its message are the two edits a new refusal of this family costs: the front
/// ends map the family as a whole unless they name the case.
public enum RefundRefusal: Equatable, Sendable {
  /// A refund of a transaction never purchased.
  case neverPurchased(transaction: UInt64, state: String)
  /// A refund of a refunded transaction.
  case alreadyRefunded(transaction: UInt64)
  /// A refund's percentage outside (0, 100].
  case refundPercentageOutOfRange
  /// A second refund request while one waits.
  case refundRequestWaiting(transaction: UInt64)
  /// `refund-decline` without a request waiting.
  case noRefundRequest(transaction: UInt64)
  /// `refund-reverse` of a transaction not refunded.
  case notRefunded(transaction: UInt64)
  /// `refund-reverse` after the subscription was bought again.
  case boughtAgainSinceRefund(transaction: UInt64, current: UInt64)
  /// Consumption information without a refund request waiting.
  case noConsumptionRequest(transaction: UInt64)
  /// Consumption information more than 12 hours after the request.
  case consumptionRequestTooOld(transaction: UInt64)
  /// Consumption information for a transaction never paid for.
  case neverPaidFor(transaction: UInt64)
  /// A change of a family member's transaction that only the purchaser's takes (an app account
  /// token, an extension).
  case familySharedTransaction(transaction: UInt64)
  /// A change Apple makes by original transaction id only (Set App Account Token), given
  /// another of the purchase's ids.
  case notOriginalTransaction(transaction: UInt64, original: UInt64)

  /// What is wrong, for a person: the state that forbids the verb.
  public var message: String {
    switch self {
    case .neverPurchased(let id, let state):
      return "transaction \(id) was never purchased (it is \(state)), so it cannot be refunded"
    case .alreadyRefunded(let id): return "transaction \(id) is already refunded"
    case .refundPercentageOutOfRange:
      return "a refund's percentage must be more than 0 and at most 100"
    case .refundRequestWaiting(let id):
      return "transaction \(id) already has a refund request waiting; decide it with refund or "
        + "refund-decline"
    case .noRefundRequest(let id):
      return "transaction \(id) has no refund request waiting; refund-request asks"
    case .notRefunded(let id):
      return "transaction \(id) is not refunded, so there is nothing to reverse"
    case .boughtAgainSinceRefund(let id, let current):
      return "transaction \(id)'s subscription was bought again since (transaction \(current) "
        + "is current), so its refund can no longer be reversed"
    case .noConsumptionRequest(let id):
      return "no refund request for transaction \(id) is waiting: the App Store asks for "
        + "consumption information only after one (refund-request)"
    case .consumptionRequestTooOld(let id):
      return "the refund request for transaction \(id) came more than 12 hours ago; the App "
        + "Store takes consumption information within 12 hours"
    case .neverPaidFor(let id): return "transaction \(id) was never paid for"
    case .familySharedTransaction(let id):
      return "transaction \(id) is a family member's, obtained through Family Sharing: only "
        + "the purchaser's transaction takes this"
    case .notOriginalTransaction(let id, let original):
      return "transaction \(id) is not an original transaction: name its purchase's original, "
        + "transaction \(original)"
    }
  }
}
