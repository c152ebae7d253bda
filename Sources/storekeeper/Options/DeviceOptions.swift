import ArgumentParser
import StoreSimulation

/// `--customer NAME` and `--member NAME`: whose device a command shows (`run`, `transactions`,
/// `receipt`): a customer's (the session's own without `--customer`) or a member of their
/// family's.
struct DeviceOptions: ParsableArguments {
  @Option(
    help: """
      Show this customer's store (made with a `customer NAME` line): their transactions, \
      receipt and events; default: the session's own customer (run: every customer's events).
      """)
  var customer: String?

  @Option(
    help: """
      Show what this family member's device sees (their transactions, statuses and receipt, \
      and the notifications about them); default: the purchaser's device.
      """)
  var member: String?

  /// The account whose device to show in `session` (read from `journal`): a customer's, or a
  /// member's of their family; exits 1 naming who there is when nobody of that name is.
  func account(in session: Session?, journal: String) throws -> Account {
    guard customer != nil || member != nil else { return .purchaser }
    do throws(SessionError) {
      return try Self.account(customer: customer, member: member, in: session)
    } catch {
      let option = customer.map { "--customer \($0)" } ?? ""
      let both = option + (member.map { (option.isEmpty ? "" : " ") + "--member \($0)" } ?? "")
      printError("storekeeper: \(both) in \(journal): \(error.message)".sanitizedForTerminal)
      throw ExitCode(1)
    }
  }

  /// The account of the customer called `customer` (the own one when `nil`), or of the member
  /// of their family called `member`.
  static func account(
    customer name: String?, member: String?, in session: Session?
  ) throws(SessionError) -> Account {
    guard let session else {
      if let name { throw SessionError(.noSuchCustomer(name: name, customers: [])) }
      throw Session.noMember(named: member ?? "", among: [])
    }
    var customer = Customer.own
    if let name {
      guard let named = session.customer(named: name) else { throw session.noCustomer(named: name) }
      customer = named
    }
    let view = session.view(of: Account(customer: customer))
    guard let member else { return Account(customer: customer) }
    guard let found = view.everyFamilyMember.first(where: { $0.name == member }) else {
      throw Session.noMember(named: member, among: view.everyFamilyMember.map(\.name))
    }
    return Account(customer: customer, member: found)
  }
}
