/// Who hosts a multiseat subscription's invitations (`invitationManagement`): App Store
/// Connect's setting when the subscription was bought; a change applies to new purchases and
/// resubscriptions only.
public enum InvitationManagement: String, Sendable, CaseIterable {
  /// Apple hosts them: each member who joins gets their own transaction (`ASSIGNED`).
  case apple = "APPLE"
  /// The app hosts them: the developer's server keeps the App Store's record with the seat
  /// endpoints (claims).
  case developer = "DEVELOPER"

  /// The word the command language uses (`set invitations apple|developer`).
  public var word: String { self == .apple ? "apple" : "developer" }
}

/// A seat claimed through Claim Seat (developer-hosted invitations).
public struct SeatClaim: Equatable, Sendable {
  /// `seatClaimId`: the claim's own (a new one for every claim).
  public var id: String
  /// The `requestIdentifier` it was claimed with (a retry with it answers this claim).
  public var requestIdentifier: String
  /// The member's `appTransactionId`, once associated.
  public var appTransactionID: String?
  /// Its place among the subscription's claims (the claims made before it).
  var order = 0
}

/// A member of a multiseat subscription with Apple-hosted invitations (`group invite`): a
/// customer of the session holding a seat through their own `ASSIGNED` transaction.
public struct SeatMember: Equatable, Sendable {
  /// The member's customer number.
  public var customer: Int
  /// The member's original transaction of the assignment (in the member's own ledger).
  public var originalID: UInt64
  /// Its place among the subscription's members (the members who joined before it).
  var order = 0
}

/// A multiseat subscription's seats, kept by the session for its original transaction.
public struct SeatGroup: Equatable, Sendable {
  /// Who hosts the invitations (as when it was bought).
  public var invitations: InvitationManagement
  /// The seats of the current period: its transactions' quantities, refunded seats included.
  public var total: Int
  /// Seats refunded in the current period (`revokedSeatQuantity`).
  public var revoked = 0
  /// The seats that renew (`renewalQuantity`): fewer than ``total`` after a reduction, which
  /// takes effect at the next renewal.
  public var renewalTotal: Int
  /// The price of one seat (milliunits of the storefront's currency).
  public var seatPrice: Int64
  /// Developer-hosted claims by id, and each request's claim id: a claim, a retry and a lookup
  /// cost the same however many claims there are.
  private var claimsByID: [String: SeatClaim] = [:]
  private var claimByRequest: [String: String] = [:]
  /// How many claims were ever made (the next claim's id is made from it).
  var claimsMade = 0
  /// Apple-hosted members by customer number: a join, a removal and a lookup cost the same
  /// however many members there are.
  private var membersByNumber: [Int: SeatMember] = [:]
  /// How many members ever joined (the next one's order).
  private var membersJoined = 0
  /// The purchaser's subscription as the members last followed it (``Session``'s member sync
  /// walks the members only when it changed).
  var followed: MemberTerms?

  init(
    invitations: InvitationManagement, total: Int, renewalTotal: Int, seatPrice: Int64
  ) {
    self.invitations = invitations
    self.total = total
    self.renewalTotal = renewalTotal
    self.seatPrice = seatPrice
  }

  /// The claims, oldest first.
  ///
  /// - Complexity: O(*n* log *n*) in the claims.
  public var claims: [SeatClaim] { claimsByID.values.sorted { $0.order < $1.order } }
  /// How many claims there are.
  public var claimCount: Int { claimsByID.count }
  /// The claim of that id.
  public func claim(id: String) -> SeatClaim? { claimsByID[id] }
  /// The claim a request made, while it stands.
  public func claim(request: String) -> SeatClaim? {
    claimByRequest[request].flatMap { claimsByID[$0] }
  }

  mutating func add(_ claim: SeatClaim) {
    var claim = claim
    claim.order = claimsMade
    claimsByID[claim.id] = claim
    claimByRequest[claim.requestIdentifier] = claim.id
  }

  mutating func removeClaim(id: String) {
    guard let claim = claimsByID.removeValue(forKey: id) else { return }
    claimByRequest[claim.requestIdentifier] = nil
  }

  mutating func associate(claim id: String, with member: String) {
    claimsByID[id]?.appTransactionID = member
  }

  /// The Apple-hosted members, earliest first.
  ///
  /// - Complexity: O(*n* log *n*) in the members.
  public var members: [SeatMember] { membersByNumber.values.sorted { $0.order < $1.order } }
  /// How many Apple-hosted members hold a seat.
  public var memberCount: Int { membersByNumber.count }
  /// The member who is customer `number`, while they hold a seat.
  public func member(customer number: Int) -> SeatMember? { membersByNumber[number] }

