import StoreCommands
import StoreConfiguration
import StoreSimulation

/// The transaction inspector's state and logic, without a terminal: keys come in, commands go to
/// the journaled session, events update the state, and ``render(width:height:)`` draws it.
///
/// Every change to the session goes through the command language and the journal, so what a
/// person does here can be replayed like a script.
public struct App {
  /// The session and its journal.
  public internal(set) var journaled: JournaledSession
  /// The configuration file being watched.
  public let configurationPath: String
  /// How the TUI looks.
  public var display: DisplayOptions
  /// The clock.
  public internal(set) var clock: ClockState
  /// The pane with focus.
  public internal(set) var focus: Pane = .transactions
  /// The open dialog or text line, if any.
  public internal(set) var overlay: Overlay?
  /// The message of the status line, and whether it is an error.
  public internal(set) var message: (text: String, isError: Bool)?
  /// Whether the event log is shown.
  public internal(set) var showsLog = false
  /// Whether the inspector fills the screen.
  public internal(set) var zoomed = false
  /// Set when the person asked to quit.
  public internal(set) var wantsToQuit = false
  /// Signing and server notifications, when the binary supplies them.
  public var hooks = InspectorHooks()
  /// The wall clock at the last tick or key.
  public internal(set) var wall: Instant
  /// The catch-up in progress, if the clock is far behind.
  public internal(set) var catchUp: CatchUp?

  var productEntries: [ProductEntry] = []
  var productCursor = 0
  /// Every transaction, ascending id.
  var rows: [LedgerRow] = []
  /// Positions in `rows` that pass the filter, newest first.
  var visible: [Int] = []
  /// The selected transaction, kept while rows arrive.
  var selectedID: UInt64?
  var inspectorTop = 0
  /// The terminal's size at the last frame (clicks are mapped with it).
  public var terminalSize = (width: 80, height: 24)
  var logLines: [String] = []
  var filter = TransactionFilter.all
  var compiledFilter: CompiledTransactionFilter
  var filterError: String?
  var history: [String] = []
  var pendingCounts = PendingCounts()
  /// Products the customer is entitled to now (recomputed when events arrive, not per frame).
  var entitledProducts: Set<String> = []
  var configurationBytes: [UInt8]

  /// The inspector over a journaled session.
  ///
  /// - Parameters:
  ///   - configurationBytes: the file's bytes as last loaded, to notice changes on disk.
  ///   - clock: running or paused, and the offset of simulated time from the wall clock.
  public init(
    journaled: JournaledSession, configurationPath: String, configurationBytes: [UInt8],
    display: DisplayOptions, clock: ClockState
  ) {
    self.journaled = journaled
    self.configurationPath = configurationPath
    self.configurationBytes = configurationBytes
    self.display = display
    self.clock = clock
    self.wall = journaled.session.now.adding(milliseconds: clock.offset)
    self.compiledFilter = TransactionFilter.all.compiled(for: journaled.session.catalog)
    rebuildProducts()
    reloadRows()
  }

  /// The session.
  public var session: Session { journaled.session }

  // MARK: - Commands

  /// Applies a command through the journal; its events update the rows and the log. An error
  /// goes to the status line and changes nothing.
  @discardableResult
  public mutating func perform(_ command: Command) -> Bool {
    var events: [StoreEvent] = []
    do throws(CommandError) {
      try journaled.apply(command) { events.append($0) }
      try journaled.commit()
    } catch {
      message = ("\(command): \(error.explanation)", true)
      return false
    }
    absorb(events)
    keepClockAhead()
    if case .set = command { rebuildProducts() }
    if case .reset = command { rebuildProducts() }
    return true
  }

  /// Applies a line of the command language.
  public mutating func perform(line: String) {
    do throws(CommandError) {
      guard let command = try Command.parse(line) else { return }
      if perform(command) { message = (command.description, false) }
    } catch {
      message = ("\(line): \(error.explanation)", true)
    }
  }

