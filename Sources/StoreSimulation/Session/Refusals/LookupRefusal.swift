/// A transaction or product a verb names that is not there.
///
/// A case and its message are the two edits a new refusal of this family costs: the front
/// ends map the family as a whole unless they name the case.
public enum LookupRefusal: Equatable, Sendable {
  /// No live transaction has this id.
  case noTransaction(UInt64)
  /// `last`, in a session without transactions.
  case noLastTransaction
  /// `last:<product>`, for a product never bought.
  case noTransactionOfProduct(String)
  /// No available product has this id.
  case noProduct(String)

  /// What is wrong, for a person: the state that forbids the verb.
  public var message: String {
    switch self {
    case .noTransaction(let id): "there is no transaction \(id)"
    case .noLastTransaction: "there is no transaction yet, so no last one"
    case .noTransactionOfProduct(let productID): "there is no transaction for \(productID)"
    case .noProduct(let productID): "there is no product \"\(productID)\" in the configuration"
    }
  }
}