  mutating func add(_ member: SeatMember) {
    var member = member
    member.order = membersJoined
    membersJoined += 1
    membersByNumber[member.customer] = member
  }

  mutating func removeMember(customer number: Int) { membersByNumber[number] = nil }

  /// Unclaims the latest claims until no more than `count` remain; their ids, latest first.
  mutating func keepClaims(atMost count: Int) -> [String] {
    guard claimsByID.count > count else { return [] }
    let removed = claims.suffix(claimsByID.count - count).reversed().map(\.id)
    for id in removed { removeClaim(id: id) }
    return removed
  }

  /// The seats in force now: bought, less those refunded (`totalSeatCount`).
  public var inForce: Int { max(0, total - revoked) }
  /// Seats no claim or member holds (`availableSeatCount`); 0 when claims exceed the seats
  /// (after a renewal with fewer seats: the App Store does not unclaim).
  public var available: Int { max(0, inForce - claimCount - memberCount) }
}

/// A tier of a product's seat-based pricing (Apple's `SeatBasedPricing.PriceTier`): a per-seat
/// price for the seats up to `maximumSeats` (from the tier before's), `nil` for every seat
/// after the tiers before.
public struct SeatTier: Equatable, Sendable {
  /// The last seat at this price; `nil`: no last.
  public var maximumSeats: Int?
  /// The price of one seat (milliunits of the storefront's currency).
  public var price: Int64

  /// A tier.
  public init(maximumSeats: Int?, price: Int64) {
    self.maximumSeats = maximumSeats
    self.price = price
  }

  /// Apple's most tiers a product has (volume pricing).
  public static let most = 5
}

/// How a product sells seats: not at all (`multiSeatPurchaseDisabled`), or by tiers. A
/// product with none set sells them at its own price (one tier).
public enum SeatPricing: Equatable, Sendable {
  /// `seats(_:)` is refused.
  case disabled
  /// Volume pricing, ascending.
  case tiers([SeatTier])
}

/// Seats bought at one price (`MultiSeatPriceTier`: `tierPrice`, `tierQuantity`).
public struct SeatCharge: Equatable, Sendable {
  /// The price of one seat (milliunits).
  public var price: Int64
  /// The seats at that price.
  public var quantity: Int
}

/// A multiseat transaction's seat terms (`multiSeatInfo`).
public struct TransactionSeats: Equatable, Sendable {
  /// Who hosts the invitations.
  public var invitations: InvitationManagement
  /// The seats bought at each price (`priceTiers`).
  public var tiers: [SeatCharge]
  /// Seats of this transaction refunded (`revokedSeatQuantity`), `nil` before any.
  public var revoked: Int?
  /// Whether seats were added in this transaction's period (`additionalTransactionReason`
  /// `SEAT_ADDITION`: the period's transaction and the added one both carry it).
  public var seatAddition = false
  /// Whether this is the added seats' own transaction (not a period of the subscription).
  public var isAddition = false
  /// An Apple-hosted member's transaction (`inAppOwnershipType` `ASSIGNED`): the purchaser's
  /// original transaction id; `nil` for the purchaser's own.
  public var assignedBy: UInt64?
}

/// What an Apple-hosted member's subscription follows of the purchaser's: the current period,
/// where it stands and what renews.
struct MemberTerms: Equatable {
  var current: UInt64
  var phase: GroupState.Phase
  var willAutoRenew: Bool
  var renewalProduct: Int32
  var periodEnd: Int64
  var graceEnd: Int64
  var retryEnd: Int64
  var expirationReason: ExpirationReason?
  var isRevoked: Bool
  var seats: Int

  init(_ group: GroupState, isRevoked: Bool, seats: Int) {
    current = group.current
    phase = group.phase
    willAutoRenew = group.willAutoRenew
    renewalProduct = group.renewalProduct
    periodEnd = group.periodEnd
    graceEnd = group.graceEnd
    retryEnd = group.retryEnd
    expirationReason = group.expirationReason
    self.isRevoked = isRevoked
    self.seats = seats
  }
}

