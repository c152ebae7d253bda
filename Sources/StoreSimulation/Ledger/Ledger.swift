/// Every transaction the environment made, by id. Ids are consecutive from the first id and
/// never reused, so a record's position is its id minus the first id; deleted records stay as
/// tombstones.
struct Ledger {
  private(set) var records: [TransactionRecord] = []
  private(set) var details: [TransactionDetails] = []
  let firstID: UInt64
  private(set) var unfinishedCount = 0
  private(set) var liveCount = 0

  init(firstID: UInt64) { self.firstID = firstID }

  /// The id the next record gets.
  var nextID: UInt64 { firstID + UInt64(records.count) }

  /// The position of a live (not deleted) record.
  func position(of id: UInt64) -> Int? {
    guard id >= firstID, id - firstID < UInt64(records.count) else { return nil }
    let position = Int(id - firstID)
    return records[position].isDeleted ? nil : position
  }

  subscript(position: Int) -> TransactionRecord { records[position] }

  /// Appends a record with the next id, which it returns.
  @discardableResult
  mutating func append(
    _ record: TransactionRecord, details extra: TransactionDetails? = nil
  )
    -> UInt64
  {
    var record = record
    record.id = nextID
    if let extra {
      record.details = Int32(details.count)
      details.append(extra)
    }
    if !record.flags.contains(.finished) { unfinishedCount += 1 }
    liveCount += 1
    records.append(record)
    return record.id
  }

  /// Changes the record at `position`, keeping the counters right.
  mutating func update(_ position: Int, _ change: (inout TransactionRecord) -> Void) {
    let wasDeleted = records[position].isDeleted
    let wasCounted = !records[position].flags.contains(.finished) && !wasDeleted
    change(&records[position])
    let isCounted = !records[position].flags.contains(.finished) && !records[position].isDeleted
    unfinishedCount += (isCounted ? 1 : 0) - (wasCounted ? 1 : 0)
    if records[position].isDeleted && !wasDeleted { liveCount -= 1 }
  }

  func details(of record: TransactionRecord) -> TransactionDetails? {
    record.details >= 0 ? details[Int(record.details)] : nil
  }

  /// Reserves room for `count` more records.
  mutating func reserve(_ count: Int) { records.reserveCapacity(records.count + count) }
}
