import StoreConfiguration
import StoreSimulation

/// The customers view (`c`): every customer in a list like k9s's — name, storefront, product,
/// status in StoreKit's words, since, renewals, revenue — sortable by any column, filtered as
/// you type, with an overview line and a chart of subscribers at each month's end. Enter opens
/// the selected customer; the view keeps its place for when it opens again.
package struct CustomersView: Equatable, Sendable {
  /// A column of the list, in screen order; its number key (1–8) sorts by it.
  package enum Column: Int, CaseIterable, Sendable {
    case name, storefront, product, status, since, renewals, revenue, transactions

    /// The column's title.
    package var title: String { CustomerListing.header[rawValue] }
  }

  /// Every customer, as the session last summarized them.
  private(set) var all: [CustomerSummary] = []
  /// The indices of `all` the filter keeps, in the sort's order.
  private(set) var shown: [Int] = []
  /// The overview of the customers the filter keeps.
  private(set) var overview = CustomerOverview()
  /// The column the list is sorted by, and the direction.
  package private(set) var sort = Column.name
  package private(set) var ascending = true
  /// The filter as typed, whether it is being typed, and what is wrong with it.
  package var filter = TextInput()
  package var isFiltering = false
  package private(set) var filterError: String?
  /// The selected row (an index into `shown`).
  package private(set) var selected = 0
  /// What the summaries were made from: the host's revision and the session's now.
  private var madeFrom: (revision: Int, now: Instant)?

  package init() {}

  package static func == (lhs: CustomersView, rhs: CustomersView) -> Bool {
    lhs.shown == rhs.shown && lhs.all == rhs.all && lhs.sort == rhs.sort
      && lhs.ascending == rhs.ascending && lhs.filter == rhs.filter
      && lhs.isFiltering == rhs.isFiltering && lhs.selected == rhs.selected
  }

  /// The customers on screen, in order.
  package var rows: [CustomerSummary] { shown.map { all[$0] } }

  /// The selected customer, if any is shown.
  package var selectedCustomer: CustomerSummary? {
    shown.indices.contains(selected) ? all[shown[selected]] : nil
  }

  /// Summarizes the session's customers again when it changed since (a command, the clock), and
  /// keeps the selection on the same customer.
  ///
  /// - Complexity: O(*n* + *c* log *c*) when it changed, O(1) otherwise.
  mutating func refresh(_ session: SessionView, revision: Int) {
    if let made = madeFrom, made.revision == revision, made.now == session.now { return }
    madeFrom = (revision, session.now)
    let keep = selectedCustomer?.customer
    var summaries = session.customerSummaries()
    if summaries.count > 1 && summaries[0].transactions == 0 { summaries.removeFirst() }
    all = summaries
    arrange(session, keeping: keep)
  }

  /// Sorts by `column` (the same column again reverses the order), from the top.
  mutating func sort(by column: Column, _ session: SessionView) {
    ascending = column == sort ? !ascending : true
    sort = column
    arrange(session, keeping: nil)
  }

  /// Moves the selection by `delta` rows, within the list.
  mutating func move(by delta: Int) {
    selected = max(0, min(shown.count - 1, selected + max(-1_000_000, min(1_000_000, delta))))
  }

  /// Filters again after the filter's text changed, from the top.
  mutating func refilter(_ session: SessionView) {
    arrange(session, keeping: nil)
  }

  /// Applies the filter and the sort, and finds the overview of who is kept.
  private mutating func arrange(_ session: SessionView, keeping customer: Customer?) {
    var kept = CustomerFilter.all
    do throws(TransactionFilter.ParseError) {
      kept = try CustomerFilter(parsing: filter.text)
      filterError = nil
    } catch {
      filterError = error.message
    }
    let order = Self.order(sort)
    let ascending = self.ascending
    shown = all.indices.filter { kept.matches(all[$0]) }.sorted { a, b in
      let (x, y) = (all[a], all[b])
      if order(x, y) { return ascending }
      if order(y, x) { return !ascending }
      return x.customer.number < y.customer.number
    }
    overview = session.customerOverview(shown.map { all[$0] })
    selected = customer.flatMap { wanted in shown.firstIndex { all[$0].customer == wanted } } ?? 0
    move(by: 0)
  }

  /// Whether `a` comes before `b` by a column (ties are broken by the customer's number).
  private static func order(_ column: Column) -> (CustomerSummary, CustomerSummary) -> Bool {
    switch column {
    case .name: { ($0.customer.name ?? "") < ($1.customer.name ?? "") }
    case .storefront: { $0.storefront.countryCode < $1.storefront.countryCode }
    case .product: { ($0.productID ?? "") < ($1.productID ?? "") }
    case .status: { $0.statusName < $1.statusName }
    case .since: { ($0.since?.milliseconds ?? .min) < ($1.since?.milliseconds ?? .min) }
    case .renewals: { $0.renewals < $1.renewals }
    case .revenue: { revenueKey($0) < revenueKey($1) }
    case .transactions: { $0.transactions < $1.transactions }
    }
  }

  /// Revenue compared across currencies by its total in milliunits (a yen is not a dollar, but
  /// a list sorted by what customers paid puts the biggest payers of each currency together).
  private static func revenueKey(_ summary: CustomerSummary) -> Int64 {
    summary.revenue.values.reduce(0, +)
  }

  /// The view's keys, for its help and footer.
  static let keys: [(String, String)] = [
    ("↑↓ j k PgUp PgDn g G", "move"),
    ("Enter", "open the selected customer: the products, table, inspector and log follow them"),
    (
      "1–8",
      "sort by a column (name, storefront, product, status, since, renewals, revenue, txns); "
        + "again reverses"
    ),
    (
      "/",
      "filter: name:, status: (by prefix), product:, storefront:; a bare word matches any; "
        + "! negates; Enter keeps, Esc clears"
    ),
    ("Esc c q", "close (c in the panes opens it again where it was)"),
    ("?", "this help"),
  ]
}