/// A change of a multiseat subscription's seats (the command language's `seats`, `set
/// invitations`, `refund … seats=` and the App Store Server API's seat endpoints), naming its
/// transaction by `Reference`: as written (a command) or resolved to an id (``SeatAction``).
public enum SeatChange<Reference: Equatable & Sendable>: Equatable, Sendable {
  /// `seats <txn> N`: the purchaser sets the total; more seats now, fewer at the next renewal.
  case change(Reference, total: Int)
  /// `refund <txn> seats=N`: Apple refunds N seats of the current period.
  case refund(Reference, seats: Int)
  /// `seat-claim <txn> request=<uuid> [app-transaction=<id>]` (Claim Seat).
  case claim(Reference, request: String, appTransactionID: String?)
  /// `seat-unclaim <txn> <seatClaimId>` (Unclaim Seat).
  case unclaim(Reference, claim: String)
  /// `seat-associate <txn> <seatClaimId> <appTransactionId>` (Associate Seat).
  case associate(Reference, claim: String, appTransactionID: String)
  /// `set invitations apple|developer` (App Store Connect's setting).
  case invitations(InvitationManagement)
  /// `set seat-pricing <productID> on|off|<tiers>`: how a product sells seats; `nil` at its
  /// own price.
  case pricing(productID: String, SeatPricing?)
  /// `group invite <name>`: a customer joins the current customer's Apple-hosted multiseat
  /// subscription (made on first use) and gets an `ASSIGNED` transaction of their own.
  case invite(member: String)
  /// `group remove <name>`: the purchaser removes a member (their assignment is revoked).
  case remove(member: String)

  /// The same change with its transaction named by `transform`'s answer.
  public func map<Other, Failure: Error>(
    _ transform: (Reference) throws(Failure) -> Other
  ) throws(Failure) -> SeatChange<Other> {
    switch self {
    case .change(let reference, let total): .change(try transform(reference), total: total)
    case .refund(let reference, let seats): .refund(try transform(reference), seats: seats)
    case .claim(let reference, let request, let member):
      .claim(try transform(reference), request: request, appTransactionID: member)
    case .unclaim(let reference, let claim): .unclaim(try transform(reference), claim: claim)
    case .associate(let reference, let claim, let member):
      .associate(try transform(reference), claim: claim, appTransactionID: member)
    case .invitations(let hosting): .invitations(hosting)
    case .pricing(let productID, let pricing): .pricing(productID: productID, pricing)
    case .invite(let member): .invite(member: member)
    case .remove(let member): .remove(member: member)
    }
  }
}

/// A seat change with its transaction resolved to an id: what the engine applies.
public typealias SeatAction = SeatChange<UInt64>

/// Why a seat change is refused: the rule broken, named as Apple's errors are where Apple has
/// one, and the words for a person.
public typealias SeatRefusal = RuleRefusal<SeatRule>

/// A rule of multiseat subscriptions.
public enum SeatRule: Equatable, Sendable, CaseIterable {
  /// Seats on a product that is no auto-renewable subscription.
  case notSubscription
  /// A seat count below 1, or a claim id that is no UUID.
  case invalidCount
  /// Fewer seats through a purchase (`seatReductionNotAllowed`).
  case reductionNotAllowed
  /// The subscription is not multiseat, or its invitations are Apple's
  /// (`TransactionNotDevManagedGroupError`).
  case notDeveloperManaged
  /// The subscription is not multiseat.
  case notMultiSeat
  /// The product does not sell seats (`multiSeatPurchaseDisabled`), or its tiers are not
  /// Apple's shape.
  case multiSeatDisabled
  /// `group invite|remove` without an Apple-hosted multiseat subscription.
  case notAppleManaged
  /// A member named who holds no seat.
  case memberNotFound
  /// An invitation of the purchaser, or of someone subscribed in the group already (their own
  /// subscription or another's seat).
  case alreadySubscribed
  /// An invitation while the purchaser's subscription waits for a payment (grace, billing
  /// retry): members join a paid period.
  case purchaserNotSubscribed
  /// A member's own change of their seat (auto-renew, expiry, a renewal, a refund, a purchase
  /// in the group): it follows the purchaser's subscription.
  case assignedSeat
  /// Every seat is claimed (`NoAvailableSeatsError`).
  case noAvailableSeats
  /// No claim of that id (`SeatClaimIdNotFoundError`).
  case claimNotFound
  /// No customer of that `appTransactionId` (`AppTransactionIdNotFoundError`).
  case appTransactionNotFound
  /// Nothing would change.
  case unchanged
  /// What Storekeeper does not simulate yet (a multiseat plan change, seats with Ask to Buy).
  case notSimulated
}

/// A refusal of a family of rules (Retention Messaging's, seats'): the rule broken and the
/// words for a person; each front end maps the rule to its own answer.
public struct RuleRefusal<Rule: Equatable & Sendable>: Error, Equatable, Sendable {
  /// The rule broken.
  public var rule: Rule
  /// What is wrong.
  public var message: String

  package init(_ rule: Rule, _ message: String) {
    self.rule = rule
    self.message = message
  }
}
