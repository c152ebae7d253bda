import StoreSimulation

/// The transaction table's state: every transaction as a row, the filter, the rows it lets
/// through (newest first), the selection and the status bar's counts.
package struct TransactionTable {
  /// Every transaction, ascending id (in chunks: a new row never moves a million others).
  package internal(set) var rows = ChunkedArray<LedgerRow>()
  /// Positions in `rows` that pass the filter, newest first.
  package var visible: NewestFirst { NewestFirst(ascending: matching) }
  /// Positions in `rows` that pass the filter, ascending (so that new rows append).
  private var matching: [Int] = []
  /// The selected transaction, kept while rows arrive.
  package internal(set) var selectedID: UInt64?
  /// The selected transaction's index in `visible`, kept with `selectedID`.
  package internal(set) var selectedIndex: Int?
  /// Whether the selection follows the newest row as rows arrive, as a log viewer's tail does:
  /// while the newest row is selected, or none was chosen. Choosing another row stops it;
  /// choosing the newest again starts it.
  package private(set) var followsNewest = true
  /// The filter in force.
  package internal(set) var filter = TransactionFilter.all
  /// Why the last filter typed does not parse (the last valid one stays).
  package internal(set) var filterError: String?
  /// What the status bar counts.
  var pendingCounts = PendingCounts()
  /// Products the customer is entitled to now (recomputed when events arrive, not per frame).
  var entitledProducts: Set<String> = []
  private var compiledFilter: CompiledTransactionFilter
  /// The session's now as the clock shows it: the filter's relative dates (`today`, `7d`)
  /// count from it.
  private(set) var now: Instant
  /// Each subscription group's current transaction: its row's label (grace, expired …) depends
  /// on being current, so the one a status replaces is updated too.
  private var currentOfGroup: [String: UInt64] = [:]

  /// The table of a session's transactions.
  init(_ session: SessionView) {
    now = session.now
    compiledFilter = TransactionFilter.all.compiled(for: session.catalog, now: session.now)
    reload(session)
  }

  /// The selected transaction's row.
  var selectedRow: LedgerRow? {
    selectedID.flatMap { id in position(of: id).map { rows[$0] } }
  }

  /// Rebuilds every row from the session (after a load or a reload).
  mutating func reload(_ session: SessionView) {
    now = max(now, session.now)
    compiledFilter = filter.compiled(for: session.catalog, now: now)
    rows = Self.rows(of: session)
    entitledProducts = Set(session.currentEntitlements().map(\.productID))
    rememberCurrentTransactions(session)
    refilter()
  }

  private static func rows(of session: SessionView) -> ChunkedArray<LedgerRow> {
    var rows = ChunkedArray<LedgerRow>()
    session.forEachLedgerRow { rows.append($0) }
    return rows
  }

  private mutating func rememberCurrentTransactions(_ session: SessionView) {
    currentOfGroup = Dictionary(
      session.subscriptionStatuses().map { ($0.groupID, $0.transactionID) },
      uniquingKeysWith: { $1 })
  }

  /// Updates the rows from events, touching only the rows they name: a renewal tick on a
  /// million rows costs what it costs on ten. Removals, and batches that change a large share
  /// of the rows (finishing them all), rebuild. While catching up (`refiltering` false) the
  /// visible rows and entitlements wait for the end.
  mutating func absorb(_ events: [StoreEvent], from session: SessionView, refiltering: Bool) {
    var changed: [UInt64] = []
    var removed = false
    for event in events {
      switch event.kind {
      case .transaction(let transaction, _): changed.append(transaction.id)
      case .status(let status):
        changed.append(status.transactionID)
        if let previous = currentOfGroup.updateValue(status.transactionID, forKey: status.groupID),
          previous != status.transactionID
        {
          changed.append(previous)
        }
      case .transactionRemoved: removed = true
      default: break
      }
    }
    if removed || changed.count > max(64, rows.count / 8) {
      rows = Self.rows(of: session)
      rememberCurrentTransactions(session)
      if refiltering { refresh(session) }
      return
    }
    var consistent = true
    for id in Set(changed).sorted() {
      guard let row = session.ledgerRow(id) else { continue }
      if rows.last.map({ $0.id < id }) ?? true {
        rows.append(row)
        pendingCounts.count(row)
        if compiledFilter.matches(row) { matching.append(rows.count - 1) }
      } else if let index = position(of: id) {
        replace(at: index, with: row)
      } else {
        rows.append(row)
        rows.sort { $0.id < $1.id }
        consistent = false
      }
    }
    guard refiltering else { return }
    if consistent {
      entitledProducts = Set(session.currentEntitlements().map(\.productID))
      keepSelection()
    } else {
      refresh(session)
    }
  }

  /// Brings the rows in line with `session` after a step back, reading only `ids` (those that
  /// may differ, ``SessionView/idsThatMayDiffer(from:)``): rows taken back at the end go, the
  /// others are read again, and the filter and counts follow row by row; when a transaction
  /// came back or went in the middle, every row is read again. The ids whose rows changed.
  mutating func stepBack(to session: SessionView, rereading ids: [UInt64]) -> Set<UInt64> {
    var changed = Set<UInt64>()
    var cut: Int?
    for id in ids {
      let row = session.ledgerRow(id)
      let position = position(of: id)
      switch (row, position) {
      case (let row?, let position?):
        if cut != nil { return changed.union(reloadTellingChanges(session)) }
        guard rows[position] != row else { continue }
        replace(at: position, with: row)
        changed.insert(id)
      case (nil, let position?):
        cut = min(cut ?? position, position)
      case (let row?, nil):
        guard cut == nil, rows.last.map({ $0.id < id }) ?? true else {
          return changed.union(reloadTellingChanges(session))
        }
        rows.append(row)
        pendingCounts.count(row)
        if compiledFilter.matches(row) { matching.append(rows.count - 1) }
        changed.insert(id)
      case (nil, nil): continue
      }
    }
    if let cut {
      // What was taken back is the rows' end, or the rows are read again.
      let gone = rows.count - cut
      guard ids.filter({ position(of: $0).map { $0 >= cut } ?? false }).count == gone else {
        return changed.union(reloadTellingChanges(session))
      }
      for position in cut..<rows.count { pendingCounts.count(rows[position], removing: true) }
      rows.removeLast(gone)
      matching.removeSubrange(matching.insertionIndex(of: cut)...)
    }
    entitledProducts = Set(session.currentEntitlements().map(\.productID))
    rememberCurrentTransactions(session)
    keepSelection()
    return changed
  }

  /// Reads every row again; the ids of rows there before and after whose rows differ (both
  /// ascending by id: one walk).
  mutating func reloadTellingChanges(_ session: SessionView) -> Set<UInt64> {
    let before = rows
    reload(session)
    var changed = Set<UInt64>()
    var old = before.startIndex
    for row in rows {
      while old < before.endIndex && before[old].id < row.id { old += 1 }
      if old < before.endIndex && before[old].id == row.id && before[old] != row {
        changed.insert(row.id)
      }
    }
    return changed
  }

  /// Puts a row read again in place, with the filter's and the counts' share.
  private mutating func replace(at position: Int, with row: LedgerRow) {
    let old = rows[position]
    rows[position] = row
    pendingCounts.count(old, removing: true)
    pendingCounts.count(row)
    let was = compiledFilter.matches(old)
    let now = compiledFilter.matches(row)
    if was != now { matching.setMembership(of: position, now) }
  }

  /// Selects a transaction by id, when it is visible.
  mutating func select(id: UInt64) {
    guard let position = position(of: id), let index = matching.sortedIndex(of: position)
    else { return }
    select(visibleIndex: matching.count - 1 - index)
  }

  /// Keeps the selected transaction selected when it is still visible, else selects the newest;
  /// selects the newest while the selection follows it.
  private mutating func keepSelection() {
    if !followsNewest, let id = selectedID, let position = position(of: id),
      let index = matching.sortedIndex(of: position)
    {
      selectedIndex = matching.count - 1 - index
    } else {
      selectedIndex = matching.isEmpty ? nil : 0
      selectedID = matching.last.map { rows[$0].id }
    }
  }

  /// Entitlements and visible rows brought up to date (after a catch-up's last step).
  mutating func refresh(_ session: SessionView) {
    entitledProducts = Set(session.currentEntitlements().map(\.productID))
    refilter()
  }

  /// The index in `rows` of a transaction id.
  func position(of id: UInt64) -> Int? {
    var low = 0
    var high = rows.count - 1
    while low <= high {
      let middle = (low + high) / 2
      if rows[middle].id == id { return middle }
      if rows[middle].id < id { low = middle + 1 } else { high = middle - 1 }
    }
    return nil
  }

  /// Recomputes the visible rows (newest first) and the status bar's counts in one pass; keeps
  /// the selection when it is still visible, else selects the newest.
  mutating func refilter(recounting: Bool = true) {
    var result: [Int] = []
    result.reserveCapacity(filter.isEmpty ? rows.count : rows.count / 4)
    var counts = PendingCounts()
    let filter = compiledFilter
    // A chunk at a time, without an iterator per row: the debug build `swift run` makes pays
    // for every abstraction of a per-row loop.
    rows.forEachChunk { chunk, base in
      for offset in 0..<chunk.count {
        if filter.matches(chunk[offset]) { result.append(base + offset) }
        if recounting { counts.count(chunk[offset]) }
      }
    }
    matching = result
    if recounting { pendingCounts = counts }
    keepSelection()
  }

  /// Selects the newest visible transaction, and follows the newest from then on.
  mutating func selectNewest() {
    selectedID = nil
    followsNewest = true
    refilter()
  }

  /// Sets the filter (relative dates count from the clock's now); an invalid one is
  /// explained and the last valid one stays.
  mutating func applyFilter(_ text: String, session: SessionView) {
    do throws(TransactionFilter.ParseError) {
      filter = try TransactionFilter(parsing: text)
      compiledFilter = filter.compiled(for: session.catalog, now: now)
      filterError = nil
      // The counts do not depend on the filter.
      refilter(recounting: false)
    } catch {
      filterError = error.message
    }
  }

  /// The clock shows a new instant: a filter with dates is compiled again against it, and the
  /// rows are filtered again when its spans moved (`today` after midnight, `7d` as time runs).
  mutating func clockMoved(to instant: Instant, session: SessionView) {
    guard instant != now else { return }
    now = instant
    guard filter.hasDates else { return }
    let recompiled = filter.compiled(for: session.catalog, now: instant)
    guard !recompiled.hasSameDates(as: compiledFilter) else { return }
    compiledFilter = recompiled
    refilter()
  }

  /// Selects the transaction at an index of `visible`.
  mutating func select(visibleIndex index: Int) {
    guard visible.indices.contains(index) else { return }
    selectedIndex = index
    selectedID = rows[visible[index]].id
    followsNewest = index == 0
  }

  /// Moves the selection by `delta` rows, stopping at either end.
  mutating func move(by delta: Int) {
    guard !visible.isEmpty else { return }
    let target = (selectedIndex ?? 0).addingReportingOverflow(delta).partialValue
    select(visibleIndex: max(0, min(visible.count - 1, target)))
  }
}

/// Row positions kept ascending, read newest first.
package struct NewestFirst: RandomAccessCollection {
  let ascending: [Int]
  package var startIndex: Int { 0 }
  package var endIndex: Int { ascending.count }
  package subscript(index: Int) -> Int { ascending[ascending.count - 1 - index] }
}

/// What the status bar counts.
struct PendingCounts: Equatable {
  var unfinished = 0
  var awaitingApproval = 0
  var withIssues = 0

  /// Counts one row (or takes it back out).
  mutating func count(_ row: LedgerRow, removing: Bool = false) {
    let step = removing ? -1 : 1
    switch row.state {
    case .pending: awaitingApproval += step
    case .interrupted: withIssues += step
    case .grace, .retry:
      withIssues += step
      if !row.isFinished { unfinished += step }
    case .failed, .declined: break
    default: if !row.isFinished { unfinished += step }
    }
  }
}

/// The first line shown of a list scrolled so that `selected` is visible.
func scrollTop(selected: Int, height: Int) -> Int { max(0, selected - max(1, height) + 1) }