  /// Updates the rows and the log from events. While catching up (`refiltering` false) the
  /// visible rows and entitlements wait for the end.
  mutating func absorb(_ events: [StoreEvent], refiltering: Bool = true) {
    guard !events.isEmpty else { return }
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
    // Only the lines the log keeps are worth formatting.
    for event in events.suffix(Self.logLimit) {
      appendLog(EventSummary.line(event, currencyFormatter: Formatting.price))
    }
    for line in hooks.eventsApplied?(events, session) ?? [] {
      appendLog("\(Formatting.clock(line.time).suffix(8)) \(line.text)")
      if line.isFailure { message = (line.text, true) }
    }
    if !removed.isEmpty {
      rows.removeAll { removed.contains($0.id) }
    }
    if refiltering { entitledProducts = Set(session.currentEntitlements().map(\.productID)) }
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
    if refiltering { refilter() }
  }

  /// Shows a notice in the status line and the event log.
  public mutating func note(_ text: String) {
    message = (text, false)
    appendLog(text)
  }

  /// The most lines the event log keeps.
  static let logLimit = 2000

  mutating func appendLog(_ line: String) {
    logLines.append(line)
    if logLines.count > Self.logLimit * 2 { logLines.removeFirst(logLines.count - Self.logLimit) }
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

  /// Rebuilds every row from the session (after a load or a reload).
  mutating func reloadRows() {
    rows = session.ledgerRows()
    entitledProducts = Set(session.currentEntitlements().map(\.productID))
    refilter()
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
      switch row.state {
      case .pending: counts.awaitingApproval += 1
      case .interrupted: counts.withIssues += 1
      case .grace, .retry:
        counts.withIssues += 1
        if !row.isFinished { counts.unfinished += 1 }
      case .failed, .declined: break
      default: if !row.isFinished { counts.unfinished += 1 }
      }
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

  /// Sets the filter; an invalid one is explained and the last valid one stays.
  mutating func applyFilter(_ text: String) {
    do throws(TransactionFilter.ParseError) {
      filter = try TransactionFilter(parsing: text)
      compiledFilter = filter.compiled(for: session.catalog)
      filterError = nil
      refilter()
    } catch {
      filterError = error.message
    }
  }

  /// The first line shown of a list scrolled so that `selected` is visible.
  func scrollTop(selected: Int, height: Int) -> Int { max(0, selected - max(1, height) + 1) }

  /// The selected transaction's index in `visible`, kept with `selectedID`.
  var selectedIndex: Int?

  /// Selects the transaction at an index of `visible`.
  mutating func select(visibleIndex index: Int) {
    guard visible.indices.contains(index) else { return }
    selectedIndex = index
    selectedID = rows[visible[index]].id
  }

  /// The products, grouped by type and subscription group.
  mutating func rebuildProducts() {
    let catalog = session.catalog
    var entries: [ProductEntry] = []
    let sections: [(String, ProductType)] = [
      ("Consumables", .consumable), ("Non-Consumables", .nonConsumable),
      ("Non-Renewing", .nonRenewingSubscription),
    ]
    for (title, type) in sections {
      let members = catalog.products.indices.filter {
        catalog.products[$0].type == type && catalog.products[$0].isAvailable
      }
      if members.isEmpty { continue }
      entries.append(.heading(title))
      entries += members.map { .product($0) }
    }
    for group in catalog.groups where !group.productIndices.isEmpty {
      let name = group.localizations.best(for: session.settings.locale)?.displayName ?? group.name
      entries.append(.heading(name.isEmpty ? group.id : name))
      entries += group.productIndices.sorted {
        catalog.products[$0].level < catalog.products[$1].level
      }
      .map { .product($0) }
    }
    productEntries = entries
    productCursor = min(productCursor, max(0, entries.count - 1))
    if case .heading? = entries.indices.contains(productCursor) ? entries[productCursor] : nil {
      moveProductCursor(by: 1)
    }
  }

  mutating func moveProductCursor(by delta: Int) {
    var index = productCursor
    for _ in 0..<productEntries.count {
      index += delta > 0 ? 1 : -1
      guard productEntries.indices.contains(index) else { return }
      if case .product = productEntries[index] {
        productCursor = index
        if abs(delta) <= 1 { return }
      }
    }
  }

  /// The selected product's catalog index.
  var selectedProduct: Int? {
    guard productEntries.indices.contains(productCursor),
      case .product(let index) = productEntries[productCursor]
    else { return nil }
    return index
  }
}

/// What the status bar counts.
struct PendingCounts: Equatable {
  var unfinished = 0
  var awaitingApproval = 0
  var withIssues = 0
}
