import StoreCommands
import StoreSimulation

extension InspectorState {
  /// `c`: the customers view, where it was when it last closed.
  mutating func openCustomers(_ session: SessionView) {
    guard session.customers.count > 1 else {
      complain("the session has only its own customer: :customer <name> makes another")
      return
    }
    var view = customersPlace
    view.refresh(session, revision: Self.customersRevision(session))
    overlay = .customers(view)
  }

  /// Keeps an open customers view (or every customer's transactions) in line with the session
  /// (after a command, a renewal).
  mutating func refreshCustomers(_ session: SessionView) {
    switch overlay {
    case .customers(var view):
      view.refresh(session, revision: Self.customersRevision(session))
      overlay = .customers(view)
    case .everyTransaction(var view):
      view.refresh(session, revision: Self.customersRevision(session))
      overlay = .everyTransaction(view)
    default: return
    }
  }

  /// What the customers' summaries change with: the events caused, step backs, customers made.
  /// (The clock alone changes no summary.)
  static func customersRevision(_ session: SessionView) -> Int {
    Int(truncatingIfNeeded: session.emittedEventCount) &* 31 &+ session.stepBacks &* 7
      &+ session.customers.count
  }

  /// A key in the customers view.
  mutating func handleCustomers(
    _ view: CustomersView, _ key: Key, session: SessionView
  ) -> [InspectorEffect] {
    var view = view
    if view.takeListKey(key, page: max(1, terminalSize.height - 8), session) {
      overlay = .customers(view)
      return []
    }
    switch key {
    case .escape, .character("q"), .character("c"):
      customersPlace = view
      overlay = nil
      returnsToCustomers = false
      return []
    case .enter:
      customersPlace = view
      overlay = nil
      returnsToCustomers = true
      guard let chosen = view.selectedCustomer else { return [] }
      return [Self.apply(.customer(name: chosen.customer.name, number: nil))]
    case .character("?"):
      overlay = .help(HelpOverlay(topic: .customers(view)))
      return []
    case .character("t"):
      var every = EveryTransactionView(from: view)
      every.refresh(session, revision: Self.customersRevision(session))
      overlay = .everyTransaction(every)
      return []
    case .character(let digit) where ("1"..."8").contains(digit):
      let column = CustomersView.Column(rawValue: Int(String(digit))! - 1)!
      view.sort(by: column, session)
    default:
      complain("\(key.label) does nothing in the customers view; ? lists its keys")
    }
    overlay = .customers(view)
    return []
  }

  /// A key in the list of every customer's transactions.
  mutating func handleEveryTransaction(
    _ view: EveryTransactionView, _ key: Key, session: SessionView
  ) -> [InspectorEffect] {
    var view = view
    if view.takeListKey(key, page: max(1, terminalSize.height - 6), session) {
      overlay = .everyTransaction(view)
      return []
    }
    switch key {
    case .escape, .character("t"):
      overlay = .customers(view.from)
      return []
    case .character("q"):
      customersPlace = view.from
      overlay = nil
      return []
    case .enter:
      guard let (row, customer) = view.selectedRow else { return [] }
      customersPlace = view.from
      overlay = nil
      returnsToCustomers = true
      guard customer != session.customer else {
        table.select(id: row.id)
        return []
      }
      pendingSelection = row.id
      return [Self.apply(.customer(name: customer.name, number: nil))]
    default:
      complain(
        "\(key.label) does nothing here: Enter opens the transaction's customer, / filters, Esc goes back"
      )
    }
    overlay = .everyTransaction(view)
    return []
  }
}
