import StoreConfiguration
import StoreSimulation

/// The customers view (`c`): every customer in a list like k9s's — name, storefront, product,
/// status in StoreKit's words, since, renewals, revenue — sortable by any column, filtered as
/// you type, with an overview line and a chart of subscribers at each month's end. Enter opens
/// the selected customer; the view keeps its place for when it opens again.
package struct CustomersView: Equatable, Sendable, FilteredList {
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
  /// Each customer's fields as the filter reads them, and a sort key per column (strings by
  /// rank), made once per refresh so that a key press filters and sorts integers.
  private var fields: [CustomerFilter.Fields] = []
  private var keys: [[Int64]] = []
  /// Each customer's status, for the overview.
  private var statuses: [RenewalState?] = []
  /// Every customer in the sort's order (made when the summaries or the sort change), which a
  /// keystroke filters without sorting again.
  private var order: [Int] = []
  /// The filter `shown` was made with: a filter typed on from it looks only at `shown`.
  private var applied = CustomerFilter.all
  /// Who held a paid period at each month's end, by slot; `all[i]` is in slot `i + slotOffset`.
  private var holding = MonthEndHolding()
  private var slotOffset = 0

  package init() {}

  package static func == (lhs: CustomersView, rhs: CustomersView) -> Bool {
    lhs.shown == rhs.shown && lhs.all == rhs.all && lhs.sort == rhs.sort
      && lhs.ascending == rhs.ascending && lhs.filter == rhs.filter
      && lhs.isFiltering == rhs.isFiltering && lhs.selected == rhs.selected
  }

  /// The customers the filter keeps, in order.
  package var rows: [CustomerSummary] { shown.map { all[$0] } }

  /// How many customers the filter keeps.
  package var rowCount: Int { shown.count }

  /// The kept customers from `first`, at most `count` (a frame's worth, not all of them).
  package func page(from first: Int, count: Int) -> [CustomerSummary] {
    shown.dropFirst(first).prefix(max(0, count)).map { all[$0] }
  }

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
    slotOffset = 0
    if summaries.count > 1 && summaries[0].transactions == 0 {
      summaries.removeFirst()
      slotOffset = 1
    }
    all = summaries
    fields = summaries.map(CustomerFilter.Fields.init)
    statuses = summaries.map(\.status)
    keys = Column.allCases.map { Self.keys(of: summaries, by: $0) }
    holding = session.monthEndHolding()
    sortOrder()
    arrange(session, keeping: keep)
  }

  /// Sorts by `column` (the same column again reverses the order), from the top.
  mutating func sort(by column: Column, _ session: SessionView) {
    ascending = column == sort ? !ascending : true
    sort = column
    sortOrder()
    arrange(session, keeping: nil)
  }

  /// Puts every customer in the sort's order (ties by number).
  ///
  /// - Complexity: O(*c* log *c*).
  private mutating func sortOrder() {
    let key = keys.isEmpty ? [] : keys[sort.rawValue]
    let ascending = self.ascending
    let numbers = all.map { $0.customer.number }
    order = all.indices.sorted { a, b in
      if key[a] != key[b] { return (key[a] < key[b]) == ascending }
      return numbers[a] < numbers[b]
    }
    applied = CustomerFilter.all
    shown = order
  }

  /// Moves the selection by `delta` rows, within the list.
  mutating func move(by delta: Int) {
    selected = max(0, min(shown.count - 1, selected + max(-1_000_000, min(1_000_000, delta))))
  }

  /// Filters again after the filter's text changed, from the top.
  mutating func refilter(_ session: SessionView) {
    arrange(session, keeping: nil)
  }

  /// Applies the filter to the sorted customers (to those it kept, when the filter was typed on:
  /// an incremental filter), and finds the overview of who is kept.
  ///
  /// - Complexity: O(*c* × *m*) for *c* customers over *m* months, byte comparisons and integer
  ///   work; no sort.
  private mutating func arrange(_ session: SessionView, keeping customer: Customer?) {
    var kept = CustomerFilter.all
    do throws(TransactionFilter.ParseError) {
      kept = try CustomerFilter(parsing: filter.text)
      filterError = nil
    } catch {
      filterError = error.message
    }
    if kept != applied {
      let from = kept.narrows(applied) ? shown : order
      shown = kept.isEmpty ? order : from.filter { kept.matches(fields[$0]) }
      applied = kept
    }
    var keptStatuses: [RenewalState?] = []
    var slots: [Int] = []
    keptStatuses.reserveCapacity(shown.count)
    slots.reserveCapacity(shown.count)
    for index in shown {
      keptStatuses.append(statuses[index])
      slots.append(index + slotOffset)
    }
    overview = Session.overview(statuses: keptStatuses, slots: slots, holding: holding)
    selected = customer.flatMap { wanted in shown.firstIndex { all[$0].customer == wanted } } ?? 0
    move(by: 0)
  }

  /// Each customer's sort key by `column`: numbers as they are, words by their rank.
  private static func keys(of summaries: [CustomerSummary], by column: Column) -> [Int64] {
    func ranks(_ words: [String]) -> [Int64] {
      let order = Dictionary(
        Set(words).sorted().enumerated().map { ($1, Int64($0)) }, uniquingKeysWith: { a, _ in a })
      return words.map { order[$0]! }
    }
    switch column {
    case .name: return ranks(summaries.map { $0.customer.name ?? "" })
    case .storefront: return ranks(summaries.map(\.storefront.countryCode))
    case .product: return ranks(summaries.map { $0.productID ?? "" })
    case .status: return ranks(summaries.map(\.statusName))
    case .since: return summaries.map { $0.since?.milliseconds ?? .min }
    case .renewals: return summaries.map { Int64($0.renewals) }
    // A yen is not a dollar: customers are grouped by the currency they paid in (by its code),
    // then sorted by what they paid in it.
    case .revenue:
      let currencies = ranks(summaries.map { $0.revenue.keys.min() ?? "" })
      return zip(summaries, currencies).map { summary, rank in
        let paid = summary.revenue.values.reduce(0, +)
        return rank << 44 + max(-(1 << 43), min(1 << 43 - 1, paid))
      }
    case .transactions: return summaries.map { Int64($0.transactions) }
    }
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
    (
      "Revenue",
      "charges less refunds, in the storefront's currency: the configuration's number in that "
        + "currency (a .storekit file has one price list); sorted by currency, then amount"
    ),
    ("Esc c q", "close (c in the panes opens it again where it was)"),
    ("?", "this help"),
  ]
}
