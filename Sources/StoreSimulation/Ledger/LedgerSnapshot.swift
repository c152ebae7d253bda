import StoreConfiguration
import StoreJSON

/// A session's transactions, frozen: every live transaction with its label, readable without the
/// session. It encodes to bytes (``encoded(_:)``) and decodes back checked
/// (``init(decoding:from:catalog:)``), so a copy can be kept beside a journal and listed without
/// replaying it; its rows and transactions are the session's own, made by the same mapping.
public struct LedgerSnapshot: Sendable {
  /// The catalog the transactions name products and offers from, by index.
  public let catalog: Catalog
  /// How many transactions it holds.
  public let count: Int
  /// The session's clock when the snapshot was made (relative filter dates count from it).
  public let now: Instant
  /// Whose transactions they are: the purchaser's, or a family member's (a member's view is
  /// never saved: decoded snapshots are the purchaser's).
  public private(set) var owner = Account.purchaser
  /// The session's time rate when the snapshot was made (a monthly plan's commitment end is
  /// stepped at it).
  public let timeRate: TimeRate
  private let storefronts: [Storefront]
  private let details: [TransactionDetails]
  /// Where the customer's subscription stood, and their device's storefront (a customers
  /// listing reads them: ``customerSummary()``).
  private let standing: CustomerSummary.Standing?
  private let device: Storefront
  /// The records, ``recordSize`` bytes each from `recordsStart`, as ``encoded(_:)`` laid them.
  private let bytes: [UInt8]
  private let recordsStart: Int

  /// Bytes per record: the record's integers and its label.
  public static let recordSize = 80

  /// The row of transaction `index` (oldest first).
  public func row(_ index: Int) -> LedgerRow {
    let (record, state) = self[index]
    return LedgerRow(record, state: state)
  }

  /// Transaction `index` (oldest first), as the session reports it.
  public func transaction(_ index: Int) -> Transaction {
    let (record, _) = self[index]
    return Transaction(
      record, catalog: catalog, storefront: storefronts[Int(record.storefront)],
      details: record.details >= 0 ? details[Int(record.details)] : nil, owner: owner,
      rate: timeRate)
  }

  /// The customer as a list of customers shows them (``Session/customerSummaries()``'s line
  /// for them), without the session.
  ///
  /// - Complexity: O(*n*) in the transactions.
  public func customerSummary() -> CustomerSummary {
    CustomerSummary(
      customer: owner.customer, records: (0..<count).lazy.map { self[$0].0 },
      storefronts: storefronts, device: device, standing: standing, catalog: catalog)
  }

  private subscript(index: Int) -> (TransactionRecord, LedgerState) {
    precondition(index >= 0 && index < count, "no transaction \(index) in the snapshot")
    return bytes.withUnsafeBytes { raw in
      Self.record(raw, at: recordsStart + index * Self.recordSize)!
    }
  }
}

extension Session {
  /// The session's live transactions and their labels now, frozen.
  ///
  /// - Complexity: O(*n*), ``LedgerSnapshot/recordSize`` bytes a transaction.
  public func ledgerSnapshot() -> LedgerSnapshot {
    LedgerSnapshot(session: self)
  }
}

// MARK: - Bytes

extension LedgerSnapshot {
  /// How many bytes ``encoded(_:)`` hands out.
  public var encodedCount: Int {
    var total = 0
    encoded { total += $0.count }
    return total
  }

