/// A customer of the session named or made wrongly.
///
/// A case and its message are the two edits a new refusal of this family costs: the front
/// ends map the family as a whole unless they name the case.
public enum CustomerRefusal: Equatable, Sendable {
  /// `customer <name>` with a name a customer cannot have.
  case invalidCustomerName(String)
  /// A customer of that name is not in the session (`customers`: who is).
  case noSuchCustomer(name: String, customers: [String])
  /// `customer number=…` without a name.
  case customerNumberWithoutName
  /// A number given to an existing customer that is not theirs.
  case customerNumberNotTheirs(name: String, number: Int)
  /// A customer number past the id ranges there are.
  case customerNumberOutOfRange(Int, maximum: Int)
  /// A new customer's number another customer has.
  case customerNumberTaken(Int, by: String)

  /// What is wrong, for a person: the state that forbids the verb.
  public var message: String {
    switch self {
    case .invalidCustomerName(let name):
      "\"\(name.prefix(40))\" cannot name a customer: use 1 to 32 letters, digits, '.', '-' or "
        + "'_', starting with a letter or a digit (and not \"purchaser\")"
    case .noSuchCustomer(let name, let customers):
      "there is no customer \"\(name.prefix(40))\""
        + (customers.isEmpty
          ? " (the session has only its own: customer <name> makes one)"
          : " (customers: \(customers.prefix(20).joined(separator: ", "))"
            + (customers.count > 20 ? " and \(customers.count - 20) more" : "") + ")")
    case .customerNumberWithoutName:
      "number= goes with a customer's name: customer <name> number=<n>"
    case .customerNumberNotTheirs(let name, let number):
      "\(name) is customer number \(number); leave number= out or give theirs"
    case .customerNumberOutOfRange(let number, let maximum):
      "customer number \(number) is not 1 to \(maximum)"
    case .customerNumberTaken(let number, let name):
      "customer number \(number) is \(name)'s; give the new customer another"
    }
  }
}
