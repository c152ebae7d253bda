/// An Apple Account that holds the app: the purchaser (the session's customer), or a member of
/// the purchaser's family, who receives what the purchaser shares.
public enum Account: Hashable, Sendable {
  /// The customer who buys.
  case purchaser
  /// A member of the purchaser's family (`family join <name>`).
  case member(FamilyMember)

  /// `appTransactionId`: one per account per app, the same in the app transaction, every
  /// transaction and renewal info of the account, and accepted by the App Store Server API
  /// wherever it takes any of the customer's transaction ids. A decimal number, as Apple's
  /// are; the purchaser's is `704000000000000001`, member *n*'s that plus *n* [unverified: Xcode's
  /// environment says `0`].
  public var appTransactionID: String {
    switch self {
    case .purchaser: "704000000000000001"
    case .member(let member): "\(704_000_000_000_000_001 + UInt64(member.number))"
    }
  }

  /// The member, when it is one.
  public var member: FamilyMember? {
    if case .member(let member) = self { member } else { nil }
  }

  /// Why this account's device cannot buy, when it cannot: a member receives what the
  /// purchaser shares and buys nothing in the purchaser's session.
  public var purchaseRefusal: Refusal? {
    member.map { .memberCannotBuy(member: $0.name) }
  }

  /// How this account holds the transactions it sees: bought, or shared by the purchaser.
  public var ownership: Ownership { member == nil ? .purchased : .familyShared }

  /// `purchaser`, or the member's name.
  public var name: String { member?.name ?? "purchaser" }
}

/// A member of the purchaser's family: the name commands call them by, and the number their
/// Apple Account got when they first joined (1 to 5, kept when they leave and join again).
public struct FamilyMember: Hashable, Sendable {
  /// The name `family join` gave.
  public var name: String
  /// 1 for the first member who ever joined, and so on.
  public var number: Int

  /// A member.
  public init(name: String, number: Int) {
    self.name = name
    self.number = number
  }
}

/// How an account holds a transaction, by Apple's `inAppOwnershipType`: the one place its
/// spellings are written.
public enum Ownership: String, CaseIterable, Sendable {
  /// The account bought it: `PURCHASED`.
  case purchased = "PURCHASED"
  /// The purchaser shared it through Family Sharing: `FAMILY_SHARED`.
  case familyShared = "FAMILY_SHARED"

  /// The spelling of Storekeeper's event stream, StoreKit 2's case name: `purchased`,
  /// `familyShared`.
  public var caseName: String {
    switch self {
    case .purchased: "purchased"
    case .familyShared: "familyShared"
    }
  }
}
