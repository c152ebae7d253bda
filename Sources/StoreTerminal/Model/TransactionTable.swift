import StoreSimulation

/// The transaction table's state: every transaction as a row, the filter, the rows it lets
/// through (newest first), the selection and the status bar's counts.
package struct TransactionTable {
  /// Every transaction, ascending id.
  package internal(set) var rows: [LedgerRow] = []
  /// Positions in `rows` that pass the filter, newest first.
  package internal(set) var visible: [Int] = []
  /// The selected transaction, kept while rows arrive.
  package internal(set) var selectedID: UInt64?
  /// The selected transaction's index in `visible`, kept with `selectedID`.
  package internal(set) var selectedIndex: Int?
  /// The filter in force.
  package internal(set) var filter = TransactionFilter.all
  /// Why the last filter typed does not parse (the last valid one stays).
  package internal(set) var filterError: String?
  /// What the status bar counts.
  var pendingCounts = PendingCounts()
  /// Products the customer is entitled to now (recomputed when events arrive, not per frame).
  var entitledProducts: Set<String> = []
  private var compiledFilter: CompiledTransactionFilter

  /// The table of a session's transactions.
  init(_ session: Session) {
    compiledFilter = TransactionFilter.all.compiled(for: session.catalog)
    reload(session)
  }

  /// The selected transaction's row.
  var selectedRow: LedgerRow? {
    selectedID.flatMap { id in position(of: id).map { rows[$0] } }
  }

  /// Rebuilds every row from the session (after a load or a reload).
  mutating func reload(_ session: Session) {
    compiledFilter = filter.compiled(for: session.catalog)
    rows = session.ledgerRows()
    entitledProducts = Set(session.currentEntitlements().map(\.productID))
    refilter()
  }

  /// Updates the rows from events. While catching up (`refiltering` false) the visible rows
  /// and entitlements wait for the end.
  mutating func absorb(_ events: [StoreEvent], from session: Session, refiltering: Bool) {
    var changed = Set<UInt64>()
    var removed = Set<UInt64>()
    for event in events {
      switch event.kind {
      case .transaction(let transaction, _): changed.insert(transaction.id)
      case .status(let status): changed.insert(status.transactionID)
      case .transactionRemoved(let id): removed.insert(id)
      default: break
      }
    }
    if !removed.isEmpty { rows.removeAll { removed.contains($0.id) } }
    for id in changed.sorted() {
      guard let row = session.ledgerRow(id) else { continue }
      if let last = rows.last, last.id < id {
        rows.append(row)
      } else if let index = position(of: id) {
        rows[index] = row
      } else {
        rows.append(row)
        rows.sort { $0.id < $1.id }
      }
    }
    if refiltering { refresh(session) }
  }

  /// Entitlements and visible rows brought up to date (after a catch-up's last step).
  mutating func refresh(_ session: Session) {
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
  mutating func refilter() {
    var result: [Int] = []
    result.reserveCapacity(filter.isEmpty ? rows.count : rows.count / 4)
    var counts = PendingCounts()
    var selectedPosition: Int?
    let selected = selectedID ?? .max
    var index = rows.count - 1
    while index >= 0 {
      let row = rows[index]
      if compiledFilter.matches(row) {
        if row.id == selected { selectedPosition = result.count }
        result.append(index)
      }
      counts.count(row)
      index -= 1
    }
    visible = result
    pendingCounts = counts
    if let selectedPosition {
      selectedIndex = selectedPosition
    } else {
      selectedIndex = visible.isEmpty ? nil : 0
      selectedID = visible.first.map { rows[$0].id }
    }
  }

  /// Selects the newest visible transaction.
  mutating func selectNewest() {
    selectedID = nil
    refilter()
  }

  /// Sets the filter; an invalid one is explained and the last valid one stays.
  mutating func applyFilter(_ text: String, catalog: Catalog) {
    do throws(TransactionFilter.ParseError) {
      filter = try TransactionFilter(parsing: text)
      compiledFilter = filter.compiled(for: catalog)
      filterError = nil
      refilter()
    } catch {
      filterError = error.message
    }
  }

  /// Selects the transaction at an index of `visible`.
  mutating func select(visibleIndex index: Int) {
    guard visible.indices.contains(index) else { return }
    selectedIndex = index
    selectedID = rows[visible[index]].id
  }

  /// Moves the selection by `delta` rows, stopping at either end.
  mutating func move(by delta: Int) {
    guard !visible.isEmpty else { return }
    let target = (selectedIndex ?? 0).addingReportingOverflow(delta).partialValue
    select(visibleIndex: max(0, min(visible.count - 1, target)))
  }
}

/// What the status bar counts.
struct PendingCounts: Equatable {
  var unfinished = 0
  var awaitingApproval = 0
  var withIssues = 0

  /// Counts one row.
  mutating func count(_ row: LedgerRow) {
    switch row.state {
    case .pending: awaitingApproval += 1
    case .interrupted: withIssues += 1
    case .grace, .retry:
      withIssues += 1
      if !row.isFinished { unfinished += 1 }
    case .failed, .declined: break
    default: if !row.isFinished { unfinished += 1 }
    }
  }
}

/// The first line shown of a list scrolled so that `selected` is visible.
func scrollTop(selected: Int, height: Int) -> Int { max(0, selected - max(1, height) + 1) }