  /// Hands out the snapshot's bytes, in order, in pieces (without copying the records).
  ///
  /// The little-endian layout: the session's now (milliseconds), its time rate (raw value),
  /// storefronts (count, country codes), the device's storefront, the standing (a status byte,
  /// 0 for none, else 1 + its place in `RenewalState.allCases`, plus 128 for a member's seat;
  /// product, original id, since),
  /// details (count, each a presence byte, a token, a failure's qualified name, multiseat terms,
  /// Advanced Commerce terms as JSON),
  /// then the
  /// records (count, ``recordSize`` bytes each), their enumerations by ``SnapshotCode``.
  public func encoded(_ piece: (UnsafeRawBufferPointer) -> Void) {
    var out = BinaryOut()
    out.i64(now.milliseconds)
    out.u32(UInt32(timeRate.rawValue))
    out.u32(UInt32(storefronts.count))
    for storefront in storefronts { out.string(storefront.countryCode) }
    out.string(device.countryCode)
    out.u8(
      standing.map {
        UInt8(RenewalState.allCases.firstIndex(of: $0.status)! + 1) | ($0.isAssigned ? 0x80 : 0)
      } ?? 0)
    out.u32(UInt32(bitPattern: standing?.product ?? 0))
    out.u64(standing?.originalID ?? 0)
    out.i64(standing?.since ?? 0)
    out.u32(UInt32(details.count))
    for detail in details {
      out.u8(
        (detail.appAccountToken == nil ? 0 : 1) | (detail.failure == nil ? 0 : 2)
          | (detail.seats == nil ? 0 : 4) | (detail.commerce == nil ? 0 : 8))
      if let token = detail.appAccountToken { out.string(token) }
      if let failure = detail.failure {
        out.string("\(failure.family).\(failure.name)")
      }
      if let seats = detail.seats { out.seats(seats) }
      if let terms = detail.commerce {
        out.string(JSONWriter.compact(terms.payload(kept: true)))
      }
    }
    out.u64(UInt64(count))
    out.bytes.withUnsafeBytes(piece)
    bytes.withUnsafeBytes { piece(UnsafeRawBufferPointer(rebasing: $0[recordsStart...])) }
  }

  /// Decodes what ``encoded(_:)`` handed out, from `start` to `end` (the end of `bytes` by
  /// default), checking every index against `catalog` and every enumeration's value: `nil` when
  /// anything does not hold, so a damaged copy is never read. `owner` is whose they are (a
  /// customer's; a member's view is never saved).
  public init?(
    decoding bytes: [UInt8], from start: Int = 0, to end: Int? = nil, catalog: Catalog,
    owner: Account = .purchaser
  ) {
    let end = end ?? bytes.count
    guard start >= 0, start <= end, end <= bytes.count else { return nil }
    var reader = BinaryIn(bytes: bytes, offset: start)
    var storefronts: [Storefront] = []
    var details: [TransactionDetails] = []
    guard let now = reader.u64(), let rate = reader.u32().flatMap({ TimeRate(rawValue: Int($0)) }),
      let storefrontCount = reader.u32(), storefrontCount <= 256
    else { return nil }
    for _ in 0..<storefrontCount {
      guard let code = reader.string(), let storefront = Storefront(countryCode: code) else {
        return nil
      }
      storefronts.append(storefront)
    }
    guard let deviceCode = reader.string(), let device = Storefront(countryCode: deviceCode),
      let statusByte = reader.u8(), Int(statusByte & 0x7F) <= RenewalState.allCases.count,
      let product = reader.u32().map({ Int32(bitPattern: $0) }), let original = reader.u64(),
      let since = reader.u64().map({ Int64(bitPattern: $0) })
    else { return nil }
    var standing: CustomerSummary.Standing?
    let statusCode = statusByte & 0x7F
    if statusCode > 0 {
      guard product >= 0, Int(product) < catalog.products.count else { return nil }
      standing = CustomerSummary.Standing(
        status: RenewalState.allCases[Int(statusCode) - 1], product: product,
        originalID: original, since: since, isAssigned: statusByte & 0x80 != 0)
    }
    guard let detailCount = reader.u32(), Int(detailCount) <= bytes.count else { return nil }
    for _ in 0..<detailCount {
      guard let detail = reader.details() else { return nil }
      details.append(detail)
    }
    guard let count = reader.u64(), count <= UInt64(end / Self.recordSize),
      reader.offset + Int(count) * Self.recordSize == end
    else { return nil }
    let recordsStart = reader.offset
    let valid = bytes.withUnsafeBytes { raw in
      (0..<Int(count)).allSatisfy { index in
        guard let (record, _) = Self.record(raw, at: recordsStart + index * Self.recordSize)
        else { return false }
        return Int(record.product) < catalog.products.count
          && Int(record.storefront) < storefronts.count
          && record.details >= -1 && Int(record.details) < details.count

      }
    }
    guard valid else { return nil }
    self.standing = standing
    self.device = device
    self.owner = owner
    self.catalog = catalog
    self.count = Int(count)
    self.now = Instant(milliseconds: Int64(bitPattern: now))
    self.timeRate = rate
    self.storefronts = storefronts
    self.details = details
    self.bytes = bytes
    self.recordsStart = recordsStart
  }

