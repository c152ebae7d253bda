/// How the Transaction Manager labels a transaction now.
public enum LedgerState: String, CaseIterable, Sendable {
  /// Bought.
  case purchased
  /// A renewal.
  case renewed
  /// Ask to Buy: waiting for approval.
  case pending
  /// Ask to Buy declined.
  case declined
  /// An interrupted purchase waiting to be resolved.
  case interrupted
  /// The purchase failed.
  case failed
  /// Refunded (revoked): no longer an entitlement.
  case refunded
  /// Replaced by an upgrade.
  case upgraded
  /// A subscription period that ended without renewal.
  case expired
  /// The current period of a subscription in its billing grace period.
  case grace
  /// The current period of a subscription in billing retry.
  case retry
  /// The current period of a subscription with a price increase awaiting consent.
  case priceIncrease
  /// A family member's transaction, revoked (`FAMILY_REVOKE`).
  case revoked

  /// The label in at most 11 cells, for narrow tables: `in grace` is `grace`, `in billing
  /// retry` is `retry`, `pending approval` is `pending`.
  public var shortLabel: String {
    switch self {
    case .priceIncrease: "price incr."
    default: rawValue
    }
  }

  /// The case's number, written down once and never changed: the filter's bit sets use it and
  /// a ledger snapshot on disk writes it (a switch, so a row's test costs a jump).
  @inline(__always)
  var ordinal: Int {
    switch self {
    case .purchased: 0
    case .renewed: 1
    case .pending: 2
    case .declined: 3
    case .interrupted: 4
    case .failed: 5
    case .refunded: 6
    case .upgraded: 7
    case .expired: 8
    case .grace: 9
    case .retry: 10
    case .priceIncrease: 11
    case .revoked: 12
    }
  }

  /// The label people read: `in grace`, `price increase pending`.
  public var label: String {
    switch self {
    case .pending: "pending approval"
    case .grace: "in grace"
    case .retry: "in billing retry"
    case .priceIncrease: "price increase"
    default: rawValue
    }
  }
}

/// One transaction as the filter and the table see it: integers only, cheap to scan by the
/// million.
public struct LedgerRow: Equatable, Sendable {

  /// The transaction's id.
  public var id: UInt64
  /// The id of the run's first purchase (its original transaction).
  public var originalID: UInt64
  /// Its product's index in the catalog.
  public var product: Int32
  /// Its label now.
  public var state: LedgerState
  /// Its offer's kind index (in `OfferKind.allCases`) or -1.
  public var offerKind: Int8
  /// Its offer's index among the product's offers of that kind, or -1.
  public var offerIndex: Int16
  /// Its purchase date in milliseconds.
  public var purchaseDate: Int64
  /// Its expiration date in milliseconds, or `Int64.min`.
  public var expirationDate: Int64
  /// Whether the app has finished it.
  public var isFinished: Bool
}

extension LedgerRow {
  init(_ record: TransactionRecord, state: LedgerState) {
    self.init(
      id: record.id, originalID: record.originalID, product: record.product, state: state,
      offerKind: record.offerIndex >= 0 ? Int8(record.offerKind) : -1,
      offerIndex: record.offerIndex, purchaseDate: record.purchaseDate,
      expirationDate: record.expirationDate, isFinished: record.flags.contains(.finished))
  }
}

extension Session {
  /// Every transaction as a row, oldest first.
  ///
  /// - Complexity: O(*n*), allocation of one array.
  public func ledgerRows() -> [LedgerRow] {
    var rows: [LedgerRow] = []
    rows.reserveCapacity(ledger.liveCount)
    for position in ledger.records.indices where !ledger[position].isDeleted {
      rows.append(row(position))
    }
    return rows
  }

  /// Calls `body` with every transaction's row, oldest first, without collecting them.
  public func forEachLedgerRow(_ body: (LedgerRow) throws -> Void) rethrows {
    for position in ledger.records.indices where !ledger[position].isDeleted {
      try body(row(position))
    }
  }

  /// How the table names a transaction's state (for messages).
  func stateLabel(_ position: Int) -> String { state(of: ledger[position]).label }

  /// The row of one transaction.
  public func ledgerRow(_ id: UInt64) -> LedgerRow? { ledger.position(of: id).map(row) }

  private func row(_ position: Int) -> LedgerRow {
    let record = ledger[position]
    return LedgerRow(record, state: state(of: record))
  }

  func state(of record: TransactionRecord) -> LedgerState {
    switch record.state {
    case .failed: return record.flags.contains(.purchaseIssue) ? .interrupted : .failed
    case .deferred: return record.flags.contains(.pendingApproval) ? .pending : .declined
    case .purchased: break
    }
    if record.isRevoked { return account.isPurchaser ? .refunded : .revoked }
    if record.flags.contains(.upgraded) { return .upgraded }
    let base: LedgerState = record.flags.contains(.renewal) ? .renewed : .purchased
    guard let groupIndex = product(at: record.product).groupIndex,
      groups[groupIndex].current == record.id, groups[groupIndex].phase != .none
    else { return base }
    switch groups[groupIndex].phase {
    case .gracePeriod: return .grace
    case .billingRetry: return .retry
    case .expired: return .expired
    case .revoked: return account.isPurchaser ? .refunded : .revoked
    case .subscribed, .none:
      return groups[groupIndex].priceIncrease == .pending ? .priceIncrease : base
    }
  }
}
