/// The purchaser's family: who is in it, what the purchaser stopped sharing, and each member's
/// transactions of what is shared.
///
/// A member's transaction is a *share* of one of the purchaser's: it has its own id (in the
/// member's own range, ``span`` apart), purchase date and revocation, and reads
/// everything else (product, expiration, offer) from the purchaser's transaction, so that
/// renewals, expiries and extensions of the purchaser's reach every member.
struct FamilyState {
  /// How far apart the id ranges of the own customer's family's accounts are.
  static let idSpan: UInt64 = 1_000_000_000_000
  /// How far apart the id ranges of this family's accounts are: member *n*'s transactions are
  /// numbered from the first id plus *n* times this (``idSpan`` for the own customer's family;
  /// a named customer's is ``Customer/memberIDSpan``).
  var span = FamilyState.idSpan

  /// How many members may ever join the family: each keeps their id range for good (one who
  /// left keeps their transactions), so the ranges must fit below the next customer's ids and
  /// member numbers below 1,000 (the `appTransactionId`'s room): 139 for the own customer's
  /// family (2⁴⁷ / 10¹² ranges), 63 for a named customer's (2³² / 2²⁶).
  var mostMembersEver: Int {
    let customerRange: UInt64 = span == Self.idSpan ? 1 << 47 : 1 << 32
    return min(Int(customerRange / span) - 1, 999)
  }

  /// One of a member's transactions.
  struct Share {
    /// The purchaser's transaction it shares (a ledger position).
    var source: Int
    var purchaseDate: Int64
    var revocationDate: Int64 = TransactionRecord.none
    /// The member's first share of the subscription (its original transaction), by index;
    /// its own index for everything else.
    var original: Int
    /// Whether it continues the member's access from the period before (a renewal).
    var isRenewal: Bool
    /// Revoked because the purchaser was refunded for an issue with the app: the member's
    /// revocation reason is the purchaser's (Apple's `revocationReason`).
    var isRevokedForDeveloperIssue = false
    var isFinished = false
    var isDeleted = false

    var isRevoked: Bool { revocationDate != TransactionRecord.none }
  }

  struct Member {
    var member: FamilyMember
    var isJoined = true
    /// When the member last joined.
    var joinedAt: Int64
    /// In chunks: a copy of the session (a step back's) shares all but the chunk the session
    /// changes next, as the ledger does.
    var shares = ChunkedArray<Share>()
    /// The shares that may still give access (of lasting products, or of a subscription's
    /// current period), by index.
    var active: [Int] = []
    /// The latest share of each source that may still give access, by source position (a
    /// share that stopped giving access leaves it, so that it does not grow with renewals).
    var bySource: [Int: Int] = [:]
    /// The latest share in each subscription group, by group index.
    var latestInGroup: [Int: Int] = [:]
    /// The status last told of each group the member had a share in.
    var statuses: [Int: SubscriptionStatus] = [:]
    /// How many shares in each subscription group are not deleted, by group index (the
    /// member's purchase count in the group, kept so that a renewal need not count them).
    var liveSharesInGroup: [Int: Int] = [:]
  }

  var members: [Member] = []
  /// Products the purchaser stopped sharing (product indexes), with nothing for shared ones.
  var unshared: Set<Int32> = []
  /// When the purchaser last turned sharing back on for a product.
  var sharedAgainAt: [Int32: Int64] = [:]

  /// The member called `name`, joined or not, by index.
  func index(of name: String) -> Int? { members.firstIndex { $0.member.name == name } }

  var joinedCount: Int { members.lazy.filter(\.isJoined).count }
}
