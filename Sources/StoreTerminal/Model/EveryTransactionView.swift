import StoreSimulation

/// Every customer's transactions at once (`t` in the customers view), newest first, with whose
/// each is: filtered in the table's language, `customer:<name>` narrowing to one customer.
/// Enter opens the customer with that transaction selected.
package struct EveryTransactionView: Equatable, Sendable, FilteredList {
  /// The rows, newest first, and the customer of each (an index into `customers`).
  private(set) var rows: [LedgerRow] = []
  private(set) var owners: [Int32] = []
  private(set) var customers: [Customer] = []
  /// The indices of `rows` the filter keeps.
  private(set) var shown: [Int] = []
  /// The filter as typed, whether it is being typed, and what is wrong with it.
  package var filter = TextInput()
  package var isFiltering = false
  package private(set) var filterError: String?
  /// The selected row (an index into `shown`).
  package private(set) var selected = 0
  /// The customers view it was opened from (Esc goes back to it).
  package var from: CustomersView
  private var madeFrom: Int?
  /// The filter `shown` was made with, and the customer it narrowed to.
  private var applied = TransactionFilter.all
  private var appliedCustomer: Int?

  package init(from: CustomersView) { self.from = from }

  package static func == (lhs: EveryTransactionView, rhs: EveryTransactionView) -> Bool {
    lhs.shown == rhs.shown && lhs.rows == rhs.rows && lhs.filter == rhs.filter
      && lhs.isFiltering == rhs.isFiltering && lhs.selected == rhs.selected && lhs.from == rhs.from
  }

  /// The selected row and its customer.
  package var selectedRow: (row: LedgerRow, customer: Customer)? {
    guard shown.indices.contains(selected) else { return nil }
    let index = shown[selected]
    return (rows[index], customers[Int(owners[index])])
  }

  /// The rows on screen from `first`, at most `count`, with their customers.
  package func page(from first: Int, count: Int) -> [(row: LedgerRow, customer: Customer)] {
    shown.dropFirst(first).prefix(count).map { (rows[$0], customers[Int(owners[$0])]) }
  }

  /// How many rows the filter keeps.
  package var shownCount: Int { shown.count }

  /// Reads every customer's transactions again when the session changed since.
  ///
  /// - Complexity: O(*n* log *n*) for *n* transactions when it changed, O(1) otherwise.
  mutating func refresh(_ session: SessionView, revision: Int) {
    guard madeFrom != revision else { return }
    madeFrom = revision
    var rows: [LedgerRow] = []
    var owners: [Int32] = []
    customers = []
    for (index, entry) in session.everyCustomersRows().enumerated() {
      customers.append(entry.customer)
      rows += entry.rows
      owners += repeatElement(Int32(index), count: entry.rows.count)
    }
    let order = rows.indices.sorted {
      (rows[$0].purchaseDate, rows[$0].id) > (rows[$1].purchaseDate, rows[$1].id)
    }
    self.rows = order.map { rows[$0] }
    self.owners = order.map { owners[$0] }
    shown = Array(self.rows.indices)
    applied = .all
    appliedCustomer = nil
    refilter(session)
  }

  /// Filters again (after the filter's text changed), from the top. A filter that does not
  /// parse is explained and the last one that did stays (as in the transaction table); one
  /// typed on from it looks only at the rows it kept.
  ///
  /// - Complexity: O(*n*) for *n* transactions, O(*k*) for the *k* kept when typed on.
  mutating func refilter(_ session: SessionView) {
    let parsed: TransactionFilter
    do throws(TransactionFilter.ParseError) {
      parsed = try TransactionFilter(parsing: filter.text)
      filterError = nil
    } catch {
      filterError = error.message
      return
    }
    let only = parsed.customer.map { name in customers.firstIndex { $0.name == name } ?? -1 }
    if let only, only < 0 { filterError = "customer:\(parsed.customer ?? ""): no such customer" }
    selected = 0
    guard parsed != applied || only != appliedCustomer else { return }
    let narrowing = parsed.narrows(applied) && (appliedCustomer == nil || only == appliedCustomer)
    let compiled = parsed.compiled(for: session.catalog, now: session.now)
    let candidates = narrowing ? shown : Array(rows.indices)
    var kept: [Int] = []
    kept.reserveCapacity(candidates.count)
    // Through buffers: the debug build `swift run` makes pays for every checked access.
    rows.withUnsafeBufferPointer { rows in
      owners.withUnsafeBufferPointer { owners in
        for index in candidates where only.map({ Int(owners[index]) == $0 }) ?? true {
          if compiled.matches(rows[index]) { kept.append(index) }
        }
      }
    }
    shown = kept
    applied = parsed
    appliedCustomer = only
  }

  /// Moves the selection by `delta` rows, within the list.
  mutating func move(by delta: Int) {
    selected = max(0, min(shown.count - 1, selected + max(-1_000_000, min(1_000_000, delta))))
  }
}
