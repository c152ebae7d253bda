import ArgumentParser
import StoreSimulation

/// `--member NAME`: the family member whose device a command shows (`run`, `transactions`,
/// `receipt`); without it, the purchaser's.
struct MemberOptions: ParsableArguments {
  @Option(
    help: """
      Show what this family member's device sees (their transactions, statuses and receipt, \
      and the notifications about them); default: the purchaser's device.
      """)
  var member: String?

  /// The account whose device to show in `session` (read from `journal`): the purchaser's, or
  /// the member's; exits 1 naming who was ever in the family when nobody of that name was.
  func account(in session: Session?, journal: String) throws -> Account {
    guard let member else { return .purchaser }
    do throws(SessionError) {
      guard let session else { throw Session.noMember(named: member, among: []) }
      return try session.memberAccount(named: member)
    } catch {
      printError(
        "storekeeper: --member \(member) in \(journal): \(error.message)".sanitizedForTerminal)
      throw ExitCode(1)
    }
  }
}
