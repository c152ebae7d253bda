import ArgumentParser
import StoreSimulation

/// `--member NAME`: the family member whose device a command shows.
enum MemberOption {
  /// The account of the member named `name` in `session` (read from `journal`); exits 1 saying
  /// who was ever in the family when nobody of that name was.
  static func account(_ name: String, in session: Session?, journal: String) throws -> Account {
    if let member = session?.familyMember(named: name) { return .member(member) }
    let members = session?.everyFamilyMember.map(\.name) ?? []
    printError(
      ("storekeeper: --member \(name): nobody of that name was ever in the family of \(journal)"
        + (members.isEmpty
          ? " (nobody was: family join <name> adds one)"
          : " (members: \(members.joined(separator: ", ")))"))
        .sanitizedForTerminal)
    throw ExitCode(1)
  }
}