  fileprivate init(session: Session) {
    let ledger = session.ledger
    var out = BinaryOut()
    out.bytes.reserveCapacity(ledger.liveCount * Self.recordSize)
    for position in ledger.records.indices where !ledger[position].isDeleted {
      let record = ledger[position]
      out.i64(Int64(bitPattern: record.id))
      out.i64(Int64(bitPattern: record.originalID))
      out.i64(record.purchaseDate)
      out.i64(record.originalPurchaseDate)
      out.i64(record.expirationDate)
      out.i64(record.revocationDate)
      out.i64(record.price)
      out.u32(UInt32(bitPattern: record.product))
      out.u32(UInt32(bitPattern: record.quantity))
      out.u16(UInt16(bitPattern: record.offerIndex))
      out.u8(SnapshotCode.code(offerKind: record.offerKind))
      out.u8(record.storefront)
      out.u8(SnapshotCode.code(record.state))
      out.u16(record.flags.rawValue)
      out.u32(UInt32(bitPattern: record.details))
      out.u32(UInt32(bitPattern: record.refundedShare))
      out.u8(SnapshotCode.code(session.state(of: record)))
    }
    catalog = session.catalog
    now = session.now
    owner = session.account
    standing = Session.standing(of: session.groups)
    device = session.settings.storefront
    timeRate = session.settings.timeRate
    count = out.bytes.count / Self.recordSize
    storefronts = session.storefronts
    details = ledger.details
    bytes = out.bytes
    recordsStart = 0
  }

  /// The record and label at `offset`, or `nil` when an enumeration's value is out of range.
  private static func record(
    _ raw: UnsafeRawBufferPointer, at offset: Int
  ) -> (TransactionRecord, LedgerState)? {
    func load<T: FixedWidthInteger>(_ at: Int, _: T.Type) -> T {
      T(littleEndian: raw.loadUnaligned(fromByteOffset: offset + at, as: T.self))
    }
    guard let state = SnapshotCode.state(load(68, UInt8.self)),
      let offerKind = SnapshotCode.offerKind(load(66, UInt8.self)),
      let label = SnapshotCode.label(load(79, UInt8.self))
    else { return nil }
    let record = TransactionRecord(
      id: UInt64(bitPattern: load(0, Int64.self)),
      originalID: UInt64(bitPattern: load(8, Int64.self)), purchaseDate: load(16, Int64.self),
      originalPurchaseDate: load(24, Int64.self), expirationDate: load(32, Int64.self),
      revocationDate: load(40, Int64.self), price: load(48, Int64.self),
      product: load(56, Int32.self), quantity: load(60, Int32.self),
      offerIndex: load(64, Int16.self), offerKind: offerKind,
      storefront: load(67, UInt8.self), state: state,
      flags: TransactionRecord.Flags(rawValue: load(69, UInt16.self)),
      details: load(71, Int32.self), refundedShare: load(75, Int32.self))
    return (record, label)
  }
}

/// Little-endian integers and length-prefixed strings into bytes.
private struct BinaryOut {
  var bytes: [UInt8] = []
  mutating func u8(_ value: UInt8) { bytes.append(value) }
  mutating func u16(_ value: UInt16) { integer(value) }
  mutating func u32(_ value: UInt32) { integer(value) }
  mutating func u64(_ value: UInt64) { integer(value) }
  mutating func i64(_ value: Int64) { integer(value) }
  mutating func string(_ text: String) {
    u32(UInt32(text.utf8.count))
    bytes.append(contentsOf: text.utf8)
  }
  private mutating func integer<T: FixedWidthInteger>(_ value: T) {
    withUnsafeBytes(of: value.littleEndian) { bytes.append(contentsOf: $0) }
  }
}

