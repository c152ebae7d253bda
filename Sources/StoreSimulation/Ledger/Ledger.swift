/// Every transaction the environment made, by id. Ids are consecutive from the first id and
/// never reused, so a record's position is its id minus the first id; deleted records stay as
/// tombstones. A ledger that holds records under ids it did not make (an imported customer's,
/// Apple's) keeps a table of positions by id instead, and gives new records the id after the
/// highest it holds.
///
/// The ledger keeps the indexes its readers need so that no read walks it: the unfinished
/// transactions, each product's last live transaction, and each lasting product's (non-consumable
/// or non-renewing) live, unrevoked purchases. Every change goes through ``append(_:details:)``
/// and ``update(_:_:)``, which keep them right.
struct Ledger {
  private(set) var records = ChunkedArray<TransactionRecord>()
  private(set) var details: [TransactionDetails] = []
  let firstID: UInt64
  private(set) var unfinishedCount = 0
  private(set) var liveCount = 0
  /// Positions of live, unfinished transactions (failed and pending attempts included),
  /// ascending, with up to as many again that were finished or deleted since (removed in bulk,
  /// so that finishing is O(1)).
  /// (32 bits a position: four bytes a transaction, not eight; in chunks, so that a change
  /// after a step back kept a copy of the session copies one chunk, not them all.)
  private var unfinishedCandidates = ChunkedArray<UInt32>()
  private var finishedCandidates = 0
  /// Each product's last live transaction's position, or -1; by product index.
  private var lastOfProduct: [Int] = []
  /// The last live transaction's position, or -1.
  private(set) var lastLive = -1
  /// Whether each product is lasting (non-consumable or non-renewing), by product index.
  private var lasting: [Bool] = []
  /// Each lasting product's live, purchased, unrevoked transactions' positions, ascending.
  private var holdings: [Int: [Int]] = [:]

  /// Positions by id, once a record was placed under an id the ledger did not make; `nil`
  /// while every id is `firstID` plus its position.
  private(set) var placed: [UInt64: Int]?
  /// The highest id held, while ``placed`` is kept (`nil` before the first record).
  private var highestPlaced: UInt64?

  init(firstID: UInt64) { self.firstID = firstID }

  /// The id the next record gets.
  var nextID: UInt64 {
    placed == nil ? firstID + UInt64(records.count) : highestPlaced.map { $0 &+ 1 } ?? firstID
  }

  /// The position of a live (not deleted) record.
  func position(of id: UInt64) -> Int? {
    if let placed {
      guard let position = placed[id] else { return nil }
      return records[position].isDeleted ? nil : position
    }
    guard id >= firstID, id - firstID < UInt64(records.count) else { return nil }
    let position = Int(id - firstID)
    return records[position].isDeleted ? nil : position
  }

  /// The position of the record with `id`, live or deleted.
  func anyPosition(of id: UInt64) -> Int? {
    if let placed { return placed[id] }
    guard id >= firstID, id - firstID < UInt64(records.count) else { return nil }
    return Int(id - firstID)
  }

  /// Whether any record (live or deleted) has `id`: an id placed again would be ambiguous.
  func holds(_ id: UInt64) -> Bool {
    if let placed { return placed[id] != nil }
    return id >= firstID && id - firstID < UInt64(records.count)
  }

  subscript(position: Int) -> TransactionRecord { records[position] }

  /// Appends a record with the next id, which it returns.
  @discardableResult
  mutating func append(
    _ record: TransactionRecord, details extra: TransactionDetails? = nil, id given: UInt64? = nil
  )
    -> UInt64
  {
    var record = record
    if let given, given != nextID || placed != nil { startPlacing() }
    record.id = given ?? nextID
    if placed != nil {
      precondition(placed?[record.id] == nil, "transaction id \(record.id) placed twice")
      placed?[record.id] = records.count
      highestPlaced = max(highestPlaced ?? record.id, record.id)
    }
    if let extra {
      record.details = Int32(details.count)
      details.append(extra)
    }
    if !record.flags.contains(.finished) { unfinishedCount += 1 }
    liveCount += 1
    records.append(record)
    index(records.count - 1, was: nil)
    return record.id
  }

