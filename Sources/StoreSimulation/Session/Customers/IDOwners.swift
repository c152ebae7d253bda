/// Who holds the ids the engine did not make: every transaction id held by a ledger that holds
/// ids it did not make (an imported customer's: Apple's, and those made after them), and each
/// `appTransactionId` Apple gave an imported customer, with its customer's number. Every other
/// id's customer is read from the id ranges (``Customer/firstTransactionID(sessionFirstID:)``);
/// an id here is looked up first, and no other customer is given one.
struct IDOwners: Sendable {
  private var transactions: [UInt64: Int] = [:]
  private var appTransactions: [UInt64: Int] = [:]

  /// Whether no ledger holds a transaction id the engine did not make (the ranges then say
  /// whose every id is, and the engine's fast paths hold).
  var isEmpty: Bool { transactions.isEmpty }

  /// The number of the customer holding transaction `id`, when it is one the engine did not
  /// make (or one made after them for the same customer).
  func owner(ofTransaction id: UInt64) -> Int? { transactions[id] }

  /// The number of the imported customer Apple gave `appTransactionId` `id`.
  func owner(ofAppTransaction id: UInt64) -> Int? { appTransactions[id] }

  /// Transaction `id` is customer `number`'s.
  mutating func give(transaction id: UInt64, to number: Int) { transactions[id] = number }

  /// `appTransactionId` `id` is customer `number`'s.
  mutating func give(appTransaction id: UInt64, to number: Int) { appTransactions[id] = number }

  /// The first transaction id from `id` on that no customer but `number` holds.
  ///
  /// - Complexity: O(1) but for the ids skipped.
  func firstFree(from id: UInt64, for number: Int) -> UInt64 {
    var id = id
    while let owner = transactions[id], owner != number { id += 1 }
    return id
  }
}
