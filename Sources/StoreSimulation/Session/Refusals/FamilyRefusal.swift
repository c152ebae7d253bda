/// A Family Sharing change refused: its members and what the purchaser shares.
///
/// A case and its message are the two edits a new refusal of this family costs: the front
/// ends map the family as a whole unless they name the case.
public enum FamilyRefusal: Equatable, Sendable {
  /// A member nobody of that name ever was (`members`: who was).
  case noSuchMember(name: String, members: [String])
  /// `family join` of a member in the family.
  case alreadyInFamily(String)
  /// `family join` of a sixth member.
  case familyFull(maximum: Int, members: [String])
  /// `family join` of a new name when the family has had as many members as ids have room for.
  case familyNamesUsedUp(maximum: Int)
  /// `family leave` of someone not in the family (`members`: who is).
  case notInFamily(name: String, members: [String])
  /// A name a member cannot have.
  case invalidMemberName(String)
  /// Sharing of a kind of product Family Sharing does not share.
  case kindNotShared(productID: String, kind: String)
  /// Sharing of a product the configuration does not make family-shareable.
  case notFamilyShareable(productID: String)
  /// Sharing already as asked.
  case sharingAlready(productID: String, shared: Bool)

  /// What is wrong, for a person: the state that forbids the verb.
  public var message: String {
    switch self {
    case .noSuchMember(_, let members):
      "nobody of that name was ever in the family"
        + (members.isEmpty
          ? " (nobody was: family join <name> adds one)"
          : " (members: \(members.joined(separator: ", ")))")
    case .alreadyInFamily(let name): "\(name) is already in the family"
    case .familyFull(let maximum, let members):
      "a family shares with at most \(maximum) members, and "
        + "\(members.joined(separator: ", ")) are in it: family leave <name> first"
    case .familyNamesUsedUp(let maximum):
      "\(maximum) different members have joined this family, as many as its transaction ids "
        + "have room for: one who was in it may join again"
    case .notInFamily(let name, let members):
      "\(name) is not in the family"
        + (members.isEmpty
          ? " (nobody is: family join <name> adds a member)"
          : " (its members: \(members.joined(separator: ", ")))")
    case .invalidMemberName(let name):
      "\"\(name.prefix(40))\" cannot name a member: use 1 to 32 letters, digits, '.', '-' or "
        + "'_', starting with a letter or a digit (and not \"purchaser\")"
    case .kindNotShared(let productID, let kind):
      "\(productID) is a \(kind) product: Family Sharing shares only non-consumables and "
        + "auto-renewable subscriptions"
    case .notFamilyShareable(let productID):
      "\(productID) is not family-shareable (its familyShareable is false in the configuration)"
    case .sharingAlready(let productID, let shared):
      "the purchaser already \(shared ? "shares" : "does not share") \(productID)"
    }
  }
}
