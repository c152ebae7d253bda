/// One transaction as the ledger stores it: 80 bytes of integers, products and offers by index,
/// rarely used details in a side table. Public snapshots (``Transaction``) are made on demand.
struct TransactionRecord: Equatable {
  static let none = Int64.min
  /// An `originalID` meaning "this record's own id", resolved when the record is stored.
  static let ownID = UInt64.max

  var id: UInt64
  var originalID: UInt64
  var purchaseDate: Int64
  var originalPurchaseDate: Int64
  var expirationDate: Int64 = none
  var revocationDate: Int64 = none
  /// Milliunits paid.
  var price: Int64
  var product: Int32
  var quantity: Int32 = 1
  /// Index into the product's offers of `offerKind`, or -1.
  var offerIndex: Int16 = -1
  var offerKind: UInt8 = 0
  var storefront: UInt8
  var state: State
  var flags: Flags = []
  /// Index into the ledger's details table, or -1 (renewals share their purchase's).
  var details: Int32 = -1
  /// A prorated refund's share in thousandths of a percent; 0 for a full one.
  var refundedShare: Int32 = 0

  enum State: UInt8 {
    case purchased, failed, deferred
  }

  struct Flags: OptionSet {
    let rawValue: UInt16
    static let renewal = Flags(rawValue: 1 << 0)
    static let revokedForDeveloperIssue = Flags(rawValue: 1 << 1)
    static let upgraded = Flags(rawValue: 1 << 2)
    static let finished = Flags(rawValue: 1 << 3)
    static let deleted = Flags(rawValue: 1 << 4)
    static let purchaseIssue = Flags(rawValue: 1 << 5)
    static let pendingApproval = Flags(rawValue: 1 << 6)
    static let declined = Flags(rawValue: 1 << 7)
    static let unverified = Flags(rawValue: 1 << 8)
    /// The customer asked Apple for a refund, not yet decided.
    static let refundRequested = Flags(rawValue: 1 << 9)
    /// A period of a `MONTHLY` billing plan (bits 11 to 14: its number in the commitment).
    static let monthlyPlan = Flags(rawValue: 1 << 10)
    /// Made, and not yet told purchased: its first event as purchased notifies the purchase
    /// (a first purchase, a renewal, an Ask to Buy request approved).
    static let purchaseUntold = Flags(rawValue: 1 << 15)
  }

  /// A monthly plan's period: its number in the 12-month commitment (1 to 12), 0 otherwise.
  var billingPeriod: Int {
    get { Int((flags.rawValue >> 11) & 0xF) }
    set {
      flags = Flags(rawValue: (flags.rawValue & ~(0xF << 11)) | (UInt16(newValue & 0xF) << 11))
    }
  }

  var isDeleted: Bool { flags.contains(.deleted) }
  var isRevoked: Bool { revocationDate != Self.none }
  var hasExpiration: Bool { expirationDate != Self.none }
}

/// What few transactions carry: an account token, the error of a failed attempt.
struct TransactionDetails {
  var appAccountToken: String?
  var failure: SimulatedError?
  /// Apple's values of an imported transaction.
  var imported: ImportedDetails?
  /// A multiseat transaction's seat terms (each such transaction has details of its own).
  var seats: TransactionSeats?
  /// An Advanced Commerce transaction's terms (`advancedCommerceInfo`; each such transaction
  /// has details of its own).
  var commerce: CommerceTerms?
}