  /// Keeps positions by id from now on (the ids held so far included).
  private mutating func startPlacing() {
    guard placed == nil else { return }
    var table: [UInt64: Int] = [:]
    for position in records.indices { table[records[position].id] = position }
    placed = table
    highestPlaced = records.isEmpty ? nil : records[records.count - 1].id
  }

  /// Clears the record's ``TransactionRecord/Flags/purchaseUntold`` when it is purchased:
  /// whether it did (its purchase is told now). The flag is in no index, so nothing else moves.
  mutating func takeUntoldPurchase(at position: Int) -> Bool {
    let record = records[position]
    guard record.flags.contains(.purchaseUntold), record.state == .purchased else { return false }
    records[position].flags.remove(.purchaseUntold)
    return true
  }

  /// Changes the record at `position`, keeping the counters and indexes right.
  mutating func update(_ position: Int, _ change: (inout TransactionRecord) -> Void) {
    let before = records[position]
    change(&records[position])
    let after = records[position]
    let wasCounted = !before.flags.contains(.finished) && !before.isDeleted
    let isCounted = !after.flags.contains(.finished) && !after.isDeleted
    unfinishedCount += (isCounted ? 1 : 0) - (wasCounted ? 1 : 0)
    if after.isDeleted && !before.isDeleted { liveCount -= 1 }
    index(position, was: before)
  }

  /// Sets the app account token of the record at `position` (and of the renewals that share
  /// its details, which belong to the same purchase).
  mutating func setAppAccountToken(_ token: String?, at position: Int) {
    let index = records[position].details
    if index >= 0 {
      details[Int(index)].appAccountToken = token
    } else if let token {
      records[position].details = Int32(details.count)
      details.append(TransactionDetails(appAccountToken: token))
    }
  }

  /// Changes the details of a multiseat record at `position` (each has details of its own:
  /// no other record shares them); another record's become its own first.
  mutating func updateDetails(at position: Int, _ change: (inout TransactionDetails) -> Void) {
    let index = records[position].details
    if index >= 0, details[Int(index)].seats != nil {
      change(&details[Int(index)])
      return
    }
    var own = details(of: records[position]) ?? TransactionDetails()
    change(&own)
    records[position].details = Int32(details.count)
    details.append(own)
  }

  /// What a renewal of the record at `position` carries: its purchase's details, shared by
  /// index; for an imported period, whose details are its own (Apple's line item id), none shared
  /// and a fresh one with only the account token.
  func renewalDetails(of position: Int) -> (shared: Int32, own: TransactionDetails?) {
    let index = records[position].details
    guard index >= 0, details[Int(index)].imported != nil else { return (index, nil) }
    return (-1, details[Int(index)].appAccountToken.map { TransactionDetails(appAccountToken: $0) })
  }

  func details(of record: TransactionRecord) -> TransactionDetails? {
    record.details >= 0 ? details[Int(record.details)] : nil
  }

  // MARK: - Indexes

  /// The live, unfinished transactions' positions (failed and pending attempts included),
  /// ascending.
  var unfinished: [Int] {
    unfinishedCandidates.lazy.map(Int.init).filter { isUnfinished(records[$0]) }
  }

  /// The first live, unfinished transaction at or after `position`, if any.
  func firstUnfinished(atOrAfter position: Int) -> Int? {
    var index = unfinishedCandidates.insertionIndex(of: UInt32(clamping: position))
    while index < unfinishedCandidates.count {
      let candidate = Int(unfinishedCandidates[index])
      if isUnfinished(records[candidate]) { return candidate }
      index += 1
    }
    return nil
  }

  /// The last live transaction of product `product`, if any.
  func lastPosition(ofProduct product: Int32) -> Int? {
    let index = Int(product)
    guard lastOfProduct.indices.contains(index), lastOfProduct[index] >= 0 else { return nil }
    return lastOfProduct[index]
  }