/// Reads what ``BinaryOut`` wrote; `nil` past the end.
private struct BinaryIn {
  let bytes: [UInt8]
  var offset: Int
  mutating func u8() -> UInt8? { integer() }
  mutating func u16() -> UInt16? { integer() }
  mutating func u32() -> UInt32? { integer() }
  mutating func u64() -> UInt64? { integer() }
  mutating func string() -> String? {
    guard let length = u32(), Int(length) <= bytes.count - offset else { return nil }
    defer { offset += Int(length) }
    return String(decoding: bytes[offset..<offset + Int(length)], as: UTF8.self)
  }
  private mutating func integer<T: FixedWidthInteger>() -> T? {
    guard bytes.count - offset >= MemoryLayout<T>.size else { return nil }
    defer { offset += MemoryLayout<T>.size }
    return bytes.withUnsafeBytes {
      T(littleEndian: $0.loadUnaligned(fromByteOffset: offset, as: T.self))
    }
  }
}

// A multiseat transaction's terms: a byte of flags (developer-hosted, seat addition, the added
// seats' own, refunded seats, a member's), the refunded seats and the purchaser's original id
// when there are, then the tiers (a count byte; each a price and a quantity).
extension BinaryOut {
  fileprivate mutating func seats(_ seats: TransactionSeats) {
    let flags: UInt8 =
      (seats.invitations == .developer ? 1 : 0) | (seats.seatAddition ? 2 : 0)
      | (seats.isAddition ? 4 : 0) | (seats.revoked == nil ? 0 : 8)
      | (seats.assignedBy == nil ? 0 : 16)
    u8(flags)
    if let revoked = seats.revoked { u32(UInt32(clamping: revoked)) }
    if let purchaser = seats.assignedBy { u64(purchaser) }
    let tiers = seats.tiers.prefix(Int(UInt8.max))
    u8(UInt8(tiers.count))
    for tier in tiers {
      i64(tier.price)
      u32(UInt32(clamping: tier.quantity))
    }
  }
}

extension BinaryIn {
  /// A transaction's details as ``LedgerSnapshot/encoded(_:)`` lays them: a presence byte,
  /// then a token, a failure's qualified name, multiseat terms, Advanced Commerce terms (JSON).
  fileprivate mutating func details() -> TransactionDetails? {
    guard let presence = u8(), presence < 16 else { return nil }
    var detail = TransactionDetails()
    if presence & 1 != 0 {
      guard let token = string() else { return nil }
      detail.appAccountToken = token
    }
    if presence & 2 != 0 {
      guard let name = string(), let failure = SimulatedError(name: name) else { return nil }
      detail.failure = failure
    }
    if presence & 4 != 0 {
      guard let seats = seats() else { return nil }
      detail.seats = seats
    }
    if presence & 8 != 0 {
      guard let text = string(),
        case .object(let object)? = try? JSONParser.parse(Array(text.utf8)).root,
        let terms = CommerceTerms(kept: object)
      else { return nil }
      detail.commerce = terms
    }
    return detail
  }

  fileprivate mutating func seats() -> TransactionSeats? {
    guard let flags = u8(), flags < 32 else { return nil }
    var seats = TransactionSeats(
      invitations: flags & 1 != 0 ? .developer : .apple, tiers: [], revoked: nil,
      seatAddition: flags & 2 != 0, isAddition: flags & 4 != 0)
    if flags & 8 != 0 {
      guard let revoked = u32() else { return nil }
      seats.revoked = Int(revoked)
    }
    if flags & 16 != 0 {
      guard let purchaser = u64() else { return nil }
      seats.assignedBy = purchaser
    }
    guard let count = u8() else { return nil }
    for _ in 0..<count {
      guard let price = u64(), let quantity = u32() else { return nil }
      seats.tiers.append(SeatCharge(price: Int64(bitPattern: price), quantity: Int(quantity)))
    }
    return seats
  }
}
