/// One of the session's customers: the session's own (unnamed, number 0), or one a `customer
/// <name>` line made. Each has an Apple Account of their own (with their family's): their own
/// transactions and id range, `appTransactionId`, subscriptions and settings, over the
/// session's one clock.
public struct Customer: Hashable, Sendable {
  /// The name `customer` gave; `nil` for the session's own customer.
  public var name: String?
  /// 0 for the session's own customer; a named one's is given when it is made (the next
  /// free one, or the one its line names), and picks its id range.
  public var number: Int

  /// A customer.
  public init(name: String?, number: Int) {
    self.name = name
    self.number = number
  }

  /// The session's own customer, whom every line acts as until a `customer` line.
  public static let own = Customer(name: nil, number: 0)

  /// Whether this is the session's own customer.
  public var isOwn: Bool { number == 0 }

  /// The most named customers' numbers go to: their id ranges must stay within the 50 bits
  /// ``OrderID`` maps back.
  public static let maximumNumber = 229_000

  /// Where a named customer's id range starts, `2⁴⁷ + number × 2³²` past the session's first id
  /// (far past the own customer's and their family's ranges); each family member's range is
  /// ``memberIDSpan`` past the customer's own.
  func firstTransactionID(sessionFirstID: UInt64) -> UInt64 {
    isOwn ? sessionFirstID : sessionFirstID + (1 << 47) + UInt64(number) << 32
  }

  /// How far apart a named customer's family members' id ranges are (2²⁶, for 63 members).
  static let memberIDSpan: UInt64 = 1 << 26
}

/// An Apple Account that holds the app: a customer (the purchaser), or a member of the
/// customer's family, who receives what the purchaser shares.
public struct Account: Hashable, Sendable {
  /// Whose family it is.
  public var customer: Customer
  /// The member of the customer's family (`family join <name>`), or `nil` for the customer.
  public var member: FamilyMember?

  /// A customer's own account, or a member's of their family.
  public init(customer: Customer = .own, member: FamilyMember? = nil) {
    self.customer = customer
    self.member = member
  }

  /// The session's own customer, who buys.
  public static let purchaser = Account()

  /// A member of the session's own customer's family.
  public static func member(_ member: FamilyMember) -> Account { Account(member: member) }

  /// Whether this is a customer's own account, not a family member's.
  public var isPurchaser: Bool { member == nil }

  /// `appTransactionId`: one per account per app, the same in the app transaction, every
  /// transaction and renewal info of the account, and accepted by the App Store Server API
  /// wherever it takes any of the customer's transaction ids. A decimal number, as Apple's
  /// are; the own customer's is `704000000000000001`, member *n*'s that plus *n*, and named
  /// customer *c*'s that plus 1,000 *c* [unverified: Xcode's environment says `0`].
  public var appTransactionID: String {
    "\(704_000_000_000_000_001 + UInt64(customer.number) * 1000 + UInt64(member?.number ?? 0))"
  }

  /// The account an `appTransactionId` names, when it has the shape of one of ours.
  public static func numbers(ofAppTransactionID text: String) -> (customer: Int, member: Int)? {
    guard let value = UInt64(text), value >= 704_000_000_000_000_001 else { return nil }
    let offset = value - 704_000_000_000_000_001
    guard offset / 1000 <= UInt64(Customer.maximumNumber) else { return nil }
    return (Int(offset / 1000), Int(offset % 1000))
  }

  /// Why this account's device cannot apply `verb`, when it cannot: a member receives what
  /// the purchaser shares and buys nothing in the purchaser's session (everything else a
  /// member's device asks for acts on the purchaser's session).
  public func refusal(of verb: SessionVerb) -> Refusal? {
    guard let member, case .buy = verb else { return nil }
    return .purchase(.memberCannotBuy(member: member.name))
  }

  /// How this account holds the transactions it sees: bought, or shared by the purchaser.
  public var ownership: Ownership { member == nil ? .purchased : .familyShared }

  /// `purchaser`, or the member's name.
  public var name: String { member?.name ?? "purchaser" }
}

/// A member of the purchaser's family: the name commands call them by, and the number their
/// Apple Account got when they first joined (1 for the first, and so on; kept when they leave
/// and join again).
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
  /// A seat of another customer's multiseat subscription whose invitations Apple hosts:
  /// `ASSIGNED`.
  case assigned = "ASSIGNED"

  /// The spelling of Storekeeper's event stream, StoreKit 2's case name: `purchased`,
  /// `familyShared`.
  public var caseName: String {
    switch self {
    case .purchased: "purchased"
    case .familyShared: "familyShared"
    case .assigned: "assigned"
    }
  }
}