  /// The live, purchased, unrevoked transactions of lasting product `product`, ascending.
  func holdings(ofProduct product: Int32) -> [Int] { holdings[Int(product)] ?? [] }

  /// The positions of every lasting product's live, purchased, unrevoked transactions.
  var allHoldings: [Int] { holdings.values.flatMap { $0 } }

  /// Sets which products are lasting (by product index) and rebuilds what depends on it.
  mutating func setLastingProducts(_ lasting: [Bool]) {
    guard lasting != self.lasting else { return }
    self.lasting = lasting
    holdings = [:]
    for position in records.indices where isHolding(records[position]) {
      holdings[Int(records[position].product), default: []].append(position)
    }
  }

  private func isUnfinished(_ record: TransactionRecord) -> Bool {
    !record.isDeleted && !record.flags.contains(.finished)
  }

  private func isHolding(_ record: TransactionRecord) -> Bool {
    let product = Int(record.product)
    return !record.isDeleted && record.state == .purchased && !record.isRevoked
      && lasting.indices.contains(product) && lasting[product]
  }

  /// Brings the indexes up to date with the record at `position`, which was `old` before.
  private mutating func index(_ position: Int, was old: TransactionRecord?) {
    let record = records[position]
    let product = Int(record.product)
    let wasUnfinished = old.map(isUnfinished) ?? false
    if wasUnfinished && !isUnfinished(record) {
      finishedCandidates += 1
      if finishedCandidates > unfinishedCandidates.count / 2 {
        unfinishedCandidates = ChunkedArray(unfinished.lazy.map(UInt32.init))
        finishedCandidates = 0
      }
    } else if !wasUnfinished && isUnfinished(record) {
      // A new record (past every candidate) first: no search.
      if unfinishedCandidates.last.map({ $0 < UInt32(position) }) ?? true {
        unfinishedCandidates.append(UInt32(position))
      } else if unfinishedCandidates.sortedIndex(of: UInt32(position)) != nil {
        finishedCandidates -= 1
      } else {
        // An older record unfinished again (not something the engine does today): in order.
        unfinishedCandidates = ChunkedArray(
          (unfinished + [position]).sorted().lazy.map(UInt32.init))
        finishedCandidates = 0
      }
    }
    if (old.map(isHolding) ?? false) != isHolding(record) {
      holdings[product, default: []].setMembership(of: position, isHolding(record))
    }
    if old == nil {
      if lastOfProduct.count <= product {
        lastOfProduct += Array(repeating: -1, count: product + 1 - lastOfProduct.count)
      }
      lastOfProduct[product] = position
      lastLive = position
    } else if record.isDeleted && !(old?.isDeleted ?? true) {
      if lastOfProduct[product] == position {
        lastOfProduct[product] =
          records[..<position].lastIndex { !$0.isDeleted && $0.product == record.product } ?? -1
      }
      if lastLive == position { lastLive = records[..<position].lastIndex { !$0.isDeleted } ?? -1 }
    }
  }

  /// The first index that disagrees with a walk of the ledger, or `nil`.
  ///
  /// - Complexity: O(*n*); for the invariant checks.
  func indexViolation() -> String? {
    var unfinishedPositions: [Int] = []
    var last = -1
    var lastOf = [Int](repeating: -1, count: lastOfProduct.count)
    var expected: [Int: [Int]] = [:]
    for position in records.indices {
      let record = records[position]
      if isUnfinished(record) { unfinishedPositions.append(position) }
      if isHolding(record) { expected[Int(record.product), default: []].append(position) }
      guard !record.isDeleted else { continue }
      last = position
      if Int(record.product) < lastOf.count { lastOf[Int(record.product)] = position }
    }
    if unfinished != unfinishedPositions { return "the unfinished index drifted" }
    if lastLive != last { return "the last live transaction drifted" }
    if let product = lastOf.indices.first(where: { lastOf[$0] != lastOfProduct[$0] }) {
      return "product \(product)'s last transaction drifted"
    }
    if expected != holdings.filter({ !$0.value.isEmpty }) { return "the holdings index drifted" }
    return nil
  }
}
