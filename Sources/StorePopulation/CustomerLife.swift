import StoreSimulation

/// Something a customer does at a moment of their life.
enum LifeAction: Equatable {
  /// They arrive: they become a customer, pick a storefront and buy a subscription.
  case arrive
  /// They turn auto-renew off.
  case cancel
  /// Their next renewal's payment will fail (`set billing-retry on` on their device).
  case failNextRenewal
  /// A renewal failed: their payment method is fine again for later renewals, and they may
  /// fix this one.
  case billingFailed
  /// They fix a failed payment.
  case resolve(UInt64)
  /// Apple refunds a charge.
  case refund(UInt64)
  /// They move to another subscription of the group.
  case changePlan(String)
  /// The developer raises their price.
  case requestPriceIncrease
  /// They answer the price increase.
  case answerPriceIncrease(consent: Bool)
  /// A member of their family joins.
  case familyJoin
  /// The group purchaser's `member`th invitee (1-based) joins a seat.
  case groupInvite(member: Int)
  /// The group purchaser removes their `member`th invitee.
  case groupRemove(member: Int)
}

/// An action at its moment: ordered by time, then by customer, then as the customer planned
/// them, so that one customer's actions come in the same order whoever else is in the run.
struct PlannedAction: Comparable {
  var time: Int64
  var number: Int
  var sequence: Int
  var action: LifeAction

  static func < (lhs: PlannedAction, rhs: PlannedAction) -> Bool {
    (lhs.time, lhs.number, lhs.sequence) < (rhs.time, rhs.number, rhs.sequence)
  }
}

/// What the model knows of one customer: their random stream, their subscription's latest
/// transaction, and what is in store for them. A reference: what a command makes them plan
/// while one of their actions runs is theirs at once.
final class CustomerLife {
  let customer: Customer
  var random: SeededRandom
  /// The latest transaction of their subscription.
  var current: UInt64?
  /// Whether their next renewal is to fail.
  var failing = false
  /// How many actions they planned (orders those at one moment).
  var planned = 0

  init(number: Int, seed: UInt64, width: Int) {
    let digits = String(number)
    let name = "c" + String(repeating: "0", count: max(0, width - digits.count)) + digits
    customer = Customer(name: name, number: number)
    random = SeededRandom(seed: seed, stream: UInt64(number))
  }

  /// The next action at `time`.
  func plan(_ action: LifeAction, at time: Int64) -> PlannedAction {
    planned += 1
    return PlannedAction(time: time, number: customer.number, sequence: planned, action: action)
  }
}
